"""The only package that talks to a model."""

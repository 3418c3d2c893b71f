"""Evaluations: how well the brain does on a corpus with known answers."""

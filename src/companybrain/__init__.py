"""companybrain: a company brain that cites its sources or refuses."""

__version__ = "0.1.0"

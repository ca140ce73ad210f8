"""minicsv: a tiny CSV toolkit."""

__version__ = "0.1.0"

"""minidate: small date and duration helpers."""

__version__ = "0.1.0"

"""minitext: small text helpers."""

__version__ = "0.1.0"

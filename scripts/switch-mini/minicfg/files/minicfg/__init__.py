"""minicfg: tiny configuration and command-line options."""

__version__ = "0.1.0"

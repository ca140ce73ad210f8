"""Command-line option types."""

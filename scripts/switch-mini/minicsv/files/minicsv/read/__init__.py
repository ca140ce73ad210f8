"""Reading CSV text."""

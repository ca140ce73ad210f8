"""Writing CSV text."""

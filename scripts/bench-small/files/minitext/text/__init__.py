"""Text transformations."""

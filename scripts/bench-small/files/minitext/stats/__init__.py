"""Text statistics."""

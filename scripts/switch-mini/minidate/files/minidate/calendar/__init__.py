"""Calendar arithmetic."""

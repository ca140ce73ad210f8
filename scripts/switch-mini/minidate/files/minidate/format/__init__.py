"""Human-readable output."""

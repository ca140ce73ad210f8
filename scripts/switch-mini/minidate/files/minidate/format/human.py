"""Human-readable durations."""

UNITS = [("day", 86400), ("hour", 3600), ("minute", 60), ("second", 1)]


def humanize(delta):
    """Describe the timedelta delta in its largest whole unit, e.g. "3 hours" or "45 seconds"."""
    seconds = int(delta.total_seconds())
    for name, size in UNITS:
        if seconds >= size:
            return f"{seconds // size} {name}s"
    return "0 seconds"

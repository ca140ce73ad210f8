"""Human-readable date ranges."""

MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def format_date(day):
    """Format a date as e.g. "5 Mar 2024"."""
    return f"{day.day} {MONTHS[day.month - 1]} {day.year}"


def format_range(start, end):
    """Format the dates from start to end (inclusive), e.g. "5 Mar 2024 - 9 Mar 2024"."""
    if end < start:
        raise ValueError("end is before start")
    return f"{format_date(start)} - {format_date(end)}"

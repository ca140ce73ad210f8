"""Working-day arithmetic (Monday to Friday)."""

from datetime import timedelta


def is_workday(day):
    """Return True if day is a Monday to Friday."""
    return day.weekday() < 5


def add_workdays(start, n):
    """Return the date n working days after start, e.g. Friday + 1 -> Monday."""
    day = start
    while n > 0:
        day += timedelta(days=1)
        if is_workday(day):
            n -= 1
    return day

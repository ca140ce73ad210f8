"""Parsing of durations such as "90s" or "2h"."""

import re
from datetime import timedelta

UNITS = {"d": 86400, "h": 3600, "m": 60, "s": 1}


def parse_duration(text):
    """Return the timedelta written in text: a whole number and a unit, e.g. "90s" or "2h".

    Units: d (days), h (hours), m (minutes), s (seconds). Raises ValueError otherwise.
    """
    match = re.fullmatch(r"(\d+)([dhms])", text.strip())
    if not match:
        raise ValueError(f"invalid duration: {text!r}")
    return timedelta(seconds=int(match.group(1)) * UNITS[match.group(2)])

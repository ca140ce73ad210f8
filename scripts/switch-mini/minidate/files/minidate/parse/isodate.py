"""Parsing of ISO 8601 dates."""

import re
from datetime import date


def parse_date(text):
    """Return the date written in text as YYYY-MM-DD, e.g. "2024-03-05".

    Raises ValueError for anything else, including impossible dates like "2024-02-30".
    """
    match = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", text.strip())
    if not match:
        raise ValueError(f"invalid date: {text!r}")
    year, month, day = (int(part) for part in match.groups())
    return date(year, month, day)

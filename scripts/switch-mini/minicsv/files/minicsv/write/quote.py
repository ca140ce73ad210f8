"""Quoting single CSV fields."""


def quote_field(value, delimiter=","):
    """Return value as CSV field text, in double quotes when it contains the delimiter."""
    text = str(value)
    if delimiter in text:
        return '"' + text + '"'
    return text

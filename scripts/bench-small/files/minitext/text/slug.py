"""URL slugs."""

import re


def slugify(text):
    """Return a URL slug for `text`: lower-case, with "-" in place of every other character."""
    return re.sub(r"[^a-z0-9]", "-", text.lower())

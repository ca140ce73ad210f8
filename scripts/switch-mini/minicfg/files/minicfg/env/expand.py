"""Expansion of $NAME references in configuration values."""

import re

_REF = re.compile(r"\$(\w+)")


def expand(text, environ):
    """Replace each $NAME in `text` with environ[NAME]; unknown names are left as written."""
    return _REF.sub(lambda match: environ.get(match.group(1), match.group(0)), text)

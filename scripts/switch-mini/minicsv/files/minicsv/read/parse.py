"""Reading CSV text into rows of fields."""


def parse_line(line, delimiter=","):
    """Split one CSV line into its fields.

    A field wrapped in double quotes may contain the delimiter; the quotes are dropped.
    """
    fields = []
    field = ""
    quoted = False
    for ch in line:
        if ch == '"':
            quoted = not quoted
        elif ch == delimiter and not quoted:
            fields.append(field)
            field = ""
        else:
            field += ch
    fields.append(field)
    return fields


def parse(text, delimiter=","):
    """Split CSV text into a list of rows, skipping empty lines."""
    return [parse_line(line, delimiter) for line in text.splitlines() if line]

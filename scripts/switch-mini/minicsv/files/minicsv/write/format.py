"""Writing rows as CSV text."""

from minicsv.write.quote import quote_field


def format_row(row, delimiter=","):
    """Return one CSV line (without line break) for the values of row."""
    return delimiter.join(quote_field(value, delimiter) for value in row)


def format_rows(rows, delimiter=","):
    """Return CSV text for rows, every line ending with a line break."""
    return "".join(format_row(row, delimiter) + "\n" for row in rows)

"""The "Options:" section of a command's --help."""


def format_help(options):
    """Return the help section for `options`, a list of (names, help) pairs.

    format_help([("--verbose", "Talk more.")]) == "Options:\n  --verbose  Talk more."
    """
    lines = ["Options:"]
    for names, text in options:
        lines.append(f"  {names}  {text}".rstrip())
    return "\n".join(lines)

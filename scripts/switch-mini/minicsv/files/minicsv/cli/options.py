"""Command-line options of the minicsv tool."""

DEFAULTS = {"delimiter": ",", "header": True, "columns": None, "path": None}


def parse_options(argv):
    """Turn the argument list argv into a dict of options (see DEFAULTS).

    -d/--delimiter CHAR, --no-header, --columns a,b,c, and one input path.
    """
    options = dict(DEFAULTS)
    args = list(argv)
    while args:
        arg = args.pop(0)
        if arg in ("-d", "--delimiter"):
            options["delimiter"] = args.pop(0)
        elif arg == "--no-header":
            options["header"] = False
        elif arg == "--columns":
            options["columns"] = args.pop(0).split(",")
        elif arg.startswith("-"):
            raise ValueError(f"unknown option: {arg}")
        else:
            options["path"] = arg
    return options

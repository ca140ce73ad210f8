"""Command-line flags."""


class Flag:
    """A flag such as --verbose: either given on the command line or not.

    When the flag is given its value is flag_value (True unless told otherwise, e.g. "upper"
    for an --upper flag in a group of case flags); when it is not, its value is the default.
    """

    def __init__(self, name, default=False, flag_value=True, help=""):
        self.name = name
        self.default = default
        self.flag_value = flag_value
        self.help = help

    def resolve(self, present):
        """Return the flag's value, given whether it appeared on the command line."""
        if present:
            return self.flag_value
        return self.default

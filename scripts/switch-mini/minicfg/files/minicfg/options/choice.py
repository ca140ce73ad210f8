"""Options whose value must be one of a fixed list."""


class Choice:
    """A value that must be one of `choices`, e.g. Choice(["json", "yaml"]) for --format."""

    def __init__(self, choices):
        self.choices = list(choices)

    def convert(self, value):
        """Return `value` if it is one of the choices, else raise ValueError."""
        if value in self.choices:
            return value
        raise ValueError(f"invalid choice {value!r} (choose from {', '.join(self.choices)})")

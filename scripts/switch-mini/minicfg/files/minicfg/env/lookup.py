"""Reading option values from environment variables."""

import os


def lookup(name, environ=None, prefix=""):
    """Return the value of the environment variable `prefix + name`, or None if it is not set.

    `environ` defaults to os.environ.
    """
    env = os.environ if environ is None else environ
    return env.get(prefix + name)

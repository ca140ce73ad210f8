// minicfg: a tiny configuration and command-line options library (standard library only), and
// five tasks on it for the Switch-SWE mini suite. Format: scripts/switch-mini/FORMAT.md.
// Near pairs: minicfg/options/{flag,choice}.py and minicfg/env/{lookup,expand}.py; far:
// minicfg/render/help.py. Task 1 is the paper's Click-style case: a callable default added in
// review must keep the rule for the literal True default.

// ---------------------------------------------------------------------------------------------
// The repository at its base commit.

const FLAG_BASE = `"""Command-line flags."""


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
`;

const CHOICE_BASE = `"""Options whose value must be one of a fixed list."""


class Choice:
    """A value that must be one of \`choices\`, e.g. Choice(["json", "yaml"]) for --format."""

    def __init__(self, choices):
        self.choices = list(choices)

    def convert(self, value):
        """Return \`value\` if it is one of the choices, else raise ValueError."""
        if value in self.choices:
            return value
        raise ValueError(f"invalid choice {value!r} (choose from {', '.join(self.choices)})")
`;

const LOOKUP_BASE = `"""Reading option values from environment variables."""

import os


def lookup(name, environ=None, prefix=""):
    """Return the value of the environment variable \`prefix + name\`, or None if it is not set.

    \`environ\` defaults to os.environ.
    """
    env = os.environ if environ is None else environ
    return env.get(prefix + name)
`;

const EXPAND_BASE = `"""Expansion of $NAME references in configuration values."""

import re

_REF = re.compile(r"\\$(\\w+)")


def expand(text, environ):
    """Replace each $NAME in \`text\` with environ[NAME]; unknown names are left as written."""
    return _REF.sub(lambda match: environ.get(match.group(1), match.group(0)), text)
`;

const HELP_BASE = `"""The "Options:" section of a command's --help."""


def format_help(options):
    """Return the help section for \`options\`, a list of (names, help) pairs.

    format_help([("--verbose", "Talk more.")]) == "Options:\\n  --verbose  Talk more."
    """
    lines = ["Options:"]
    for names, text in options:
        lines.append(f"  {names}  {text}".rstrip())
    return "\\n".join(lines)
`;

const EXISTING_TESTS = `import pytest

from minicfg.env.expand import expand
from minicfg.env.lookup import lookup
from minicfg.options.choice import Choice
from minicfg.options.flag import Flag
from minicfg.render.help import format_help


def test_flag_given_on_the_command_line_is_true():
    assert Flag("--verbose").resolve(True) is True


def test_flag_not_given_uses_its_false_default():
    assert Flag("--verbose").resolve(False) is False


def test_flag_given_uses_its_flag_value():
    assert Flag("--upper", flag_value="upper").resolve(True) == "upper"


def test_choice_accepts_a_listed_value():
    assert Choice(["json", "yaml"]).convert("yaml") == "yaml"


def test_choice_rejects_an_unlisted_value():
    with pytest.raises(ValueError):
        Choice(["json", "yaml"]).convert("xml")


def test_lookup_reads_a_variable_by_its_exact_name():
    assert lookup("HOME", {"HOME": "/home/ada"}) == "/home/ada"
    assert lookup("HOME", {}) is None


def test_expand_replaces_known_names_and_keeps_unknown_ones():
    assert expand("$HOME/.cfg and $NOPE", {"HOME": "/home/ada"}) == "/home/ada/.cfg and $NOPE"


def test_help_lists_one_option():
    assert format_help([("--verbose", "Talk more.")]) == "Options:\\n  --verbose  Talk more."
`;

const EXISTING_NAMES = [
  "test_flag_given_on_the_command_line_is_true",
  "test_flag_not_given_uses_its_false_default",
  "test_flag_given_uses_its_flag_value",
  "test_choice_accepts_a_listed_value",
  "test_choice_rejects_an_unlisted_value",
  "test_lookup_reads_a_variable_by_its_exact_name",
  "test_expand_replaces_known_names_and_keeps_unknown_ones",
  "test_help_lists_one_option",
];

// ---------------------------------------------------------------------------------------------
// Task 1 (minicfg/options/flag.py): a literal True default means flag_value; then callable
// defaults, whose True result must follow the same rule (the Click-style case).

const FLAG_STAGE_1 = `"""Command-line flags."""


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
        """Return the flag's value, given whether it appeared on the command line.

        A default of the literal True means "on by default": the value is then flag_value.
        Any other default, truthy or not (1, "yes"), is the value as it is.
        """
        if present:
            return self.flag_value
        if self.default is True:
            return self.flag_value
        return self.default
`;

const FLAG_STAGE_2 = `"""Command-line flags."""


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

    def _default(self):
        value = self.default() if callable(self.default) else self.default
        if value is True:
            return self.flag_value
        return value

    def resolve(self, present):
        """Return the flag's value, given whether it appeared on the command line.

        The default may be a callable with no arguments, called each time the default is
        needed. A default (or callable result) of the literal True means "on by default": the
        value is then flag_value. Any other default, truthy or not, is the value as it is.
        """
        if present:
            return self.flag_value
        return self._default()
`;

const FLAG_FORGETFUL = `"""Command-line flags."""


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
        """Return the flag's value, given whether it appeared on the command line.

        The default may be a callable with no arguments, called each time it is needed.
        """
        if present:
            return self.flag_value
        if callable(self.default):
            return self.default()
        if self.default is True:
            return self.flag_value
        return self.default
`;

const FLAG_TESTS = `from minicfg.options.flag import Flag


def test_literal_true_default_means_flag_value():
    assert Flag("--upper", flag_value="upper", default=True).resolve(False) == "upper"
    assert Flag("--upper", flag_value="upper", default=True).resolve(True) == "upper"


def test_only_the_literal_true_default_is_special():
    assert Flag("--upper", flag_value="upper", default=True).resolve(False) == "upper"
    assert Flag("--level", flag_value="high", default="yes").resolve(False) == "yes"
    assert Flag("--level", flag_value="high", default=1).resolve(False) == 1
    assert Flag("--color", default=True).resolve(False) is True


def test_callable_default_is_called_only_when_needed():
    calls = []

    def default():
        calls.append(1)
        return "never"

    flag = Flag("--color", flag_value="always", default=default)
    assert calls == []
    assert flag.resolve(True) == "always"
    assert calls == []
    assert flag.resolve(False) == "never"
    assert flag.resolve(False) == "never"
    assert calls == [1, 1]


def test_callable_default_returning_true_means_flag_value():
    assert Flag("--color", flag_value="always", default=lambda: True).resolve(False) == "always"
    assert Flag("--color", flag_value="always", default=lambda: False).resolve(False) is False
    assert Flag("--level", flag_value="high", default=lambda: 1).resolve(False) == 1
`;

// ---------------------------------------------------------------------------------------------
// Task 2 (minicfg/options/choice.py): case-insensitive choices returning the listed spelling;
// then unique prefixes, which must follow case_sensitive too.

const CHOICE_STAGE_1 = `"""Options whose value must be one of a fixed list."""


class Choice:
    """A value that must be one of \`choices\`, e.g. Choice(["json", "yaml"]) for --format.

    With case_sensitive=False, values are compared case-insensitively and the spelling from
    \`choices\` is returned.
    """

    def __init__(self, choices, case_sensitive=True):
        self.choices = list(choices)
        self.case_sensitive = case_sensitive

    def _fold(self, text):
        return text if self.case_sensitive else text.casefold()

    def convert(self, value):
        """Return the choice matching \`value\`, else raise ValueError."""
        for choice in self.choices:
            if self._fold(choice) == self._fold(value):
                return choice
        raise ValueError(f"invalid choice {value!r} (choose from {', '.join(self.choices)})")
`;

const CHOICE_STAGE_2 = `"""Options whose value must be one of a fixed list."""


class Choice:
    """A value that must be one of \`choices\`, e.g. Choice(["json", "yaml"]) for --format.

    With case_sensitive=False, values are compared case-insensitively and the spelling from
    \`choices\` is returned. A prefix of exactly one choice selects it.
    """

    def __init__(self, choices, case_sensitive=True):
        self.choices = list(choices)
        self.case_sensitive = case_sensitive

    def _fold(self, text):
        return text if self.case_sensitive else text.casefold()

    def convert(self, value):
        """Return the choice matching \`value\` (exactly, else by unique prefix), else raise ValueError."""
        key = self._fold(value)
        for choice in self.choices:
            if self._fold(choice) == key:
                return choice
        matches = [choice for choice in self.choices if self._fold(choice).startswith(key)]
        if len(matches) == 1:
            return matches[0]
        if matches:
            raise ValueError(f"ambiguous choice {value!r} (could be {', '.join(matches)})")
        raise ValueError(f"invalid choice {value!r} (choose from {', '.join(self.choices)})")
`;

const CHOICE_FORGETFUL = `"""Options whose value must be one of a fixed list."""


class Choice:
    """A value that must be one of \`choices\`, e.g. Choice(["json", "yaml"]) for --format.

    With case_sensitive=False, values are compared case-insensitively and the spelling from
    \`choices\` is returned. A prefix of exactly one choice selects it.
    """

    def __init__(self, choices, case_sensitive=True):
        self.choices = list(choices)
        self.case_sensitive = case_sensitive

    def _fold(self, text):
        return text if self.case_sensitive else text.casefold()

    def convert(self, value):
        """Return the choice matching \`value\` (exactly, else by unique prefix), else raise ValueError."""
        for choice in self.choices:
            if self._fold(choice) == self._fold(value):
                return choice
        matches = [choice for choice in self.choices if choice.startswith(value)]
        if len(matches) == 1:
            return matches[0]
        if matches:
            raise ValueError(f"ambiguous choice {value!r} (could be {', '.join(matches)})")
        raise ValueError(f"invalid choice {value!r} (choose from {', '.join(self.choices)})")
`;

const CHOICE_TESTS = `import pytest

from minicfg.options.choice import Choice


def test_case_insensitive_choice_returns_the_listed_spelling():
    fmt = Choice(["json", "YAML"], case_sensitive=False)
    assert fmt.convert("Json") == "json"
    assert fmt.convert("yaml") == "YAML"
    with pytest.raises(ValueError):
        Choice(["json"]).convert("JSON")


def test_unique_prefix_selects_the_choice():
    assert Choice(["json", "yaml", "toml"]).convert("ya") == "yaml"
    assert Choice(["json", "yaml", "toml"]).convert("t") == "toml"


def test_exact_match_wins_over_prefix_matches():
    assert Choice(["on", "once"]).convert("on") == "on"
    assert Choice(["on", "once"]).convert("onc") == "once"


def test_ambiguous_prefix_names_the_candidates():
    with pytest.raises(ValueError) as error:
        Choice(["yaml", "yml", "json"]).convert("y")
    assert str(error.value) == "ambiguous choice 'y' (could be yaml, yml)"


def test_prefix_follows_case_sensitivity():
    assert Choice(["json", "yaml"], case_sensitive=False).convert("JS") == "json"
    assert Choice(["json", "YAML"], case_sensitive=False).convert("ya") == "YAML"
    with pytest.raises(ValueError):
        Choice(["json", "yaml"]).convert("JS")
`;

// ---------------------------------------------------------------------------------------------
// Task 3 (minicfg/env/lookup.py): option names to variable names with a prefix; then a list
// of fallback names converted the same way; then empty values count as unset.

const LOOKUP_STAGE_1 = `"""Reading option values from environment variables."""

import os


def variable_name(name, prefix=""):
    """Return the environment variable for option \`name\`: "log-level", "APP" -> "APP_LOG_LEVEL"."""
    name = name.replace("-", "_").replace(".", "_").upper()
    prefix = prefix.rstrip("_")
    return f"{prefix}_{name}" if prefix else name


def lookup(name, environ=None, prefix=""):
    """Return the value of the environment variable for option \`name\`, or None if it is not set.

    \`environ\` defaults to os.environ.
    """
    env = os.environ if environ is None else environ
    return env.get(variable_name(name, prefix))
`;

const LOOKUP_STAGE_2 = `"""Reading option values from environment variables."""

import os


def variable_name(name, prefix=""):
    """Return the environment variable for option \`name\`: "log-level", "APP" -> "APP_LOG_LEVEL"."""
    name = name.replace("-", "_").replace(".", "_").upper()
    prefix = prefix.rstrip("_")
    return f"{prefix}_{name}" if prefix else name


def lookup(name, environ=None, prefix=""):
    """Return the value of the environment variable for option \`name\`, or None if it is not set.

    \`name\` may also be a list of names, tried in order. \`environ\` defaults to os.environ.
    """
    env = os.environ if environ is None else environ
    names = [name] if isinstance(name, str) else name
    for candidate in names:
        value = env.get(variable_name(candidate, prefix))
        if value is not None:
            return value
    return None
`;

const LOOKUP_STAGE_3 = `"""Reading option values from environment variables."""

import os


def variable_name(name, prefix=""):
    """Return the environment variable for option \`name\`: "log-level", "APP" -> "APP_LOG_LEVEL"."""
    name = name.replace("-", "_").replace(".", "_").upper()
    prefix = prefix.rstrip("_")
    return f"{prefix}_{name}" if prefix else name


def lookup(name, environ=None, prefix=""):
    """Return the value of the environment variable for option \`name\`, or None if it is unset.

    \`name\` may also be a list of names, tried in order. An empty variable counts as unset.
    \`environ\` defaults to os.environ.
    """
    env = os.environ if environ is None else environ
    names = [name] if isinstance(name, str) else name
    for candidate in names:
        value = env.get(variable_name(candidate, prefix))
        if value:
            return value
    return None
`;

const LOOKUP_FORGETFUL = `"""Reading option values from environment variables."""

import os


def lookup(name, environ=None, prefix=""):
    """Return the value of the environment variable for option \`name\`, or None if it is unset.

    \`name\` may also be a list of names, tried in order. An empty variable counts as unset.
    \`environ\` defaults to os.environ.
    """
    env = os.environ if environ is None else environ
    names = [name] if isinstance(name, str) else name
    for candidate in names:
        value = env.get(prefix + candidate.replace("-", "_").upper())
        if value:
            return value
    return None
`;

const LOOKUP_TESTS = `from minicfg.env.lookup import lookup


def test_option_name_becomes_an_upper_snake_case_variable():
    assert lookup("log-level", {"LOG_LEVEL": "debug"}) == "debug"
    assert lookup("db.host", {"DB_HOST": "db1"}) == "db1"


def test_prefix_is_joined_with_one_underscore():
    env = {"APP_LOG_LEVEL": "debug"}
    assert lookup("log-level", env, prefix="APP") == "debug"
    assert lookup("log-level", env, prefix="APP_") == "debug"


def test_fallback_names_are_tried_in_order():
    assert lookup(["log-level", "verbosity"], {"APP_VERBOSITY": "2"}, prefix="APP") == "2"
    both = {"APP_LOG_LEVEL": "debug", "APP_VERBOSITY": "2"}
    assert lookup(["log-level", "verbosity"], both, prefix="APP_") == "debug"
    assert lookup(["db.host", "host"], {"HOST": "h"}) == "h"
    assert lookup(["log-level", "verbosity"], {}, prefix="APP") is None


def test_empty_variable_counts_as_unset():
    assert lookup("HOME", {"HOME": ""}) is None
    assert lookup("log-level", {"APP_LOG_LEVEL": ""}, prefix="APP") is None


def test_empty_variable_moves_on_to_the_next_name():
    env = {"APP_LOG_LEVEL": "", "APP_VERBOSITY": "2"}
    assert lookup(["log-level", "verbosity"], env, prefix="APP") == "2"
`;

// ---------------------------------------------------------------------------------------------
// Task 4 (minicfg/env/expand.py): \${NAME} and the $$ escape; then \${NAME:-fallback}; then a
// strict mode, in which $$ must still be a literal dollar.

const EXPAND_STAGE_1 = `"""Expansion of $NAME references in configuration values."""

import re

_REF = re.compile(r"\\$(?:(\\$)|\\{(\\w+)\\}|(\\w+))")


def _replace(match, environ):
    escaped, braced, bare = match.groups()
    if escaped:
        return "$"
    return environ.get(braced or bare, match.group(0))


def expand(text, environ):
    """Replace each $NAME or \${NAME} in \`text\` with environ[NAME]; "$$" is a literal "$".

    Unknown names are left as written.
    """
    return _REF.sub(lambda match: _replace(match, environ), text)
`;

const EXPAND_STAGE_2 = `"""Expansion of $NAME references in configuration values."""

import re

_REF = re.compile(r"\\$(?:(\\$)|\\{(\\w+)(?::-([^}]*))?\\}|(\\w+))")


def _replace(match, environ):
    escaped, braced, fallback, bare = match.groups()
    if escaped:
        return "$"
    name = braced or bare
    if fallback is not None:
        return environ.get(name) or fallback
    return environ.get(name, match.group(0))


def expand(text, environ):
    """Replace each $NAME or \${NAME} in \`text\` with environ[NAME]; "$$" is a literal "$".

    \${NAME:-fallback} gives the fallback text when NAME is unset or empty. Unknown names
    without a fallback are left as written.
    """
    return _REF.sub(lambda match: _replace(match, environ), text)
`;

const EXPAND_STAGE_3 = `"""Expansion of $NAME references in configuration values."""

import re

_REF = re.compile(r"\\$(?:(\\$)|\\{(\\w+)(?::-([^}]*))?\\}|(\\w+))")


def _replace(match, environ, strict):
    escaped, braced, fallback, bare = match.groups()
    if escaped:
        return "$"
    name = braced or bare
    if fallback is not None:
        return environ.get(name) or fallback
    if name in environ:
        return environ[name]
    if strict:
        raise KeyError(name)
    return match.group(0)


def expand(text, environ, strict=False):
    """Replace each $NAME or \${NAME} in \`text\` with environ[NAME]; "$$" is a literal "$".

    \${NAME:-fallback} gives the fallback text when NAME is unset or empty. Unknown names
    without a fallback are left as written, or raise KeyError if \`strict\`.
    """
    return _REF.sub(lambda match: _replace(match, environ, strict), text)
`;

const EXPAND_FORGETFUL = `"""Expansion of $NAME references in configuration values."""

import re

_REF = re.compile(r"\\$(?:\\{(\\w+)(?::-([^}]*))?\\}|(\\w+))")


def _replace(match, environ, strict):
    braced, fallback, bare = match.groups()
    name = braced or bare
    if fallback is not None:
        return environ.get(name) or fallback
    if name in environ:
        return environ[name]
    if strict:
        raise KeyError(name)
    return match.group(0)


def expand(text, environ, strict=False):
    """Replace each $NAME or \${NAME} in \`text\` with environ[NAME].

    \${NAME:-fallback} gives the fallback text when NAME is unset or empty. Unknown names
    without a fallback are left as written, or raise KeyError if \`strict\`.
    """
    return _REF.sub(lambda match: _replace(match, environ, strict), text)
`;

const EXPAND_TESTS = `import pytest

from minicfg.env.expand import expand


def test_braced_name_is_expanded():
    env = {"HOME": "/home/ada", "USER": "ada"}
    assert expand("\${HOME}/.cfg", env) == "/home/ada/.cfg"
    assert expand("\${USER}_backup", env) == "ada_backup"
    assert expand("\${NOPE}/x", env) == "\${NOPE}/x"


def test_double_dollar_is_a_literal_dollar():
    assert expand("price: $$5", {}) == "price: $5"
    assert expand("$$HOME", {"HOME": "/home/ada"}) == "$HOME"


def test_fallback_is_used_when_unset_or_empty():
    assert expand("port=\${PORT:-8080}", {}) == "port=8080"
    assert expand("port=\${PORT:-8080}", {"PORT": ""}) == "port=8080"
    assert expand("port=\${PORT:-8080}", {"PORT": "9000"}) == "port=9000"
    assert expand("[\${TAG:-}]", {}) == "[]"
    assert expand("$\${PORT:-8080}", {}) == "\${PORT:-8080}"


def test_strict_raises_for_an_unknown_name():
    with pytest.raises(KeyError) as error:
        expand("$NOPE", {}, strict=True)
    assert error.value.args == ("NOPE",)
    with pytest.raises(KeyError):
        expand("\${NOPE}", {}, strict=True)
    assert expand("$NOPE", {}, strict=False) == "$NOPE"


def test_strict_keeps_escapes_and_fallbacks():
    assert expand("$$5 \${A:-x} $B", {"B": "b"}, strict=True) == "$5 x b"
`;

// ---------------------------------------------------------------------------------------------
// Task 5 (minicfg/render/help.py): an aligned help column; then defaults shown after the help,
// with the column still aligned.

const HELP_STAGE_1 = `"""The "Options:" section of a command's --help."""


def format_help(options):
    """Return the help section for \`options\`, a list of (names, help) pairs.

    Help texts start in one column: two spaces after the longest names.
    format_help([("--verbose", "Talk more.")]) == "Options:\\n  --verbose  Talk more."
    """
    width = max((len(names) for names, _ in options), default=0)
    lines = ["Options:"]
    for names, text in options:
        lines.append(f"  {names.ljust(width)}  {text}".rstrip())
    return "\\n".join(lines)
`;

const HELP_STAGE_2 = `"""The "Options:" section of a command's --help."""


def _entry(option):
    """(names, help) or (names, help, default) -> (names, help text with its default)."""
    names, text = option[0], option[1]
    default = option[2] if len(option) > 2 else None
    if default is not None:
        text = f"{text} [default: {default}]".strip()
    return names, text


def format_help(options):
    """Return the help section for \`options\`, (names, help) pairs or (names, help, default).

    Help texts start in one column: two spaces after the longest names.
    format_help([("--verbose", "Talk more.")]) == "Options:\\n  --verbose  Talk more."
    """
    entries = [_entry(option) for option in options]
    width = max((len(names) for names, _ in entries), default=0)
    lines = ["Options:"]
    for names, text in entries:
        lines.append(f"  {names.ljust(width)}  {text}".rstrip())
    return "\\n".join(lines)
`;

const HELP_FORGETFUL = `"""The "Options:" section of a command's --help."""


def format_help(options):
    """Return the help section for \`options\`, (names, help) pairs or (names, help, default).

    format_help([("--verbose", "Talk more.")]) == "Options:\\n  --verbose  Talk more."
    """
    lines = ["Options:"]
    for option in options:
        names, text = option[0], option[1]
        if len(option) > 2 and option[2] is not None:
            text = f"{text} [default: {option[2]}]".strip()
        lines.append(f"  {names}  {text}".rstrip())
    return "\\n".join(lines)
`;

const HELP_TESTS = `from minicfg.render.help import format_help


def test_help_texts_start_in_one_column():
    text = format_help([
        ("-v, --verbose", "Talk more."),
        ("-q", "Talk less."),
        ("--config PATH", "Read settings from PATH."),
        ("--dry-run", ""),
    ])
    assert text == (
        "Options:\\n"
        "  -v, --verbose  Talk more.\\n"
        "  -q             Talk less.\\n"
        "  --config PATH  Read settings from PATH.\\n"
        "  --dry-run"
    )


def test_default_is_shown_after_the_help():
    text = format_help([("--port N", "Port to listen on.", 8080)])
    assert text == "Options:\\n  --port N  Port to listen on. [default: 8080]"


def test_none_default_is_not_shown():
    text = format_help([("--name NAME", "Your name.", None)])
    assert text == "Options:\\n  --name NAME  Your name."


def test_defaults_keep_the_help_column_aligned():
    text = format_help([
        ("-q", "Talk less."),
        ("--port N", "Port to listen on.", 8080),
        ("--log-file PATH", "", "out.log"),
    ])
    assert text == (
        "Options:\\n"
        "  -q               Talk less.\\n"
        "  --port N         Port to listen on. [default: 8080]\\n"
        "  --log-file PATH  [default: out.log]"
    )
`;

// ---------------------------------------------------------------------------------------------

/** Held-out test file: its path, content, and the node ids of its tests (FAIL_TO_PASS). */
function heldOut(path, content) {
  return { path, content, nodeIds: [...content.matchAll(/^def (test_\w+)\(/gm)].map((match) => `${path}::${match[1]}`) };
}

export default {
  name: "minicfg",
  repo: "minicfg/minicfg",
  baseFiles: {
    ".gitignore": "__pycache__/\n*.pyc\n.pytest_cache/\n",
    "conftest.py": "",
    "README.md":
      "# minicfg\n\nA tiny configuration and command-line options library, standard library only:\nflags and choices (`minicfg.options`), environment variables (`minicfg.env`) and\n--help rendering (`minicfg.render`).\n\nRun the tests from the repository root with `python -m pytest`.\n",
    "minicfg/__init__.py": '"""minicfg: tiny configuration and command-line options."""\n\n__version__ = "0.1.0"\n',
    "minicfg/options/__init__.py": '"""Command-line option types."""\n',
    "minicfg/options/flag.py": FLAG_BASE,
    "minicfg/options/choice.py": CHOICE_BASE,
    "minicfg/env/__init__.py": '"""Settings from the environment."""\n',
    "minicfg/env/lookup.py": LOOKUP_BASE,
    "minicfg/env/expand.py": EXPAND_BASE,
    "minicfg/render/__init__.py": '"""Rendering of help text."""\n',
    "minicfg/render/help.py": HELP_BASE,
    "tests/test_existing.py": EXISTING_TESTS,
  },
  existingTests: EXISTING_NAMES.map((name) => `tests/test_existing.py::${name}`),
  tasks: [
    {
      n: 1,
      file: "minicfg/options/flag.py",
      stages: [
        {
          id: "stage-1",
          request: `Flag with default=True ignores flag_value

\`Flag.resolve()\` returns the literal \`True\` for a flag that is on by default but has a non-boolean \`flag_value\`:

\`\`\`python
upper = Flag("--upper", flag_value="upper", default=True)
upper.resolve(False)   # -> True, expected "upper"
\`\`\`

Click treats \`default=True\` on a flag as "this flag is on unless told otherwise", so when the flag is absent the value should be \`flag_value\`, exactly as if \`--upper\` had been passed. This is only for the literal \`True\` (an identity check, not truthiness): any other default comes back unchanged, so \`Flag("--level", flag_value="high", default="yes").resolve(False)\` stays \`"yes"\` and \`default=1\` stays \`1\`. A plain boolean flag with \`default=True\` keeps resolving to \`True\`.`,
          content: FLAG_STAGE_1,
        },
        {
          id: "stage-2",
          request: `Review comment on the Flag default PR: we also need lazy defaults, like Click's callable defaults. \`default\` may be a callable taking no arguments, e.g. \`Flag("--color", flag_value="always", default=lambda: sys.stdout.isatty())\`. \`resolve()\` calls it only when the flag is absent, every time the default is needed; never in \`__init__\` and never when the flag is present. Whatever the callable returns goes through the same rule as a literal default: if it returns \`True\`, the value is \`flag_value\` (\`"always"\` here); anything else it returns (\`False\`, \`"never"\`, \`1\`) is the value as it is.`,
          content: FLAG_STAGE_2,
        },
      ],
      heldOutTests: heldOut("tests/test_flag.py", FLAG_TESTS),
      forgetful: FLAG_FORGETFUL,
    },
    {
      n: 2,
      file: "minicfg/options/choice.py",
      stages: [
        {
          id: "stage-1",
          request: `Choice: support case-insensitive matching

\`--format JSON\` fails with \`ValueError: invalid choice 'JSON' (choose from json, yaml)\`. Please add a \`case_sensitive\` argument to \`Choice\` (default \`True\`, so nothing changes for existing users). With \`case_sensitive=False\`, \`convert()\` compares case-insensitively and returns the spelling from the choices list, not the user's:

\`\`\`python
fmt = Choice(["json", "YAML"], case_sensitive=False)
fmt.convert("Json")               # -> "json"
fmt.convert("yaml")               # -> "YAML"
Choice(["json"]).convert("JSON")  # still ValueError
\`\`\``,
          content: CHOICE_STAGE_1,
        },
        {
          id: "stage-2",
          request: `Follow-up from review: users also type abbreviations (\`--format ya\`), please accept them in \`Choice.convert()\`. A value that is a prefix of exactly one choice selects that choice: \`Choice(["json", "yaml", "toml"]).convert("ya") == "yaml"\`. An exact match always wins over prefix matches: with \`["on", "once"]\`, \`"on"\` gives \`"on"\` and \`"onc"\` gives \`"once"\`. A prefix of several choices is an error that names them in list order: \`Choice(["yaml", "yml", "json"]).convert("y")\` raises \`ValueError("ambiguous choice 'y' (could be yaml, yml)")\`. Prefix matching must follow \`case_sensitive\` from the previous round: \`Choice(["json", "YAML"], case_sensitive=False).convert("ya")\` returns \`"YAML"\`, while a default (case-sensitive) \`Choice(["json", "yaml"])\` still rejects \`"JS"\`.`,
          content: CHOICE_STAGE_2,
        },
      ],
      heldOutTests: heldOut("tests/test_choice.py", CHOICE_TESTS),
      forgetful: CHOICE_FORGETFUL,
    },
    {
      n: 3,
      file: "minicfg/env/lookup.py",
      stages: [
        {
          id: "stage-1",
          request: `lookup() does not find variables for option names with dashes

We map options to environment variables with \`lookup(option_name, prefix=...)\`, but \`lookup("log-level", {"APP_LOG_LEVEL": "debug"}, prefix="APP")\` returns \`None\`: it looks for \`APPlog-level\`. Expected \`"debug"\`. The option name should become a variable name: upper case, with \`-\` and \`.\` replaced by \`_\` (\`"db.host"\` -> \`DB_HOST\`), and a non-empty prefix joined to it with exactly one underscore, so \`prefix="APP"\` and \`prefix="APP_"\` both look up \`APP_LOG_LEVEL\`. Without a prefix, \`lookup("log-level", {"LOG_LEVEL": "debug"})\` returns \`"debug"\`, and \`lookup("HOME", ...)\` keeps working as today.`,
          content: LOOKUP_STAGE_1,
        },
        {
          id: "stage-2",
          request: `Review: renamed options need their old variable to keep working. Let \`lookup()\` take either one name or a list of names, tried in order, returning the value of the first variable that is set: \`lookup(["log-level", "verbosity"], {"APP_VERBOSITY": "2"}, prefix="APP") == "2"\`, and when both \`APP_LOG_LEVEL\` and \`APP_VERBOSITY\` are set, \`APP_LOG_LEVEL\` wins. Each name in the list is converted exactly like a single name (upper case, \`-\` and \`.\` to \`_\`, one underscore after the prefix). None of them set: \`None\`.`,
          content: LOOKUP_STAGE_2,
        },
        {
          id: "stage-3",
          request: `One more from review on lookup(): an empty variable must count as unset. People clear a setting with \`APP_LOG_LEVEL= mytool\`, and today that gives \`""\`. \`lookup("log-level", {"APP_LOG_LEVEL": ""}, prefix="APP")\` should return \`None\`, and with a list of names the search moves on to the next one: \`lookup(["log-level", "verbosity"], {"APP_LOG_LEVEL": "", "APP_VERBOSITY": "2"}, prefix="APP") == "2"\`. Same without a prefix: \`lookup("HOME", {"HOME": ""})\` is \`None\`.`,
          content: LOOKUP_STAGE_3,
        },
      ],
      heldOutTests: heldOut("tests/test_lookup.py", LOOKUP_TESTS),
      forgetful: LOOKUP_FORGETFUL,
    },
    {
      n: 4,
      file: "minicfg/env/expand.py",
      stages: [
        {
          id: "stage-1",
          request: `expand() ignores \${NAME} and has no way to write a literal $

\`expand("\${HOME}/.cfg", {"HOME": "/home/ada"})\` returns \`"\${HOME}/.cfg"\` unchanged, expected \`"/home/ada/.cfg"\`. Braces are the only way to put letters right after a name (\`"\${USER}_backup"\` -> \`"ada_backup"\`). There is also no escape for a dollar sign: \`expand("price: $$5", {})\` should give \`"price: $5"\`, and \`"$$HOME"\` should give \`"$HOME"\` (escaped, not expanded). Unknown braced names stay as written, like unknown bare ones: \`expand("\${NOPE}/x", {}) == "\${NOPE}/x"\`.`,
          content: EXPAND_STAGE_1,
        },
        {
          id: "stage-2",
          request: `Review: please support shell-style fallbacks, \`\${NAME:-fallback}\`, in \`expand()\`. The fallback text (taken literally, may be empty) is used when \`NAME\` is unset or set to the empty string: \`expand("port=\${PORT:-8080}", {})\` and \`expand("port=\${PORT:-8080}", {"PORT": ""})\` both give \`"port=8080"\`, \`{"PORT": "9000"}\` gives \`"port=9000"\`, and \`expand("[\${TAG:-}]", {}) == "[]"\`. \`$$\` stays an escape in front of it: \`expand("$\${PORT:-8080}", {}) == "\${PORT:-8080}"\`.`,
          content: EXPAND_STAGE_2,
        },
        {
          id: "stage-3",
          request: `Last review point on expand(): add a \`strict=False\` keyword. With \`strict=True\`, a reference to a name that is not in \`environ\` and has no fallback raises \`KeyError\` carrying the name: \`expand("$NOPE", {}, strict=True)\` and \`expand("\${NOPE}", {}, strict=True)\` raise \`KeyError('NOPE')\`. A reference with a fallback never raises, and \`$$\` is still a literal dollar, not a reference, so \`expand("$$5 \${A:-x} $B", {"B": "b"}, strict=True) == "$5 x b"\`. Without \`strict\`, unknown names are still left as written.`,
          content: EXPAND_STAGE_3,
        },
      ],
      heldOutTests: heldOut("tests/test_expand.py", EXPAND_TESTS),
      forgetful: EXPAND_FORGETFUL,
    },
    {
      n: 5,
      file: "minicfg/render/help.py",
      stages: [
        {
          id: "stage-1",
          request: `format_help() does not line up the help column

\`\`\`python
print(format_help([("-v, --verbose", "Talk more."), ("-q", "Talk less."), ("--config PATH", "Read settings from PATH.")]))
\`\`\`

prints

\`\`\`
Options:
  -v, --verbose  Talk more.
  -q  Talk less.
  --config PATH  Read settings from PATH.
\`\`\`

The help texts should start in one column: pad every option's names to the longest names, then two spaces, so the \`-q\` line becomes \`"  -q             Talk less."\`. No line ends with spaces: an option with empty help is just \`"  --dry-run"\`.`,
          content: HELP_STAGE_1,
        },
        {
          id: "stage-2",
          request: `Review: show defaults in the help. An option may now also be a triple \`(names, help, default)\`; pairs keep working. When the default is not \`None\`, append \`[default: <value>]\` (the value as \`str()\` gives it) after the help text, separated by one space, or on its own if the help is empty: \`("--port N", "Port to listen on.", 8080)\` renders as \`"  --port N  Port to listen on. [default: 8080]"\` and \`("--log-file PATH", "", "out.log")\` as \`"  --log-file PATH  [default: out.log]"\`. A \`None\` default shows nothing. The column alignment from the first round still applies to every line, with pairs and triples mixed.`,
          content: HELP_STAGE_2,
        },
      ],
      heldOutTests: heldOut("tests/test_help.py", HELP_TESTS),
      forgetful: HELP_FORGETFUL,
    },
  ],
};

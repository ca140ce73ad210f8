import pytest

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
    assert format_help([("--verbose", "Talk more.")]) == "Options:\n  --verbose  Talk more."

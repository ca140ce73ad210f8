from minicsv.cli.options import parse_options
from minicsv.read.dialect import sniff_delimiter
from minicsv.read.parse import parse, parse_line
from minicsv.write.format import format_rows


def test_parse_line_splits_on_commas():
    assert parse_line("a,b,c") == ["a", "b", "c"]


def test_parse_line_keeps_the_delimiter_inside_quotes():
    assert parse_line('"a,b",c') == ["a,b", "c"]


def test_parse_line_keeps_spaces_by_default():
    assert parse_line("a, b ") == ["a", " b "]


def test_parse_skips_empty_lines_and_takes_a_delimiter():
    assert parse("a;b\n\n1;2\n", delimiter=";") == [["a", "b"], ["1", "2"]]


def test_sniff_delimiter_finds_semicolons_and_tabs():
    assert sniff_delimiter("a;b;c\n1;2;3") == ";"
    assert sniff_delimiter("a\tb\n1\t2") == "\t"


def test_sniff_delimiter_defaults_to_comma():
    assert sniff_delimiter("") == ","
    assert sniff_delimiter("single") == ","


def test_format_rows_quotes_fields_holding_the_delimiter():
    assert format_rows([["a", "b,c"], [1, 2]]) == 'a,"b,c"\n1,2\n'
    assert format_rows([["a", "b"]], delimiter=";") == "a;b\n"


def test_parse_options_defaults_and_values():
    assert parse_options([]) == {"delimiter": ",", "header": True, "columns": None, "path": None}
    assert parse_options(["-d", ";", "--no-header", "--columns", "id,name", "in.csv"]) == {
        "delimiter": ";",
        "header": False,
        "columns": ["id", "name"],
        "path": "in.csv",
    }

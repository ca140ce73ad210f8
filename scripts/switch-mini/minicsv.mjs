// Repository module of the Switch-SWE mini suite (format: scripts/switch-mini/FORMAT.md):
// minicsv, a tiny standard-library-only Python CSV toolkit, and five tasks on it.
// Near/far: tasks 1 and 2 change files in minicsv/read/, tasks 3 and 4 in minicsv/write/
// (near pairs); task 5 changes minicsv/cli/options.py (far from all others).

// Request texts are Markdown: written raw (a backslash stays a backslash), with \` for a
// backtick. Python sources and tests are String.raw and contain no backticks.
const md = (strings, ...values) => String.raw(strings, ...values).replace(/\\`/g, "`");

// ---------------------------------------------------------------------------------------------
// The repository at its base commit.

const baseFiles = {
  ".gitignore": "__pycache__/\n*.pyc\n.pytest_cache/\n",
  "conftest.py": "",
  "README.md": `# minicsv

A tiny CSV toolkit, standard library only.

- \`minicsv.read\`: \`parse_line\`, \`parse\` (reading), \`sniff_delimiter\` (guessing the dialect).
- \`minicsv.write\`: \`quote_field\` (one field), \`format_row\`, \`format_rows\` (whole lines).
- \`minicsv.cli\`: \`parse_options\` (command-line options of the \`minicsv\` tool).

Run the tests from the repository root with \`python -m pytest\`.
`,
  "minicsv/__init__.py": '"""minicsv: a tiny CSV toolkit."""\n\n__version__ = "0.1.0"\n',
  "minicsv/read/__init__.py": '"""Reading CSV text."""\n',
  "minicsv/read/parse.py": String.raw`"""Reading CSV text into rows of fields."""


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
`,
  "minicsv/read/dialect.py": String.raw`"""Guessing the dialect of a CSV sample."""

CANDIDATES = ",;\t|"


def sniff_delimiter(sample, candidates=CANDIDATES):
    """Guess the delimiter of a CSV sample.

    Returns the candidate that occurs most often in the first line of the sample (the
    earlier candidate on a tie), or "," when none of them occurs.
    """
    lines = sample.splitlines()
    first = lines[0] if lines else ""
    best = max(candidates, key=first.count)
    return best if first.count(best) else ","
`,
  "minicsv/write/__init__.py": '"""Writing CSV text."""\n',
  "minicsv/write/quote.py": String.raw`"""Quoting single CSV fields."""


def quote_field(value, delimiter=","):
    """Return value as CSV field text, in double quotes when it contains the delimiter."""
    text = str(value)
    if delimiter in text:
        return '"' + text + '"'
    return text
`,
  "minicsv/write/format.py": String.raw`"""Writing rows as CSV text."""

from minicsv.write.quote import quote_field


def format_row(row, delimiter=","):
    """Return one CSV line (without line break) for the values of row."""
    return delimiter.join(quote_field(value, delimiter) for value in row)


def format_rows(rows, delimiter=","):
    """Return CSV text for rows, every line ending with a line break."""
    return "".join(format_row(row, delimiter) + "\n" for row in rows)
`,
  "minicsv/cli/__init__.py": '"""The minicsv command-line tool."""\n',
  "minicsv/cli/options.py": String.raw`"""Command-line options of the minicsv tool."""

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
`,
  "tests/test_existing.py": String.raw`from minicsv.cli.options import parse_options
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
`,
};

const existingTests = [...baseFiles["tests/test_existing.py"].matchAll(/^def (test_\w+)\(/gm)].map(
  (match) => `tests/test_existing.py::${match[1]}`,
);

/** The held-out test file at `path`, with its node ids taken from its `def test_...` lines. */
function heldOut(path, content) {
  return { path, content, nodeIds: [...content.matchAll(/^def (test_\w+)\(/gm)].map((match) => `${path}::${match[1]}`) };
}

// ---------------------------------------------------------------------------------------------
// Task 1: minicsv/read/parse.py, three stages (escaped quotes; strip; quotechar).

const parseStage1 = String.raw`"""Reading CSV text into rows of fields."""


def parse_line(line, delimiter=","):
    """Split one CSV line into its fields.

    A field wrapped in double quotes may contain the delimiter; the quotes are dropped, and
    inside them a doubled quote ("") stands for one literal quote.
    """
    fields = []
    field = ""
    quoted = False
    i = 0
    while i < len(line):
        ch = line[i]
        if quoted and ch == '"' and line[i + 1:i + 2] == '"':
            field += '"'
            i += 1
        elif ch == '"':
            quoted = not quoted
        elif ch == delimiter and not quoted:
            fields.append(field)
            field = ""
        else:
            field += ch
        i += 1
    fields.append(field)
    return fields


def parse(text, delimiter=","):
    """Split CSV text into a list of rows, skipping empty lines."""
    return [parse_line(line, delimiter) for line in text.splitlines() if line]
`;

const parseStage2 = String.raw`"""Reading CSV text into rows of fields."""


def _finish(chars, strip):
    """Join a field's (character, quoted) pairs; with strip, drop unquoted whitespace at its ends."""
    if strip:
        while chars and not chars[0][1] and chars[0][0].isspace():
            chars.pop(0)
        while chars and not chars[-1][1] and chars[-1][0].isspace():
            chars.pop()
    return "".join(ch for ch, _ in chars)


def parse_line(line, delimiter=",", strip=False):
    """Split one CSV line into its fields.

    A field wrapped in double quotes may contain the delimiter; the quotes are dropped, and
    inside them a doubled quote ("") stands for one literal quote. With strip, whitespace
    around a field is removed, but whitespace inside quotes is kept.
    """
    fields = []
    chars = []
    quoted = False
    i = 0
    while i < len(line):
        ch = line[i]
        if quoted and ch == '"' and line[i + 1:i + 2] == '"':
            chars.append(('"', True))
            i += 1
        elif ch == '"':
            quoted = not quoted
        elif ch == delimiter and not quoted:
            fields.append(_finish(chars, strip))
            chars = []
        else:
            chars.append((ch, quoted))
        i += 1
    fields.append(_finish(chars, strip))
    return fields


def parse(text, delimiter=","):
    """Split CSV text into a list of rows, skipping empty lines."""
    return [parse_line(line, delimiter) for line in text.splitlines() if line]
`;

const parseFinal = String.raw`"""Reading CSV text into rows of fields."""


def _finish(chars, strip):
    """Join a field's (character, quoted) pairs; with strip, drop unquoted whitespace at its ends."""
    if strip:
        while chars and not chars[0][1] and chars[0][0].isspace():
            chars.pop(0)
        while chars and not chars[-1][1] and chars[-1][0].isspace():
            chars.pop()
    return "".join(ch for ch, _ in chars)


def parse_line(line, delimiter=",", strip=False, quotechar='"'):
    """Split one CSV line into its fields.

    A field wrapped in quotechar may contain the delimiter; the quotes are dropped, and
    inside them a doubled quotechar stands for one literal quotechar. With strip, whitespace
    around a field is removed, but whitespace inside quotes is kept.
    """
    fields = []
    chars = []
    quoted = False
    i = 0
    while i < len(line):
        ch = line[i]
        if quoted and ch == quotechar and line[i + 1:i + 2] == quotechar:
            chars.append((quotechar, True))
            i += 1
        elif ch == quotechar:
            quoted = not quoted
        elif ch == delimiter and not quoted:
            fields.append(_finish(chars, strip))
            chars = []
        else:
            chars.append((ch, quoted))
        i += 1
    fields.append(_finish(chars, strip))
    return fields


def parse(text, delimiter=","):
    """Split CSV text into a list of rows, skipping empty lines."""
    return [parse_line(line, delimiter) for line in text.splitlines() if line]
`;

// quotechar opens and closes fields, but the doubled-quote check still looks for '"'.
const parseForgetful = parseFinal.replace(
  `if quoted and ch == quotechar and line[i + 1:i + 2] == quotechar:
            chars.append((quotechar, True))`,
  `if quoted and ch == quotechar and line[i + 1:i + 2] == '"':
            chars.append(('"', True))`,
);

const parseTests = String.raw`from minicsv.read.parse import parse_line


def test_doubled_quote_inside_quotes_is_one_literal_quote():
    assert parse_line('"say ""hi""",x') == ['say "hi"', "x"]


def test_empty_quoted_field_and_lone_escaped_quote():
    assert parse_line('"",""""') == ["", '"']


def test_strip_removes_whitespace_around_fields():
    assert parse_line(" a , b ,c", strip=True) == ["a", "b", "c"]


def test_strip_keeps_whitespace_inside_quotes():
    assert parse_line(' " b " , c', strip=True) == [" b ", "c"]
    assert parse_line(' "a ""b"" " ', strip=True) == ['a "b" ']


def test_custom_quotechar_groups_fields():
    assert parse_line("'a,b',c", quotechar="'") == ["a,b", "c"]
    assert parse_line('5" disk,x', quotechar="'") == ['5" disk', "x"]


def test_custom_quotechar_keeps_the_earlier_rules():
    assert parse_line("'it''s',x", quotechar="'") == ["it's", "x"]
    assert parse_line(" 'it''s' , ' x ' ", quotechar="'", strip=True) == ["it's", " x "]
`;

// ---------------------------------------------------------------------------------------------
// Task 2: minicsv/read/dialect.py, two stages (ignore quoted text; consistency across lines).

const dialectStage1 = String.raw`"""Guessing the dialect of a CSV sample."""

CANDIDATES = ",;\t|"


def _count(line, char):
    """How often char occurs in line outside double-quoted fields."""
    count = 0
    quoted = False
    for ch in line:
        if ch == '"':
            quoted = not quoted
        elif ch == char and not quoted:
            count += 1
    return count


def sniff_delimiter(sample, candidates=CANDIDATES):
    """Guess the delimiter of a CSV sample.

    Returns the candidate that occurs most often in the first line of the sample (the
    earlier candidate on a tie), or "," when none of them occurs. Quoted text is not counted.
    """
    lines = sample.splitlines()
    first = lines[0] if lines else ""
    best = max(candidates, key=lambda char: _count(first, char))
    return best if _count(first, best) else ","
`;

const dialectFinal = String.raw`"""Guessing the dialect of a CSV sample."""

CANDIDATES = ",;\t|"


def _count(line, char):
    """How often char occurs in line outside double-quoted fields."""
    count = 0
    quoted = False
    for ch in line:
        if ch == '"':
            quoted = not quoted
        elif ch == char and not quoted:
            count += 1
    return count


def sniff_delimiter(sample, candidates=CANDIDATES):
    """Guess the delimiter of a CSV sample.

    A candidate that occurs the same non-zero number of times on every non-blank line wins
    (the most frequent one, the earlier candidate on a tie); when there is none, the one that
    occurs most often in the first line; "," when none occurs. Quoted text is not counted.
    """
    lines = [line for line in sample.splitlines() if line.strip()]
    counts = {char: [_count(line, char) for line in lines] for char in candidates}
    found = [char for char in candidates if counts[char] and counts[char][0] > 0]
    consistent = [char for char in found if len(set(counts[char])) == 1]
    pool = consistent or found
    return max(pool, key=lambda char: counts[char][0]) if pool else ","
`;

// Checks every line, but counts raw characters again, quoted text included.
const dialectForgetful = String.raw`"""Guessing the dialect of a CSV sample."""

CANDIDATES = ",;\t|"


def sniff_delimiter(sample, candidates=CANDIDATES):
    """Guess the delimiter of a CSV sample.

    A candidate that occurs the same non-zero number of times on every non-blank line wins
    (the most frequent one, the earlier candidate on a tie); when there is none, the one that
    occurs most often in the first line; "," when none occurs.
    """
    lines = [line for line in sample.splitlines() if line.strip()]
    counts = {char: [line.count(char) for line in lines] for char in candidates}
    found = [char for char in candidates if counts[char] and counts[char][0] > 0]
    consistent = [char for char in found if len(set(counts[char])) == 1]
    pool = consistent or found
    return max(pool, key=lambda char: counts[char][0]) if pool else ","
`;

const dialectTests = String.raw`from minicsv.read.dialect import sniff_delimiter


def test_delimiters_inside_quotes_are_not_counted():
    assert sniff_delimiter('"Smith, John, Jr";42\n"Doe, Jane";7') == ";"


def test_quoted_pipes_do_not_win_on_a_single_line():
    assert sniff_delimiter('"a|b|c",d') == ","


def test_delimiter_consistent_across_lines_wins():
    assert sniff_delimiter("1,50;2,10;3,20\n4;5;6") == ";"


def test_blank_lines_are_skipped_for_consistency():
    assert sniff_delimiter("1,5;2,5;3\n\n4;5;6\n") == ";"


def test_consistency_check_ignores_quoted_text():
    assert sniff_delimiter('"Smith, John";42\n"Doe, Jane";7') == ";"
`;

// ---------------------------------------------------------------------------------------------
// Task 3: minicsv/write/quote.py, three stages (RFC 4180 quoting; always; None).

const quoteStage1 = String.raw`"""Quoting single CSV fields."""

SPECIAL = ('"', "\n", "\r")


def quote_field(value, delimiter=","):
    """Return value as CSV field text.

    The field is put in double quotes when it contains the delimiter, a double quote or a
    line break; inside the quotes every double quote is doubled.
    """
    text = str(value)
    if delimiter in text or any(ch in text for ch in SPECIAL):
        return '"' + text.replace('"', '""') + '"'
    return text
`;

const quoteStage2 = String.raw`"""Quoting single CSV fields."""

SPECIAL = ('"', "\n", "\r")


def quote_field(value, delimiter=",", always=False):
    """Return value as CSV field text.

    The field is put in double quotes when always is true or it contains the delimiter, a
    double quote or a line break; inside the quotes every double quote is doubled.
    """
    text = str(value)
    if always or delimiter in text or any(ch in text for ch in SPECIAL):
        return '"' + text.replace('"', '""') + '"'
    return text
`;

const quoteFinal = String.raw`"""Quoting single CSV fields."""

SPECIAL = ('"', "\n", "\r")


def quote_field(value, delimiter=",", always=False):
    """Return value as CSV field text.

    None is an empty, unquoted field. Otherwise the field is put in double quotes when always
    is true or it contains the delimiter, a double quote or a line break; inside the quotes
    every double quote is doubled.
    """
    if value is None:
        return ""
    text = str(value)
    if always or delimiter in text or any(ch in text for ch in SPECIAL):
        return '"' + text.replace('"', '""') + '"'
    return text
`;

// Always-mode added as its own branch that forgets to double the quotes inside.
const quoteForgetful = String.raw`"""Quoting single CSV fields."""

SPECIAL = ('"', "\n", "\r")


def quote_field(value, delimiter=",", always=False):
    """Return value as CSV field text (None is an empty field)."""
    if value is None:
        return ""
    text = str(value)
    if always:
        return '"' + text + '"'
    if delimiter in text or any(ch in text for ch in SPECIAL):
        return '"' + text.replace('"', '""') + '"'
    return text
`;

const quoteTests = String.raw`from minicsv.write.quote import quote_field


def test_field_with_double_quotes_is_quoted_and_escaped():
    assert quote_field('say "hi"') == '"say ""hi"""'


def test_field_with_line_break_is_quoted():
    assert quote_field("a\nb") == '"a\nb"'
    assert quote_field("a\r\nb", delimiter=";") == '"a\r\nb"'


def test_always_quotes_plain_fields():
    assert quote_field("abc", always=True) == '"abc"'
    assert quote_field(7, always=True) == '"7"'


def test_always_still_doubles_inner_quotes():
    assert quote_field('a"b', always=True) == '"a""b"'


def test_none_is_an_empty_unquoted_field():
    assert quote_field(None) == ""
    assert quote_field(None, always=True) == ""
    assert quote_field("", always=True) == '""'
`;

// ---------------------------------------------------------------------------------------------
// Task 4: minicsv/write/format.py, two stages (format_records; columns from every record).

const formatStage1 = String.raw`"""Writing rows as CSV text."""

from minicsv.write.quote import quote_field


def format_row(row, delimiter=","):
    """Return one CSV line (without line break) for the values of row."""
    return delimiter.join(quote_field(value, delimiter) for value in row)


def format_rows(rows, delimiter=","):
    """Return CSV text for rows, every line ending with a line break."""
    return "".join(format_row(row, delimiter) + "\n" for row in rows)


def format_records(records, fields=None, delimiter=","):
    """Return CSV text for dicts: a header line of the field names, then one line per record.

    fields defaults to the keys of the first record; a record without one of the fields gets
    an empty field there, and keys that are not fields are left out.
    """
    records = list(records)
    if fields is None:
        fields = list(records[0]) if records else []
    if not fields:
        return ""
    rows = [fields] + [[record.get(field, "") for field in fields] for record in records]
    return format_rows(rows, delimiter)
`;

const formatFinal = String.raw`"""Writing rows as CSV text."""

from minicsv.write.quote import quote_field


def format_row(row, delimiter=","):
    """Return one CSV line (without line break) for the values of row."""
    return delimiter.join(quote_field(value, delimiter) for value in row)


def format_rows(rows, delimiter=","):
    """Return CSV text for rows, every line ending with a line break."""
    return "".join(format_row(row, delimiter) + "\n" for row in rows)


def format_records(records, fields=None, delimiter=","):
    """Return CSV text for dicts: a header line of the field names, then one line per record.

    fields defaults to every key of the records, in the order first seen; a record without
    one of the fields gets an empty field there, and keys that are not fields are left out.
    """
    records = list(records)
    if fields is None:
        fields = []
        for record in records:
            for key in record:
                if key not in fields:
                    fields.append(key)
    if not fields:
        return ""
    rows = [fields] + [[record.get(field, "") for field in fields] for record in records]
    return format_rows(rows, delimiter)
`;

// Collects the keys of every record, but indexes records directly: a missing key raises.
const formatForgetful = formatFinal.replace(
  `[record.get(field, "") for field in fields]`,
  `[record[field] for field in fields]`,
);

const formatTests = String.raw`from minicsv.write import format as fmt


def test_records_are_written_after_a_header_line():
    records = [{"name": "ann", "age": 3}, {"name": "bob", "age": 5}]
    assert fmt.format_records(records) == "name,age\nann,3\nbob,5\n"


def test_fields_choose_and_order_the_columns():
    assert fmt.format_records([{"a": 1, "b": 2}], fields=["b", "a"]) == "b,a\n2,1\n"
    assert fmt.format_records([{"a": 1, "b": 2}], fields=["b"]) == "b\n2\n"


def test_missing_key_is_an_empty_field():
    assert fmt.format_records([{"a": 1, "b": 2}, {"a": 3}]) == "a,b\n1,2\n3,\n"


def test_no_records_gives_only_the_header():
    assert fmt.format_records([]) == ""
    assert fmt.format_records([], fields=["a", "b"]) == "a,b\n"


def test_default_columns_include_keys_of_later_records():
    assert fmt.format_records([{"a": 1}, {"a": 2, "b": 3}]) == "a,b\n1,\n2,3\n"
    assert fmt.format_records([{"b": 1}, {"a": 2}, {"c": 3, "b": 4}]) == "b,a,c\n1,,\n,2,\n4,,3\n"
`;

// ---------------------------------------------------------------------------------------------
// Task 5: minicsv/cli/options.py, two stages (named delimiters, validation; --name=value form).

const optionsStage1 = String.raw`"""Command-line options of the minicsv tool."""

DEFAULTS = {"delimiter": ",", "header": True, "columns": None, "path": None}
NAMED_DELIMITERS = {"tab": "\t", "\\t": "\t", "space": " ", "comma": ",", "semicolon": ";", "pipe": "|"}


def _delimiter(value):
    """The delimiter a -d value stands for: a name, or one literal character."""
    char = NAMED_DELIMITERS.get(value, value)
    if len(char) != 1:
        raise ValueError(f"delimiter must be a single character, got {value!r}")
    return char


def parse_options(argv):
    """Turn the argument list argv into a dict of options (see DEFAULTS).

    -d/--delimiter CHAR (or a name: tab, space, comma, semicolon, pipe), --no-header,
    --columns a,b,c, and one input path.
    """
    options = dict(DEFAULTS)
    args = list(argv)
    while args:
        arg = args.pop(0)
        if arg in ("-d", "--delimiter"):
            options["delimiter"] = _delimiter(args.pop(0))
        elif arg == "--no-header":
            options["header"] = False
        elif arg == "--columns":
            options["columns"] = args.pop(0).split(",")
        elif arg.startswith("-"):
            raise ValueError(f"unknown option: {arg}")
        else:
            options["path"] = arg
    return options
`;

const optionsFinal = String.raw`"""Command-line options of the minicsv tool."""

DEFAULTS = {"delimiter": ",", "header": True, "columns": None, "path": None}
NAMED_DELIMITERS = {"tab": "\t", "\\t": "\t", "space": " ", "comma": ",", "semicolon": ";", "pipe": "|"}


def _delimiter(value):
    """The delimiter a -d value stands for: a name, or one literal character."""
    char = NAMED_DELIMITERS.get(value, value)
    if len(char) != 1:
        raise ValueError(f"delimiter must be a single character, got {value!r}")
    return char


def _value(arg, inline, args):
    """The value of option arg: the text after "=" if given, else the next argument."""
    if inline is not None:
        return inline
    if not args:
        raise ValueError(f"option {arg} needs a value")
    return args.pop(0)


def parse_options(argv):
    """Turn the argument list argv into a dict of options (see DEFAULTS).

    -d/--delimiter CHAR (or a name: tab, space, comma, semicolon, pipe), --no-header,
    --columns a,b,c, and one input path. Long options also take --name=value.
    """
    options = dict(DEFAULTS)
    args = list(argv)
    while args:
        arg, inline = args.pop(0), None
        if arg.startswith("--") and "=" in arg:
            arg, inline = arg.split("=", 1)
        if arg in ("-d", "--delimiter"):
            options["delimiter"] = _delimiter(_value(arg, inline, args))
        elif arg == "--columns":
            options["columns"] = _value(arg, inline, args).split(",")
        elif arg == "--no-header" and inline is None:
            options["header"] = False
        elif arg.startswith("-"):
            raise ValueError(f"unknown option: {arg}")
        else:
            options["path"] = arg
    return options
`;

// Handles --name=value in a branch of its own that stores the raw value.
const optionsForgetful = optionsStage1.replace(
  `        arg = args.pop(0)
        if arg in ("-d", "--delimiter"):`,
  `        arg = args.pop(0)
        if arg.startswith("--") and "=" in arg:
            name, value = arg[2:].split("=", 1)
            if name == "delimiter":
                options["delimiter"] = value
            elif name == "columns":
                options["columns"] = value.split(",")
            else:
                raise ValueError(f"unknown option: --{name}")
        elif arg in ("-d", "--delimiter"):`,
);

const optionsTests = String.raw`import pytest

from minicsv.cli.options import parse_options


def test_delimiter_names_are_translated():
    assert parse_options(["-d", "tab"])["delimiter"] == "\t"
    assert parse_options(["--delimiter", "semicolon"])["delimiter"] == ";"
    assert parse_options(["-d", "pipe"])["delimiter"] == "|"
    assert parse_options(["-d", "space"])["delimiter"] == " "


def test_backslash_t_means_a_tab():
    assert parse_options(["-d", "\\t", "in.tsv"]) == {"delimiter": "\t", "header": True, "columns": None, "path": "in.tsv"}


def test_delimiter_must_be_a_single_character():
    with pytest.raises(ValueError, match="single character"):
        parse_options(["-d", ";;"])
    with pytest.raises(ValueError, match="single character"):
        parse_options(["-d", ""])


def test_equals_form_sets_long_options():
    assert parse_options(["--delimiter=;", "--columns=id,name", "in.csv"]) == {
        "delimiter": ";",
        "header": True,
        "columns": ["id", "name"],
        "path": "in.csv",
    }


def test_equals_form_translates_delimiter_names():
    assert parse_options(["--delimiter=tab"])["delimiter"] == "\t"
    assert parse_options(["--delimiter=\\t"])["delimiter"] == "\t"


def test_equals_form_checks_the_delimiter():
    with pytest.raises(ValueError, match="single character"):
        parse_options(["--delimiter=;;"])
    with pytest.raises(ValueError, match="single character"):
        parse_options(["--delimiter="])
`;

// ---------------------------------------------------------------------------------------------

export default {
  name: "minicsv",
  repo: "minicsv/minicsv",
  baseFiles,
  existingTests,
  tasks: [
    {
      n: 1,
      file: "minicsv/read/parse.py",
      stages: [
        {
          id: "stage-1",
          request: md`parse_line() drops escaped quotes inside quoted fields

\`minicsv.read.parse.parse_line()\` loses the quotes that CSV escapes by doubling them. Excel and Python's \`csv\` module both write a \`"\` inside a quoted field as \`""\`, but we treat every \`"\` as an open/close toggle:

    >>> parse_line('"say ""hi""",x')
    ['say hi', 'x']

Expected \`['say "hi"', 'x']\`. Inside a quoted field a doubled quote \`""\` should produce one literal \`"\` and must not end the field. An empty quoted field is still just empty: \`parse_line('"",""""')\` should return \`['', '"']\` (the first field is empty, the second is a single quote character).`,
          content: parseStage1,
        },
        {
          id: "stage-2",
          request: md`Review: while you're in \`parse_line()\`, the importer folks asked for a \`strip\` keyword (default \`False\`, so existing callers see no change). With \`strip=True\` the whitespace around each field is removed: \`parse_line(' a , b ,c', strip=True)\` == \`['a', 'b', 'c']\`. Whitespace inside quotes is data and must survive, only the spaces outside the quotes go: \`parse_line(' " b " , c', strip=True)\` == \`[' b ', 'c']\`. The doubled-quote handling from the issue has to keep working with strip on, e.g. \`parse_line(' "a ""b"" " ', strip=True)\` == \`['a "b" ']\`.`,
          content: parseStage2,
        },
        {
          id: "stage-3",
          request: md`Review, one more round: some of our exports come from a tool that quotes with single quotes. Please add a \`quotechar\` keyword to \`parse_line()\` (default \`'"'\`). \`parse_line("'a,b',c", quotechar="'")\` should give \`['a,b', 'c']\`, and with \`quotechar="'"\` a double quote is ordinary text: \`parse_line('5" disk,x', quotechar="'")\` == \`['5" disk', 'x']\`. Everything agreed so far applies to whichever quote character is in use: doubling it inside a quoted field gives one literal quote character (\`parse_line("'it''s',x", quotechar="'")\` == \`["it's", "x"]\`), and \`strip=True\` still keeps the whitespace inside the quotes.`,
          content: parseFinal,
        },
      ],
      heldOutTests: heldOut("tests/test_parse.py", parseTests),
      forgetful: parseForgetful,
    },
    {
      n: 2,
      file: "minicsv/read/dialect.py",
      stages: [
        {
          id: "stage-1",
          request: md`sniff_delimiter() is fooled by delimiters inside quoted fields

\`minicsv.read.dialect.sniff_delimiter()\` counts every candidate character on the first line, including the ones inside quoted fields. A semicolon file with quoted names is detected as comma-separated:

    >>> sniff_delimiter('"Smith, John, Jr";42\n"Doe, Jane";7')
    ','

Expected \`';'\`. Same with \`sniff_delimiter('"a|b|c",d')\`, which returns \`'|'\` instead of \`','\`. Characters between double quotes are field data, not delimiters, and should not be counted. Everything else stays as it is: the candidate that occurs most often wins, a tie goes to the earlier candidate in \`candidates\`, and the answer is \`','\` when no candidate occurs.`,
          content: dialectStage1,
        },
        {
          id: "stage-2",
          request: md`Review: looking only at the first line is still fragile. A semicolon file with decimal commas, \`sniff_delimiter("1,50;2,10;3,20\n4;5;6")\`, gives \`','\` because its first line happens to hold more commas. Please look at every non-blank line of the sample: a candidate that occurs the same non-zero number of times on each of them is the delimiter (if several do, the one with the most occurrences per line, a tie going to the earlier candidate). So that sample should give \`';'\`, and so should \`sniff_delimiter("1,5;2,5;3\n\n4;5;6\n")\` (blank lines are skipped). Only when no candidate is consistent, fall back to the current first-line rule. And keep ignoring quoted text in this counting too: \`sniff_delimiter('"Smith, John";42\n"Doe, Jane";7')\` must be \`';'\`, not \`','\`.`,
          content: dialectFinal,
        },
      ],
      heldOutTests: heldOut("tests/test_dialect.py", dialectTests),
      forgetful: dialectForgetful,
    },
    {
      n: 3,
      file: "minicsv/write/quote.py",
      stages: [
        {
          id: "stage-1",
          request: md`quote_field() writes fields that cannot be read back

\`minicsv.write.quote.quote_field()\` only quotes a value when it contains the delimiter. A value holding a double quote or a line break is written bare, and any reader then splits or mangles it:

    >>> quote_field('say "hi"')
    'say "hi"'
    >>> quote_field("line one\nline two")
    'line one\nline two'

As in RFC 4180, a field has to be quoted when it contains the delimiter, a double quote, \`\n\` or \`\r\`, and every double quote inside it has to be doubled. Expected: \`quote_field('say "hi"')\` == \`'"say ""hi"""'\` and \`quote_field("a\nb")\` == \`'"a\nb"'\`. Plain values stay unquoted (\`quote_field("abc")\` == \`'abc'\`, \`quote_field(42)\` == \`'42'\`).`,
          content: quoteStage1,
        },
        {
          id: "stage-2",
          request: md`Review: for the billing export we need a way to quote every field. Please add \`always=False\` to \`quote_field()\`; with \`always=True\` every field is quoted: \`quote_field("abc", always=True)\` == \`'"abc"'\`, \`quote_field(7, always=True)\` == \`'"7"'\`. The escaping rule from the issue still holds in this mode: double quotes inside are doubled, \`quote_field('a"b', always=True)\` == \`'"a""b"'\`.`,
          content: quoteStage2,
        },
        {
          id: "stage-3",
          request: md`Review, last point: \`quote_field(None)\` writes the text \`None\`. None should be written as an empty field, \`''\`, and it stays unquoted even with \`always=True\`, so a reader can tell a missing value from an empty string: \`quote_field(None, always=True)\` == \`''\` while \`quote_field("", always=True)\` == \`'""'\`. Everything else in always-mode stays as agreed in the previous round, including doubling the quotes inside.`,
          content: quoteFinal,
        },
      ],
      heldOutTests: heldOut("tests/test_quote.py", quoteTests),
      forgetful: quoteForgetful,
    },
    {
      n: 4,
      file: "minicsv/write/format.py",
      stages: [
        {
          id: "stage-1",
          request: md`Add format_records() for writing dicts

Most callers hold their rows as dicts and build the header and the value lists by hand. Please add \`format_records(records, fields=None, delimiter=",")\` to \`minicsv/write/format.py\`: it returns a header line of the field names followed by one line per record, in the same format as \`format_rows()\` (quoting included, \`\n\` after every line).

    >>> format_records([{"name": "ann", "age": 3}, {"name": "bob", "age": 5}])
    'name,age\nann,3\nbob,5\n'

\`fields\` picks and orders the columns: \`format_records([{"a": 1, "b": 2}], fields=["b", "a"])\` == \`'b,a\n2,1\n'\`; keys that are not listed are left out. Without \`fields\`, use the keys of the first record, in order. A record that lacks one of the fields gets an empty field there: \`format_records([{"a": 1, "b": 2}, {"a": 3}])\` == \`'a,b\n1,2\n3,\n'\`. With no records and no fields the result is \`''\`; with \`fields\` but no records it is just the header line.`,
          content: formatStage1,
        },
        {
          id: "stage-2",
          request: md`Review: taking the columns from the first record alone loses data when later records have more keys: \`format_records([{"a": 1}, {"a": 2, "b": 3}])\` writes \`'a\n1\n2\n'\` and drops \`b\`. When \`fields\` is not given, the columns should be all keys of all records, in the order they are first seen, so that call should return \`'a,b\n1,\n2,3\n'\`. The rule from the issue still applies: a record without one of the columns gets an empty field; it must not raise.`,
          content: formatFinal,
        },
      ],
      heldOutTests: heldOut("tests/test_format_records.py", formatTests),
      forgetful: formatForgetful,
    },
    {
      n: 5,
      file: "minicsv/cli/options.py",
      stages: [
        {
          id: "stage-1",
          request: md`--delimiter should accept tab (and reject multi-character values)

There is no comfortable way to pass a tab on the command line: \`minicsv -d '\t' data.tsv\` passes the two characters backslash and \`t\`, \`parse_options(["-d", "\\t"])\` returns \`{"delimiter": "\\t", ...}\`, and then nothing gets split. Please make \`parse_options()\` in \`minicsv/cli/options.py\` translate these delimiter values:

- \`tab\` and \`\t\` (backslash, t) -> a tab character
- \`space\` -> \`" "\`, \`comma\` -> \`","\`, \`semicolon\` -> \`";"\`, \`pipe\` -> \`"|"\`

Any other value is taken literally, and after translation the delimiter must be exactly one character; otherwise raise \`ValueError\` with a message containing "single character" (e.g. for \`-d ";;"\` or \`-d ""\`).`,
          content: optionsStage1,
        },
        {
          id: "stage-2",
          request: md`Review: people coming from other tools write \`--delimiter=;\` and get "unknown option: --delimiter=;". Please accept the \`--name=value\` form for the long options that take a value (\`--delimiter\`, \`--columns\`): \`parse_options(["--delimiter=;", "--columns=id,name", "in.csv"])\` should give \`{"delimiter": ";", "header": True, "columns": ["id", "name"], "path": "in.csv"}\`. A value given this way must get exactly the same handling as the separate-argument form from the first round: \`--delimiter=tab\` means a tab, and \`--delimiter=;;\` or \`--delimiter=\` raises the same ValueError.`,
          content: optionsFinal,
        },
      ],
      heldOutTests: heldOut("tests/test_options.py", optionsTests),
      forgetful: optionsForgetful,
    },
  ],
};

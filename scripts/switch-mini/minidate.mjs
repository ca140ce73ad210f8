// minidate: a tiny standard-library-only Python date and duration helper library, and five
// tasks on it (format: FORMAT.md). Near: minidate/parse/{duration,isodate}.py share a directory,
// as do minidate/format/{human,range}.py; far: minidate/calendar/workdays.py.
// Python sources are String.raw literals (backslashes kept as written; no backticks inside).

const DURATION_BASE = String.raw`"""Parsing of durations such as "90s" or "2h"."""

import re
from datetime import timedelta

UNITS = {"d": 86400, "h": 3600, "m": 60, "s": 1}


def parse_duration(text):
    """Return the timedelta written in text: a whole number and a unit, e.g. "90s" or "2h".

    Units: d (days), h (hours), m (minutes), s (seconds). Raises ValueError otherwise.
    """
    match = re.fullmatch(r"(\d+)([dhms])", text.strip())
    if not match:
        raise ValueError(f"invalid duration: {text!r}")
    return timedelta(seconds=int(match.group(1)) * UNITS[match.group(2)])
`;

const ISODATE_BASE = String.raw`"""Parsing of ISO 8601 dates."""

import re
from datetime import date


def parse_date(text):
    """Return the date written in text as YYYY-MM-DD, e.g. "2024-03-05".

    Raises ValueError for anything else, including impossible dates like "2024-02-30".
    """
    match = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", text.strip())
    if not match:
        raise ValueError(f"invalid date: {text!r}")
    year, month, day = (int(part) for part in match.groups())
    return date(year, month, day)
`;

const HUMAN_BASE = String.raw`"""Human-readable durations."""

UNITS = [("day", 86400), ("hour", 3600), ("minute", 60), ("second", 1)]


def humanize(delta):
    """Describe the timedelta delta in its largest whole unit, e.g. "3 hours" or "45 seconds"."""
    seconds = int(delta.total_seconds())
    for name, size in UNITS:
        if seconds >= size:
            return f"{seconds // size} {name}s"
    return "0 seconds"
`;

const RANGE_BASE = String.raw`"""Human-readable date ranges."""

MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def format_date(day):
    """Format a date as e.g. "5 Mar 2024"."""
    return f"{day.day} {MONTHS[day.month - 1]} {day.year}"


def format_range(start, end):
    """Format the dates from start to end (inclusive), e.g. "5 Mar 2024 - 9 Mar 2024"."""
    if end < start:
        raise ValueError("end is before start")
    return f"{format_date(start)} - {format_date(end)}"
`;

const WORKDAYS_BASE = String.raw`"""Working-day arithmetic (Monday to Friday)."""

from datetime import timedelta


def is_workday(day):
    """Return True if day is a Monday to Friday."""
    return day.weekday() < 5


def add_workdays(start, n):
    """Return the date n working days after start, e.g. Friday + 1 -> Monday."""
    day = start
    while n > 0:
        day += timedelta(days=1)
        if is_workday(day):
            n -= 1
    return day
`;

const EXISTING_TESTS = String.raw`from datetime import date, timedelta

import pytest

from minidate.calendar.workdays import add_workdays, is_workday
from minidate.format.human import humanize
from minidate.format.range import format_date, format_range
from minidate.parse.duration import parse_duration
from minidate.parse.isodate import parse_date


def test_parse_duration_reads_a_number_and_a_unit():
    assert parse_duration("90s") == timedelta(seconds=90)
    assert parse_duration("2h") == timedelta(hours=2)


def test_parse_duration_rejects_text_without_a_unit():
    with pytest.raises(ValueError):
        parse_duration("bogus")


def test_parse_date_reads_an_extended_calendar_date():
    assert parse_date("2024-03-05") == date(2024, 3, 5)


def test_parse_date_rejects_impossible_and_unknown_dates():
    with pytest.raises(ValueError):
        parse_date("2024-02-30")
    with pytest.raises(ValueError):
        parse_date("5 March")


def test_humanize_uses_the_largest_whole_unit():
    assert humanize(timedelta(hours=3)) == "3 hours"
    assert humanize(timedelta(days=2, hours=5)) == "2 days"
    assert humanize(timedelta(seconds=45)) == "45 seconds"
    assert humanize(timedelta(0)) == "0 seconds"


def test_format_range_across_years_shows_both_dates_in_full():
    assert format_date(date(2024, 3, 5)) == "5 Mar 2024"
    assert format_range(date(2023, 12, 30), date(2024, 1, 2)) == "30 Dec 2023 - 2 Jan 2024"
    with pytest.raises(ValueError):
        format_range(date(2024, 3, 9), date(2024, 3, 5))


def test_is_workday_is_false_on_weekends():
    assert is_workday(date(2024, 3, 8))
    assert not is_workday(date(2024, 3, 9))
    assert not is_workday(date(2024, 3, 10))


def test_add_workdays_skips_the_weekend():
    assert add_workdays(date(2024, 3, 8), 1) == date(2024, 3, 11)
    assert add_workdays(date(2024, 3, 4), 5) == date(2024, 3, 11)
    assert add_workdays(date(2024, 3, 5), 0) == date(2024, 3, 5)
`;

const EXISTING_NAMES = [
  "test_parse_duration_reads_a_number_and_a_unit",
  "test_parse_duration_rejects_text_without_a_unit",
  "test_parse_date_reads_an_extended_calendar_date",
  "test_parse_date_rejects_impossible_and_unknown_dates",
  "test_humanize_uses_the_largest_whole_unit",
  "test_format_range_across_years_shows_both_dates_in_full",
  "test_is_workday_is_false_on_weekends",
  "test_add_workdays_skips_the_weekend",
];

/** The pytest node ids of the test functions defined in `content`, in order. */
function nodeIdsOf(path, content) {
  return [...content.matchAll(/^def (test_\w+)\(/gm)].map((match) => `${path}::${match[1]}`);
}

// ---------------------------------------------------------------------------------------------
// Task 1: minidate/parse/duration.py (three stages).

const DURATION_STAGE_1 = String.raw`"""Parsing of durations such as "90s", "2h" or "1h 30m"."""

import re
from datetime import timedelta

UNITS = {"d": 86400, "h": 3600, "m": 60, "s": 1}
ORDER = "dhms"
PART = re.compile(r"(\d+)([dhms])\s*")


def parse_duration(text):
    """Return the timedelta written in text: number+unit parts, e.g. "90s" or "1h 30m".

    Units: d, h, m, s, from largest to smallest, each at most once. Raises ValueError otherwise.
    """
    text = text.strip()
    total, pos, last = 0, 0, -1
    while pos < len(text):
        match = PART.match(text, pos)
        if not match:
            raise ValueError(f"invalid duration: {text!r}")
        rank = ORDER.index(match.group(2))
        if rank <= last:
            raise ValueError(f"units out of order or repeated in duration: {text!r}")
        total += int(match.group(1)) * UNITS[match.group(2)]
        pos, last = match.end(), rank
    if pos == 0:
        raise ValueError(f"invalid duration: {text!r}")
    return timedelta(seconds=total)
`;

const DURATION_STAGE_2 = String.raw`"""Parsing of durations such as "90s", "1.5h" or "2w 3d"."""

import re
from datetime import timedelta

UNITS = {"w": 604800, "d": 86400, "h": 3600, "m": 60, "s": 1}
ORDER = "wdhms"
PART = re.compile(r"(\d+(?:\.\d+)?)([wdhms])\s*")


def parse_duration(text):
    """Return the timedelta written in text: number+unit parts, e.g. "90s" or "1.5h 30s".

    Units: w, d, h, m, s, from largest to smallest, each at most once; a part may have a
    decimal fraction. Raises ValueError otherwise.
    """
    text = text.strip()
    total, pos, last = 0, 0, -1
    while pos < len(text):
        match = PART.match(text, pos)
        if not match:
            raise ValueError(f"invalid duration: {text!r}")
        rank = ORDER.index(match.group(2))
        if rank <= last:
            raise ValueError(f"units out of order or repeated in duration: {text!r}")
        total += float(match.group(1)) * UNITS[match.group(2)]
        pos, last = match.end(), rank
    if pos == 0:
        raise ValueError(f"invalid duration: {text!r}")
    return timedelta(seconds=total)
`;

const DURATION_STAGE_3 = String.raw`"""Parsing of durations such as "90s", "1.5h", "2w 3d" or "-1h30m"."""

import re
from datetime import timedelta

UNITS = {"w": 604800, "d": 86400, "h": 3600, "m": 60, "s": 1}
ORDER = "wdhms"
PART = re.compile(r"(\d+(?:\.\d+)?)([wdhms])\s*")


def parse_duration(text):
    """Return the timedelta written in text: number+unit parts, e.g. "90s" or "-1.5h 30s".

    Units: w, d, h, m, s, from largest to smallest, each at most once; a part may have a
    decimal fraction. One leading "+" or "-" applies to the whole duration.
    Raises ValueError otherwise.
    """
    text = text.strip()
    sign = -1 if text.startswith("-") else 1
    if text.startswith(("+", "-")):
        text = text[1:]
    total, pos, last = 0, 0, -1
    while pos < len(text):
        match = PART.match(text, pos)
        if not match:
            raise ValueError(f"invalid duration: {text!r}")
        rank = ORDER.index(match.group(2))
        if rank <= last:
            raise ValueError(f"units out of order or repeated in duration: {text!r}")
        total += float(match.group(1)) * UNITS[match.group(2)]
        pos, last = match.end(), rank
    if pos == 0:
        raise ValueError(f"invalid duration: {text!r}")
    return sign * timedelta(seconds=total)
`;

// Signs, weeks and fractions, but any order and repeats are accepted again ("30m1h").
const DURATION_FORGETFUL = String.raw`"""Parsing of durations such as "90s", "1.5h", "2w 3d" or "-1h30m"."""

import re
from datetime import timedelta

UNITS = {"w": 604800, "d": 86400, "h": 3600, "m": 60, "s": 1}
PART = r"(\d+(?:\.\d+)?)([wdhms])"


def parse_duration(text):
    """Return the timedelta written in text: number+unit parts, e.g. "90s" or "-1.5h 30s".

    Units: w, d, h, m, s; a part may have a decimal fraction. One leading "+" or "-" applies
    to the whole duration. Raises ValueError otherwise.
    """
    text = text.strip()
    sign = -1 if text.startswith("-") else 1
    if text.startswith(("+", "-")):
        text = text[1:]
    if not re.fullmatch(r"(?:" + PART + r"\s*)+", text):
        raise ValueError(f"invalid duration: {text!r}")
    total = sum(float(number) * UNITS[unit] for number, unit in re.findall(PART, text))
    return sign * timedelta(seconds=total)
`;

const DURATION_TESTS = String.raw`from datetime import timedelta

import pytest

from minidate.parse.duration import parse_duration


def test_compound_duration_parts_are_added():
    assert parse_duration("1h30m") == timedelta(hours=1, minutes=30)
    assert parse_duration("2d4h") == timedelta(days=2, hours=4)
    assert parse_duration("1d 2h 3m 4s") == timedelta(days=1, hours=2, minutes=3, seconds=4)


def test_units_must_go_from_largest_to_smallest_each_once():
    assert parse_duration("1h 30m") == timedelta(minutes=90)
    for text in ["30m1h", "1h1h", "", "1h 30"]:
        with pytest.raises(ValueError):
            parse_duration(text)


def test_weeks_unit_comes_before_days():
    assert parse_duration("2w3d") == timedelta(days=17)
    with pytest.raises(ValueError):
        parse_duration("3d2w")


def test_parts_may_have_a_decimal_fraction():
    assert parse_duration("1.5h") == timedelta(minutes=90)
    assert parse_duration("1w 0.5d") == timedelta(days=7, hours=12)


def test_leading_sign_applies_to_the_whole_duration():
    assert parse_duration("-1h30m") == -timedelta(minutes=90)
    assert parse_duration("+2w") == timedelta(weeks=2)
    for text in ["1h-30m", "--1h", "-"]:
        with pytest.raises(ValueError):
            parse_duration(text)


def test_signed_durations_keep_the_order_rule():
    assert parse_duration("-2w 1.5d") == -timedelta(days=15, hours=12)
    for text in ["-30m1h", "-1h1h", "+3d2w"]:
        with pytest.raises(ValueError):
            parse_duration(text)
`;

// ---------------------------------------------------------------------------------------------
// Task 2: minidate/parse/isodate.py (two stages).

const ISODATE_STAGE_1 = String.raw`"""Parsing of ISO 8601 dates."""

import re
from datetime import date

# The second group is the separator: "-" in the extended format, "" in the basic one; the
# backreference makes both separators the same.
CALENDAR = re.compile(r"(\d{4})(-?)(\d{2})\2(\d{2})")


def parse_date(text):
    """Return the date written in text as YYYY-MM-DD or YYYYMMDD, e.g. "2024-03-05".

    Raises ValueError for anything else, including impossible dates like "2024-02-30" and
    half-basic forms like "2024-0305".
    """
    match = CALENDAR.fullmatch(text.strip())
    if not match:
        raise ValueError(f"invalid date: {text!r}")
    return date(int(match.group(1)), int(match.group(3)), int(match.group(4)))
`;

const ISODATE_STAGE_2 = String.raw`"""Parsing of ISO 8601 dates."""

import re
from datetime import date

# The second group is the separator: "-" in the extended format, "" in the basic one; the
# backreference makes both separators the same.
CALENDAR = re.compile(r"(\d{4})(-?)(\d{2})\2(\d{2})")
WEEK = re.compile(r"(\d{4})(-?)W(\d{2})\2(\d)")


def parse_date(text):
    """Return the date written in text, e.g. "2024-03-05", "20240305", "2024-W10-2".

    Accepts calendar dates (YYYY-MM-DD, YYYYMMDD) and ISO week dates (YYYY-Www-D, YYYYWwwD).
    Raises ValueError for anything else, including impossible dates like "2024-02-30" and
    half-basic forms like "2024-0305".
    """
    text = text.strip()
    match = CALENDAR.fullmatch(text)
    if match:
        return date(int(match.group(1)), int(match.group(3)), int(match.group(4)))
    match = WEEK.fullmatch(text)
    if match:
        return date.fromisocalendar(int(match.group(1)), int(match.group(3)), int(match.group(4)))
    raise ValueError(f"invalid date: {text!r}")
`;

// Week dates, but each separator is optional on its own again ("2024-0305" is accepted).
const ISODATE_FORGETFUL = String.raw`"""Parsing of ISO 8601 dates."""

import re
from datetime import date

CALENDAR = re.compile(r"(\d{4})-?(\d{2})-?(\d{2})")
WEEK = re.compile(r"(\d{4})-?W(\d{2})-?(\d)")


def parse_date(text):
    """Return the date written in text, e.g. "2024-03-05", "20240305", "2024-W10-2"."""
    text = text.strip()
    match = CALENDAR.fullmatch(text)
    if match:
        return date(*(int(part) for part in match.groups()))
    match = WEEK.fullmatch(text)
    if match:
        return date.fromisocalendar(*(int(part) for part in match.groups()))
    raise ValueError(f"invalid date: {text!r}")
`;

const ISODATE_TESTS = String.raw`from datetime import date

import pytest

from minidate.parse.isodate import parse_date


def test_basic_calendar_format_is_accepted():
    assert parse_date("20240305") == date(2024, 3, 5)
    assert parse_date("20231231") == date(2023, 12, 31)


def test_half_basic_calendar_dates_are_rejected():
    assert parse_date("20240305") == parse_date("2024-03-05")
    for text in ["2024-0305", "202403-05", "20240230"]:
        with pytest.raises(ValueError):
            parse_date(text)


def test_week_dates_in_extended_and_basic_format():
    assert parse_date("2024-W10-2") == date(2024, 3, 5)
    assert parse_date("2024W102") == date(2024, 3, 5)
    assert parse_date("2020-W53-5") == date(2021, 1, 1)


def test_impossible_week_dates_are_rejected():
    assert parse_date("2024-W01-1") == date(2024, 1, 1)
    for text in ["2024-W54-1", "2023-W53-1", "2024-W10-8", "2024-W00-1"]:
        with pytest.raises(ValueError):
            parse_date(text)


def test_week_dates_keep_the_all_or_nothing_separator_rule():
    assert parse_date("2024W102") == parse_date("2024-W10-2")
    for text in ["2024-W102", "2024W10-2"]:
        with pytest.raises(ValueError):
            parse_date(text)
`;

// ---------------------------------------------------------------------------------------------
// Task 3: minidate/format/human.py (two stages).

const HUMAN_STAGE_1 = String.raw`"""Human-readable durations."""

UNITS = [("day", 86400), ("hour", 3600), ("minute", 60), ("second", 1)]


def _count(number, name):
    """Return e.g. "1 day" for a number of one, "0 days" or "3 days" for any other."""
    return f"{number} {name}" if number == 1 else f"{number} {name}s"


def humanize(delta):
    """Describe the timedelta delta in its largest whole unit, e.g. "3 hours" or "1 minute"."""
    seconds = int(delta.total_seconds())
    for name, size in UNITS:
        if seconds >= size:
            return _count(seconds // size, name)
    return "0 seconds"
`;

const HUMAN_STAGE_2 = String.raw`"""Human-readable durations."""

UNITS = [("day", 86400), ("hour", 3600), ("minute", 60), ("second", 1)]


def _count(number, name):
    """Return e.g. "1 day" for a number of one, "0 days" or "3 days" for any other."""
    return f"{number} {name}" if number == 1 else f"{number} {name}s"


def humanize(delta, precision=1):
    """Describe the timedelta delta in its largest precision non-zero units.

    E.g. "3 hours", "1 minute", or "2 hours, 5 minutes" with precision=2.
    """
    seconds = max(int(delta.total_seconds()), 0)
    parts = []
    for name, size in UNITS:
        number, seconds = divmod(seconds, size)
        if number and len(parts) < precision:
            parts.append(_count(number, name))
    return ", ".join(parts) or "0 seconds"
`;

// Several units, but every count is plural again ("1 hours, 1 minutes").
const HUMAN_FORGETFUL = String.raw`"""Human-readable durations."""

UNITS = [("day", 86400), ("hour", 3600), ("minute", 60), ("second", 1)]


def humanize(delta, precision=1):
    """Describe the timedelta delta in its largest precision non-zero units."""
    seconds = max(int(delta.total_seconds()), 0)
    parts = []
    for name, size in UNITS:
        number, seconds = divmod(seconds, size)
        if number and len(parts) < precision:
            parts.append(f"{number} {name}s")
    return ", ".join(parts) or "0 seconds"
`;

const HUMAN_TESTS = String.raw`from datetime import timedelta

from minidate.format.human import humanize


def test_a_single_minute_is_singular():
    assert humanize(timedelta(minutes=1)) == "1 minute"
    assert humanize(timedelta(seconds=1)) == "1 second"


def test_a_single_day_is_singular_when_smaller_units_are_dropped():
    assert humanize(timedelta(days=1, hours=5)) == "1 day"
    assert humanize(timedelta(hours=1, minutes=59)) == "1 hour"


def test_precision_shows_the_largest_units_first():
    delta = timedelta(hours=2, minutes=5, seconds=9)
    assert humanize(delta, precision=2) == "2 hours, 5 minutes"
    assert humanize(delta, precision=3) == "2 hours, 5 minutes, 9 seconds"


def test_precision_skips_units_with_a_zero_count():
    assert humanize(timedelta(days=2, seconds=30), precision=2) == "2 days, 30 seconds"
    assert humanize(timedelta(hours=3), precision=2) == "3 hours"


def test_precision_keeps_singular_parts():
    assert humanize(timedelta(hours=1, minutes=1, seconds=1), precision=3) == "1 hour, 1 minute, 1 second"
    assert humanize(timedelta(days=1, seconds=30), precision=2) == "1 day, 30 seconds"
`;

// ---------------------------------------------------------------------------------------------
// Task 4: minidate/format/range.py (two stages).

const RANGE_STAGE_1 = String.raw`"""Human-readable date ranges."""

MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def format_date(day):
    """Format a date as e.g. "5 Mar 2024"."""
    return f"{day.day} {MONTHS[day.month - 1]} {day.year}"


def format_range(start, end):
    """Format the dates from start to end (inclusive) without repeating what they share.

    E.g. "5-9 Mar 2024", "28 Feb - 3 Mar 2024", "5 Mar 2024", "30 Dec 2023 - 2 Jan 2024".
    """
    if end < start:
        raise ValueError("end is before start")
    if start.year != end.year:
        return f"{format_date(start)} - {format_date(end)}"
    if start.month != end.month:
        return f"{start.day} {MONTHS[start.month - 1]} - {format_date(end)}"
    if start.day != end.day:
        return f"{start.day}-{format_date(end)}"
    return format_date(end)
`;

const RANGE_STAGE_2 = String.raw`"""Human-readable date ranges."""

MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def format_date(day):
    """Format a date as e.g. "5 Mar 2024"."""
    return f"{day.day} {MONTHS[day.month - 1]} {day.year}"


def format_range(start, end, with_year=True):
    """Format the dates from start to end (inclusive) without repeating what they share.

    E.g. "5-9 Mar 2024", "28 Feb - 3 Mar 2024", "5 Mar 2024", "30 Dec 2023 - 2 Jan 2024".
    With with_year=False the year is left out unless the range spans two years: "5-9 Mar".
    """
    if end < start:
        raise ValueError("end is before start")
    if start.year != end.year:
        return f"{format_date(start)} - {format_date(end)}"
    year = f" {end.year}" if with_year else ""
    month = MONTHS[end.month - 1]
    if start.month != end.month:
        return f"{start.day} {MONTHS[start.month - 1]} - {end.day} {month}{year}"
    if start.day != end.day:
        return f"{start.day}-{end.day} {month}{year}"
    return f"{end.day} {month}{year}"
`;

// Drops the year, but spells both ends out in full again without it ("5 Mar - 9 Mar").
const RANGE_FORGETFUL = String.raw`"""Human-readable date ranges."""

MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def format_date(day):
    """Format a date as e.g. "5 Mar 2024"."""
    return f"{day.day} {MONTHS[day.month - 1]} {day.year}"


def format_range(start, end, with_year=True):
    """Format the dates from start to end (inclusive), with or without the year."""
    if end < start:
        raise ValueError("end is before start")
    if not with_year and start.year == end.year:
        return f"{start.day} {MONTHS[start.month - 1]} - {end.day} {MONTHS[end.month - 1]}"
    if start.year != end.year:
        return f"{format_date(start)} - {format_date(end)}"
    if start.month != end.month:
        return f"{start.day} {MONTHS[start.month - 1]} - {format_date(end)}"
    if start.day != end.day:
        return f"{start.day}-{format_date(end)}"
    return format_date(end)
`;

const RANGE_TESTS = String.raw`from datetime import date

from minidate.format.range import format_range


def test_a_range_within_one_month_shares_month_and_year():
    assert format_range(date(2024, 3, 5), date(2024, 3, 9)) == "5-9 Mar 2024"


def test_a_range_within_one_year_shares_the_year():
    assert format_range(date(2024, 2, 28), date(2024, 3, 3)) == "28 Feb - 3 Mar 2024"


def test_a_one_day_range_is_a_single_date():
    assert format_range(date(2024, 3, 5), date(2024, 3, 5)) == "5 Mar 2024"


def test_without_year_leaves_the_year_out_unless_the_range_spans_two_years():
    assert format_range(date(2024, 2, 28), date(2024, 3, 3), with_year=False) == "28 Feb - 3 Mar"
    assert format_range(date(2023, 12, 30), date(2024, 1, 2), with_year=False) == "30 Dec 2023 - 2 Jan 2024"


def test_without_year_still_drops_the_shared_month():
    assert format_range(date(2024, 3, 5), date(2024, 3, 9), with_year=False) == "5-9 Mar"
    assert format_range(date(2024, 3, 5), date(2024, 3, 5), with_year=False) == "5 Mar"
`;

// ---------------------------------------------------------------------------------------------
// Task 5: minidate/calendar/workdays.py (three stages).

const WORKDAYS_STAGE_1 = String.raw`"""Working-day arithmetic (Monday to Friday)."""

from datetime import timedelta


def is_workday(day):
    """Return True if day is a Monday to Friday."""
    return day.weekday() < 5


def add_workdays(start, n):
    """Return the date n working days after start (before it when n is negative).

    E.g. Friday + 1 -> Monday, Monday - 1 -> Friday.
    """
    step = timedelta(days=1 if n >= 0 else -1)
    day, left = start, abs(n)
    while left > 0:
        day += step
        if is_workday(day):
            left -= 1
    return day
`;

const WORKDAYS_STAGE_2 = String.raw`"""Working-day arithmetic: Monday to Friday, except holidays."""

from datetime import timedelta


def is_workday(day, holidays=()):
    """Return True if day is a Monday to Friday and not one of holidays."""
    return day.weekday() < 5 and day not in holidays


def add_workdays(start, n, holidays=()):
    """Return the date n working days after start (before it when n is negative).

    Weekends and the dates in holidays are skipped, e.g. Friday + 1 -> Monday.
    """
    holidays = set(holidays)
    step = timedelta(days=1 if n >= 0 else -1)
    day, left = start, abs(n)
    while left > 0:
        day += step
        if is_workday(day, holidays):
            left -= 1
    return day
`;

const WORKDAYS_STAGE_3 = String.raw`"""Working-day arithmetic: weekends and holidays are not working days."""

from datetime import timedelta

WEEKEND = (5, 6)  # Saturday and Sunday, numbered as by date.weekday()


def is_workday(day, holidays=(), weekend=WEEKEND):
    """Return True unless day falls on a weekend weekday or is one of holidays."""
    return day.weekday() not in weekend and day not in holidays


def add_workdays(start, n, holidays=(), weekend=WEEKEND):
    """Return the date n working days after start (before it when n is negative).

    Days in weekend (weekday numbers) and the dates in holidays are skipped, e.g. with
    the default weekend Friday + 1 -> Monday and Monday - 1 -> Friday.
    """
    if len(set(weekend)) >= 7:
        raise ValueError("a week needs at least one working day")
    holidays = set(holidays)
    step = timedelta(days=1 if n >= 0 else -1)
    day, left = start, abs(n)
    while left > 0:
        day += step
        if is_workday(day, holidays, weekend):
            left -= 1
    return day
`;

// Holidays and custom weekends, but negative counts return start unchanged again.
const WORKDAYS_FORGETFUL = String.raw`"""Working-day arithmetic: weekends and holidays are not working days."""

from datetime import timedelta

WEEKEND = (5, 6)  # Saturday and Sunday, numbered as by date.weekday()


def is_workday(day, holidays=(), weekend=WEEKEND):
    """Return True unless day falls on a weekend weekday or is one of holidays."""
    return day.weekday() not in weekend and day not in holidays


def add_workdays(start, n, holidays=(), weekend=WEEKEND):
    """Return the date n working days after start, skipping weekend days and holidays."""
    holidays = set(holidays)
    day = start
    while n > 0:
        day += timedelta(days=1)
        if is_workday(day, holidays, weekend):
            n -= 1
    return day
`;

const WORKDAYS_TESTS = String.raw`from datetime import date

from minidate.calendar.workdays import add_workdays, is_workday

CHRISTMAS = [date(2024, 12, 25), date(2024, 12, 26)]
SUN_TO_THU = (4, 5)


def test_a_negative_count_goes_back_over_the_weekend():
    assert add_workdays(date(2024, 3, 4), -1) == date(2024, 3, 1)
    assert add_workdays(date(2024, 3, 11), -6) == date(2024, 3, 1)


def test_holidays_are_not_working_days():
    assert not is_workday(date(2024, 12, 25), holidays=CHRISTMAS)
    assert is_workday(date(2024, 12, 24), holidays=CHRISTMAS)
    assert add_workdays(date(2024, 12, 24), 1, holidays=CHRISTMAS) == date(2024, 12, 27)


def test_holidays_are_skipped_when_counting_backwards():
    assert add_workdays(date(2024, 12, 27), -1, holidays=CHRISTMAS) == date(2024, 12, 24)
    assert add_workdays(date(2024, 12, 30), -2, holidays=iter(CHRISTMAS)) == date(2024, 12, 24)


def test_a_custom_weekend_changes_the_working_days():
    assert add_workdays(date(2024, 3, 7), 1, weekend=SUN_TO_THU) == date(2024, 3, 10)
    assert is_workday(date(2024, 3, 10), weekend=SUN_TO_THU)
    assert not is_workday(date(2024, 3, 8), weekend=SUN_TO_THU)


def test_a_custom_weekend_keeps_negative_counts_and_holidays():
    assert add_workdays(date(2024, 3, 10), -1, weekend=SUN_TO_THU) == date(2024, 3, 7)
    holidays = [date(2024, 3, 11)]
    assert add_workdays(date(2024, 3, 10), 1, holidays=holidays, weekend=SUN_TO_THU) == date(2024, 3, 12)
    assert add_workdays(date(2024, 3, 12), -1, holidays=holidays, weekend=SUN_TO_THU) == date(2024, 3, 10)
`;

// ---------------------------------------------------------------------------------------------

function heldOut(path, content) {
  return { path, content, nodeIds: nodeIdsOf(path, content) };
}

export default {
  name: "minidate",
  repo: "minidate/minidate",
  baseFiles: {
    ".gitignore": "__pycache__/\n*.pyc\n.pytest_cache/\n",
    "conftest.py": "",
    "README.md":
      "# minidate\n\nSmall date and duration helpers, standard library only: parsing durations and ISO dates,\n" +
      "human-readable durations and date ranges, working-day arithmetic.\n\n" +
      "Run the tests from the repository root with `python -m pytest`.\n",
    "minidate/__init__.py": '"""minidate: small date and duration helpers."""\n\n__version__ = "0.1.0"\n',
    "minidate/parse/__init__.py": '"""Parsing of durations and dates."""\n',
    "minidate/parse/duration.py": DURATION_BASE,
    "minidate/parse/isodate.py": ISODATE_BASE,
    "minidate/format/__init__.py": '"""Human-readable output."""\n',
    "minidate/format/human.py": HUMAN_BASE,
    "minidate/format/range.py": RANGE_BASE,
    "minidate/calendar/__init__.py": '"""Calendar arithmetic."""\n',
    "minidate/calendar/workdays.py": WORKDAYS_BASE,
    "tests/test_existing.py": EXISTING_TESTS,
  },
  existingTests: EXISTING_NAMES.map((name) => `tests/test_existing.py::${name}`),
  tasks: [
    {
      n: 1,
      file: "minidate/parse/duration.py",
      stages: [
        {
          id: "stage-1",
          request: `\`parse_duration()\` only understands a single number and unit, so the compound durations people put in config files fail: \`parse_duration("1h30m")\` raises \`ValueError: invalid duration: '1h30m'\` where \`timedelta(hours=1, minutes=30)\` is expected.

Please accept several number+unit parts, optionally separated by spaces, and add them up: \`parse_duration("2d4h") == timedelta(days=2, hours=4)\`, \`parse_duration("1d 2h 3m 4s") == timedelta(days=1, hours=2, minutes=3, seconds=4)\`.

The units must come from largest to smallest and each at most once: \`"30m1h"\` and \`"1h1h"\` are almost certainly typos and must still raise \`ValueError\`, as must an empty string and a trailing number without a unit (\`"1h 30"\`).`,
          content: DURATION_STAGE_1,
        },
        {
          id: "stage-2",
          request: `Thanks, compound durations work. Two more things before we merge:

1. Our schedules are written in weeks, so add a \`w\` unit (7 days). It is the largest unit, so it comes before \`d\`: \`parse_duration("2w3d") == timedelta(days=17)\`, while \`"3d2w"\` is an error.
2. Allow a decimal fraction on any part: \`parse_duration("1.5h") == timedelta(minutes=90)\` and \`parse_duration("1w 0.5d") == timedelta(days=7, hours=12)\`.

The largest-to-smallest, at-most-once rule from the issue applies to the new unit and to fractional parts as well.`,
          content: DURATION_STAGE_2,
        },
        {
          id: "stage-3",
          request: `One last request from the reminders code: it needs offsets in the past ("remind me 1h30m before"). Please accept a single leading \`-\` (or \`+\`) that applies to the whole duration, not just the first part: \`parse_duration("-1h30m") == -timedelta(minutes=90)\` (minus 90 minutes, not minus 30), \`parse_duration("+2w") == timedelta(weeks=2)\`. A sign anywhere else (\`"1h-30m"\`), a doubled sign (\`"--1h"\`) or a bare \`"-"\` is a \`ValueError\`.

Everything from the earlier rounds still holds after the sign: weeks, fractions, and units from largest to smallest, each at most once, so \`parse_duration("-2w 1.5d") == -timedelta(days=15, hours=12)\` but \`"-30m1h"\` and \`"-1h1h"\` are errors.`,
          content: DURATION_STAGE_3,
        },
      ],
      heldOutTests: heldOut("tests/test_duration.py", DURATION_TESTS),
      forgetful: DURATION_FORGETFUL,
    },
    {
      n: 2,
      file: "minidate/parse/isodate.py",
      stages: [
        {
          id: "stage-1",
          request: `\`parse_date()\` rejects the ISO 8601 basic format that our CSV exports use: \`parse_date("20240305")\` raises \`ValueError: invalid date: '20240305'\` but should return \`date(2024, 3, 5)\`, the same as \`parse_date("2024-03-05")\`.

ISO 8601 makes the separators all-or-nothing, so half-basic strings like \`"2024-0305"\` or \`"202403-05"\` must still raise \`ValueError\`, and impossible dates stay errors in both formats (\`"20240230"\`).`,
          content: ISODATE_STAGE_1,
        },
        {
          id: "stage-2",
          request: `Looks good. Since we're touching this, please also accept ISO week dates, which the planning tool exports: \`parse_date("2024-W10-2")\` should return \`date(2024, 3, 5)\` (Tuesday of ISO week 10 of 2024), and so should the basic form \`"2024W102"\`; \`parse_date("2020-W53-5") == date(2021, 1, 1)\`.

The weekday is 1 (Monday) to 7 (Sunday) and the week 1 to 52 or 53, as the year has: \`"2024-W54-1"\`, \`"2023-W53-1"\`, \`"2024-W00-1"\` and \`"2024-W10-8"\` raise \`ValueError\`.

The all-or-nothing separator rule from the issue applies to week dates too: \`"2024-W102"\` and \`"2024W10-2"\` are errors, and the calendar forms must keep rejecting \`"2024-0305"\`.`,
          content: ISODATE_STAGE_2,
        },
      ],
      heldOutTests: heldOut("tests/test_isodate.py", ISODATE_TESTS),
      forgetful: ISODATE_FORGETFUL,
    },
    {
      n: 3,
      file: "minidate/format/human.py",
      stages: [
        {
          id: "stage-1",
          request: `\`humanize()\` always uses the plural, which reads badly in the UI: \`humanize(timedelta(minutes=1))\` returns \`"1 minutes"\` and \`humanize(timedelta(days=1, hours=5))\` returns \`"1 days"\`.

A count of exactly 1 should use the singular (\`"1 minute"\`, \`"1 day"\`, \`"1 second"\`); every other count, including 0, keeps the plural (\`"0 seconds"\`, \`"2 hours"\`).`,
          content: HUMAN_STAGE_1,
        },
        {
          id: "stage-2",
          request: `Review: for the job log we need more detail than the largest unit. Please add a \`precision\` argument (default 1, so today's output is unchanged) giving how many units to show, largest first, joined with \`", "\`: \`humanize(timedelta(hours=2, minutes=5, seconds=9), precision=2) == "2 hours, 5 minutes"\`, and with \`precision=3\` \`"2 hours, 5 minutes, 9 seconds"\`.

Units whose count is 0 are skipped rather than shown as \`"0 minutes"\`: \`humanize(timedelta(days=2, seconds=30), precision=2) == "2 days, 30 seconds"\`.

And keep the singular fix from the issue in every part: \`"1 hour, 1 minute, 1 second"\`, not \`"1 hours, 1 minutes, 1 seconds"\`.`,
          content: HUMAN_STAGE_2,
        },
      ],
      heldOutTests: heldOut("tests/test_human.py", HUMAN_TESTS),
      forgetful: HUMAN_FORGETFUL,
    },
    {
      n: 4,
      file: "minidate/format/range.py",
      stages: [
        {
          id: "stage-1",
          request: `\`format_range()\` repeats what both ends share, which makes our calendar headers noisy: \`format_range(date(2024, 3, 5), date(2024, 3, 9))\` gives \`"5 Mar 2024 - 9 Mar 2024"\`.

Please leave out the shared parts: within one month it should be \`"5-9 Mar 2024"\` (no spaces around the dash), within one year \`"28 Feb - 3 Mar 2024"\`, and a one-day range just \`"5 Mar 2024"\`. Ranges across two years stay as they are: \`"30 Dec 2023 - 2 Jan 2024"\`.`,
          content: RANGE_STAGE_1,
        },
        {
          id: "stage-2",
          request: `Review: the week view already shows the year in its title, so it needs ranges without it. Add a \`with_year\` argument (default \`True\`); with \`with_year=False\` the year is left out: \`format_range(date(2024, 2, 28), date(2024, 3, 3), with_year=False) == "28 Feb - 3 Mar"\`. Only a range across two years keeps its years, since it would be ambiguous otherwise: \`"30 Dec 2023 - 2 Jan 2024"\`.

The shortening from the issue must still apply without the year: \`"5-9 Mar"\` for a range within one month and \`"5 Mar"\` for one day, not \`"5 Mar - 9 Mar"\`.`,
          content: RANGE_STAGE_2,
        },
      ],
      heldOutTests: heldOut("tests/test_range.py", RANGE_TESTS),
      forgetful: RANGE_FORGETFUL,
    },
    {
      n: 5,
      file: "minidate/calendar/workdays.py",
      stages: [
        {
          id: "stage-1",
          request: `\`add_workdays()\` ignores negative counts: \`add_workdays(date(2024, 3, 4), -1)\` returns \`date(2024, 3, 4)\` unchanged, but we use it to compute "3 working days before the deadline".

A negative \`n\` should count backwards over working days, skipping weekends the same way: \`add_workdays(date(2024, 3, 4), -1) == date(2024, 3, 1)\` (Monday back to Friday) and \`add_workdays(date(2024, 3, 11), -6) == date(2024, 3, 1)\`.`,
          content: WORKDAYS_STAGE_1,
        },
        {
          id: "stage-2",
          request: `Review, round 1: we also need public holidays. Please add an optional \`holidays\` argument (any iterable of dates, empty by default) to both \`is_workday()\` and \`add_workdays()\`; a holiday is not a working day. With \`xmas = [date(2024, 12, 25), date(2024, 12, 26)]\`: \`is_workday(date(2024, 12, 25), holidays=xmas)\` is \`False\` and \`add_workdays(date(2024, 12, 24), 1, holidays=xmas) == date(2024, 12, 27)\`.

Holidays must also be skipped when counting backwards, like the negative counts from the issue: \`add_workdays(date(2024, 12, 27), -1, holidays=xmas) == date(2024, 12, 24)\`.`,
          content: WORKDAYS_STAGE_2,
        },
        {
          id: "stage-3",
          request: `Review, round 2: the Dubai office works Sunday to Thursday. Please add a \`weekend\` argument to \`is_workday()\` and \`add_workdays()\`: the weekday numbers that are not working days (Monday is 0, as in \`date.weekday()\`), default \`(5, 6)\`. With \`weekend=(4, 5)\`: \`add_workdays(date(2024, 3, 7), 1, weekend=(4, 5)) == date(2024, 3, 10)\` (Thursday to Sunday) and \`is_workday(date(2024, 3, 8), weekend=(4, 5))\` is \`False\`.

Negative counts and holidays must work with any weekend exactly as with the default one: \`add_workdays(date(2024, 3, 10), -1, weekend=(4, 5)) == date(2024, 3, 7)\`, and with \`holidays=[date(2024, 3, 11)]\` one working day after Sunday 10 March is Tuesday 12 March.`,
          content: WORKDAYS_STAGE_3,
        },
      ],
      heldOutTests: heldOut("tests/test_workdays.py", WORKDAYS_TESTS),
      forgetful: WORKDAYS_FORGETFUL,
    },
  ],
};

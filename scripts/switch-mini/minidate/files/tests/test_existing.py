from datetime import date, timedelta

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

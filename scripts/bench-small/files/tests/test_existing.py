from minitext.stats.count import word_counts
from minitext.text.slug import slugify
from minitext.text.wrap import wrap


def test_slugify_lowercases_a_word():
    assert slugify("Hello") == "hello"


def test_slugify_joins_words_with_a_dash():
    assert slugify("hello world") == "hello-world"


def test_slugify_keeps_digits():
    assert slugify("version 2") == "version-2"


def test_wrap_of_empty_text_is_empty():
    assert wrap("", 5) == []


def test_wrap_keeps_a_short_text_on_one_line():
    assert wrap("abc def", 20) == ["abc def"]


def test_word_counts_counts_repeats():
    assert word_counts("a b a") == {"a": 2, "b": 1}


def test_word_counts_of_empty_text_is_empty():
    assert word_counts("") == {}

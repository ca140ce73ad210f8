"""Word counts."""


def word_counts(text):
    """Return a dict mapping each word of `text` to how often it occurs."""
    counts = {}
    for word in text.split():
        counts[word] = counts.get(word, 0) + 1
    return counts

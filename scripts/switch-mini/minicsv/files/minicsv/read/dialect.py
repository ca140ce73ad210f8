"""Guessing the dialect of a CSV sample."""

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

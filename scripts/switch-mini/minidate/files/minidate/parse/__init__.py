"""Parsing of durations and dates."""

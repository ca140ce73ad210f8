"""Rendering of help text."""

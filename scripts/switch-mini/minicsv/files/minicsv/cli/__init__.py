"""The minicsv command-line tool."""

"""Command line: see README.md in this folder."""

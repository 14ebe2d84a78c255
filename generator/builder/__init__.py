"""Build: the flows that cross stages: see README.md in this folder."""

"""Core: what every stage uses: see README.md in this folder."""

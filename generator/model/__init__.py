"""Model: the game in memory: see README.md in this folder."""

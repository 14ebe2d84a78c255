"""The balance lab: what a house rule does to the game, measured in seeded AI games (see README.md)."""

"""Rules: house rules as macros: see README.md in this folder."""

"""Check: what the engines and clients will say: see README.md in this folder."""

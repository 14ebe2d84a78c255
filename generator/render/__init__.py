"""Render: the model to game XML: see README.md in this folder."""

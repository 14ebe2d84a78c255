"""Spec: YAML to model, and mods onto their base: see README.md in this folder."""

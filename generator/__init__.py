"""triplea-gen: compile YAML rule specifications into TripleA game XML."""

__version__ = "0.1.0"

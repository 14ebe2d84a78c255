"""The language server for specs (`triplea-gen lsp`); see README.md in this folder."""

"""Write: files out, all or nothing: see README.md in this folder."""

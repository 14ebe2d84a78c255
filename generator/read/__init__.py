"""Read: untrusted files in, located data out: see README.md in this folder."""

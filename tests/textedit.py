"""Editing fixture and spec text in tests: an edit whose text is gone must fail, not do nothing."""
from __future__ import annotations


def replaced(text, old, new, count: int = -1):
    """text (str or bytes) with old replaced by new (the first count times; all when -1). old must be
    in text: when a fixture changes, a silent no-op would leave a test checking the unedited file."""
    assert old in text, f"the text to edit does not contain {old!r}"
    return text.replace(old, new, count)

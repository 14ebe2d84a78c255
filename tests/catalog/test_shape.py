"""The catalog's YAML is checked for shape before it is loaded (generator/catalog/shape.py): a key
the loader would pass over is an error with its file, line and column, not a fact silently lost."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.catalog import load_catalog
from generator.catalog.client import load_client_catalog
from generator.catalog.shape import FILES, CatalogShapeError

CATALOG = Path(__file__).resolve().parents[2] / "generator" / "catalog"


def _catalog_with(tmp_path: Path, old: str, new: str) -> Path:
    for name in FILES:
        shutil.copy(CATALOG / name, tmp_path / name)
    text = (tmp_path / "attachments.yaml").read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    (tmp_path / "attachments.yaml").write_text(text.replace(old, new), encoding="utf-8")
    return tmp_path


def _line_of(folder: Path, text: str) -> int:
    lines = (folder / "attachments.yaml").read_text(encoding="utf-8").splitlines()
    return next(number for number, line in enumerate(lines, 1) if text in line)


def test_the_shipped_catalog_has_its_shape():
    assert len(load_catalog().classes) == 13
    assert load_client_catalog()


def test_a_misspelt_option_key_is_an_error_at_its_line(tmp_path):
    folder = _catalog_with(tmp_path, "hitPoints:                {value: int, range: [1, null]}",
                           "hitPoints:                {value: int, rnage: [0, 3]}")
    with pytest.raises(CatalogShapeError) as raised:
        load_catalog(folder)
    line = _line_of(folder, "rnage: [0, 3]")
    message = str(raised.value)
    assert message.startswith(f"{folder / 'attachments.yaml'}:{line}:46: error: ")
    assert "classes.UnitAttachment.options.hitPoints.rnage unknown key 'rnage'" in message
    assert "hint: did you mean 'range'?" in message


def test_a_key_without_its_s_is_an_error(tmp_path):
    folder = _catalog_with(tmp_path, "hitPoints:                {value: int,", "hitPoints:                {value: int, repeat: true,")
    with pytest.raises(CatalogShapeError, match=r"unknown key 'repeat'.*\n  hint: did you mean 'repeats'\?"):
        load_catalog(folder)


def test_a_value_of_the_wrong_kind_is_an_error(tmp_path):
    folder = _catalog_with(tmp_path, "hitPoints:                {value: int,", "hitPoints:                {value: int, repeats: often,")
    with pytest.raises(CatalogShapeError, match=r"hitPoints\.repeats is the text 'often', expected true or false"):
        load_catalog(folder)


def test_a_missing_key_is_named(tmp_path):
    folder = _catalog_with(tmp_path, "legacy_name_fix: {from: ttatchment, to: ttachment}",
                           "legacy_name_fix: {from: ttatchment}")
    with pytest.raises(CatalogShapeError, match=r"legacy_name_fix has no key 'to'"):
        load_catalog(folder)

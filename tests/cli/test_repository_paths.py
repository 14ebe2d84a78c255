"""Every repository path that code, hints, comments and READMEs mention exists: a file moved or
renamed leaves no pointer behind (a hint that sends a user to a missing file is a bug they see).

A mention is a token like `generator/check/validate.py`, `tests/core/test_codes.py`, `game/game.xml.j2`
or, inside a package README, `schema/__init__.py`: a path whose first folder is one of this repository's.
It is looked up from the repository root, generator/, templates/ and every folder above the file that
mentions it (globs such as `rules_yaml/s00*.yaml` must match a file)."""
from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "generator"
TEMPLATES = REPO / "templates"
_MENTION = re.compile(r"(?<![\w./:-])((?:[\w-]+/)+[\w.*-]*\.(?:py|md|yaml|yml|json|xsd|java|j2|txt|toml))\b")
# Mentions that are no file of this repository, and why.
NOT_REPOSITORY_PATHS = {
    "output/frontier_1939/map.yml",  # what a build writes (README's walkthrough)
    "map/polygons.txt", "map/centers.txt", "map/place.txt",  # files of a map folder a build writes
    "generator/module.py",  # a made-up file the raw-write scan is tried on (tests/redteam/test_raw_writes.py)
}


def _folders() -> set[str]:
    """The names a mention may start with: the folders of generator/ and templates/, and the top ones."""
    top = {p.name for p in REPO.iterdir() if p.is_dir() and not p.name.startswith(".") or p.name == ".ci"}
    # Below the Java harness's source roots the folders are package names (games/, tripleagen/):
    # a mention such as games/map.yml is a map folder's, not theirs.
    packages = PACKAGE / "engine" / "java"
    inner = {p.name for base in (PACKAGE, TEMPLATES) for p in base.rglob("*")
             if p.is_dir() and p.name != "__pycache__" and p.parent.parent != packages
             and not p.parent.parent.is_relative_to(packages)}
    return (top | inner) - {".venv", ".git", "__pycache__", "triplea_gen.egg-info"}


def _sources() -> list[Path]:
    return [REPO / "README.md", *sorted(PACKAGE.rglob("*.md")), *sorted(PACKAGE.rglob("*.py")),
            *sorted((REPO / "tests").rglob("*.py")), *sorted(TEMPLATES.rglob("*.j2")),
            *sorted((REPO / ".ci").glob("*"))]


def mentions(text: str, folders: set[str]) -> list[tuple[int, str]]:
    """(line, path) of every repository path the text mentions."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        for match in _MENTION.finditer(line):
            if match.group(1).split("/")[0] in folders:
                found.append((number, match.group(1)))
    return found


def _exists(path: str, mentioned_in: Path) -> bool:
    bases = [REPO, PACKAGE, TEMPLATES, *(folder for folder in mentioned_in.parents if REPO in folder.parents)]
    return any(next(base.glob(path), None) is not None for base in bases)


def test_every_path_mentioned_exists():
    folders = _folders()
    stale = [f"{source.relative_to(REPO)}:{line}: {path}"
             for source in _sources() if source.is_file() and source != Path(__file__).resolve()
             for line, path in mentions(source.read_text(encoding="utf-8"), folders)
             if path not in NOT_REPOSITORY_PATHS and not _exists(path, source)]
    assert not stale, "paths that do not exist:\n" + "\n".join(stale)


def test_the_scan_finds_mentions_in_its_three_forms():
    folders = _folders()
    text = ("see generator/check/catalog/attachments.yaml\n"
            "`schema/__init__.py` holds it\n"
            "ignored: org/triplea/Game.java and https://example.org/a/b.py\n")
    assert mentions(text, folders) == [(1, "generator/check/catalog/attachments.yaml"), (2, "schema/__init__.py")]
    assert _exists("schema/__init__.py", PACKAGE / "check" / "README.md")
    assert _exists("generator/catalog/attachments.yaml", PACKAGE / "check" / "attachments.py")
    assert not _exists("generator/check/catalog/attachments.yaml", PACKAGE / "check" / "attachments.py")

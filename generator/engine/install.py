"""`triplea-gen engine install`: install Debian's TripleA 1.9 package (the engine
our games are checked against) with apt, where this machine allows it, and Eclipse's
compiler (ecj), which builds the harness against TripleA 2.x's Java 25 class files
where no Java 25 javac is at hand. TripleA 2.x itself is the user's own install
(see engines.py); its Java 25 comes with it, or from `pip install 'triplea-gen[engine]'`."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

DEFAULT_JAR = "/usr/share/games/triplea/bin/triplea.jar"
# javac builds the 1.9 harness, ecj the 2.x one; xvfb runs the client test
PACKAGES = ("triplea", "default-jdk-headless", "xvfb", "ecj")
# what `balance`'s report is checked in by the tests: a real browser and its WebDriver
BROWSER_PACKAGES = ("chromium", "chromium-driver")


def engine_jar() -> Path:
    return Path(os.environ.get("TRIPLEA_JAR", DEFAULT_JAR))


def engine_problem() -> str | None:
    """Why the engine cannot be used here, or None when it can."""
    jar = engine_jar()
    if not jar.is_file():
        return f"the TripleA 1.9 engine is not installed ({jar} not found)"
    missing = [tool for tool in ("java", "javac") if shutil.which(tool) is None]
    if missing:
        return f"{' and '.join(missing)} not found on PATH (the engine needs a Java 17 JDK)"
    return None


def _privilege_prefix() -> list[str] | None:
    if os.geteuid() == 0:
        return []
    if shutil.which("sudo") and subprocess.run(["sudo", "-n", "true"], capture_output=True).returncode == 0:
        return ["sudo", "-n"]
    return None


def install_engine(optional: bool = False, browser: bool = False) -> int:
    """0 when the engine is there afterwards; with optional, 0 also when it cannot be installed here.
    With browser, Chromium and ChromeDriver too."""
    failure = 0 if optional else 1
    packages = PACKAGES + (BROWSER_PACKAGES if browser else ())
    browser_there = not browser or (shutil.which("chromium") and shutil.which("chromedriver"))
    # The desktop-client tests need the virtual screen as much as the engine needs its jar.
    if engine_problem() is None and shutil.which("xvfb-run") and shutil.which("ecj") and browser_there:
        print(f"TripleA engine present: {engine_jar()}")
        return 0
    if not shutil.which("apt-get"):
        print("cannot install the TripleA engine here: no apt-get (Debian's 'triplea' package is what "
              "triplea-gen drives); engine checks and tests will be skipped", file=sys.stderr)
        return failure
    prefix = _privilege_prefix()
    if prefix is None:
        print("cannot install the TripleA engine: needs root; run 'sudo apt-get install triplea' "
              "(engine checks and tests are skipped until then)", file=sys.stderr)
        return failure
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    for command in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", *packages]):
        print("+", " ".join(prefix + command))
        if subprocess.run(prefix + command, env=env, stdout=subprocess.DEVNULL).returncode != 0:
            print(f"'{' '.join(command)}' failed; engine checks and tests will be skipped", file=sys.stderr)
            return failure
    problem = engine_problem()
    if problem:
        print(f"the engine is still unusable after the install: {problem}", file=sys.stderr)
        return failure
    print(f"TripleA engine installed: {engine_jar()}")
    return 0

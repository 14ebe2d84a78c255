"""A page opened in Debian's headless Chromium through chromedriver's W3C WebDriver protocol (plain
HTTP, no client library): what the browser logged, which images loaded, a screenshot."""
from __future__ import annotations

import base64
import json
import shutil
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--window-size=1200,1600"]


def browser_missing() -> str | None:
    missing = [name for name in ("chromium", "chromedriver") if shutil.which(name) is None]
    return f"{' and '.join(missing)} not installed (apt-get install chromium chromium-driver; CI installs them)" \
        if missing else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Browser:
    """One chromedriver and one Chromium session with a new empty profile folder; a context manager."""

    def __init__(self, profile: Path):
        self.port = _free_port()
        self.driver = subprocess.Popen([shutil.which("chromedriver"), f"--port={self.port}"],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.base = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                if self._call("GET", "/status")["ready"]:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("chromedriver did not start")
            time.sleep(0.2)
        profile.mkdir(parents=True, exist_ok=True)
        options = {"binary": shutil.which("chromium"), "args": [*CHROMIUM_FLAGS, f"--user-data-dir={profile}"]}
        session = self._call("POST", "/session", {"capabilities": {"alwaysMatch": {
            "browserName": "chrome", "goog:chromeOptions": options, "goog:loggingPrefs": {"browser": "ALL"}}}})
        self.session = f"/session/{session['sessionId']}"

    def _call(self, method: str, path: str, body: dict | None = None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=120) as answer:
            return json.loads(answer.read())["value"]

    def open(self, url: str) -> None:
        self._call("POST", f"{self.session}/url", {"url": url})

    def run(self, script: str):
        return self._call("POST", f"{self.session}/execute/sync", {"script": script, "args": []})

    def console(self) -> list[dict]:
        return self._call("POST", f"{self.session}/se/log", {"type": "browser"})

    def screenshot(self, path: Path) -> Path:
        path.write_bytes(base64.b64decode(self._call("GET", f"{self.session}/screenshot")))
        return path

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *_) -> None:
        try:
            self._call("DELETE", self.session)
        finally:
            self.driver.terminate()
            self.driver.wait(10)

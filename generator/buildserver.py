"""The build server: one warm process that runs `build` and `validate` for the commands
started while it is up, so that a rebuild after a one-line change skips Python's start-up,
the imports, template loading and the import of the base game.

    triplea-gen server start     # in the background; stops by itself after 30 idle minutes
    triplea-gen server status
    triplea-gen server stop

`build` and `validate` hand their job to a running server of the same installation and
print what it printed, with its exit status; without one they run in their own process,
with the same result. The server listens on a Unix socket in a folder only its user can
enter, serves only processes of that user, runs each job with the caller's working folder,
environment and umask, and declines jobs (which then run in their own process) from another
installation or Python, or once its own code has changed on disk.

This module is imported by every `build` and `validate`: it imports what it needs to talk to a
server only once a server's socket is there."""
from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

from .cli import SERVED_COMMANDS

if TYPE_CHECKING:
    import socket

PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
SOCKET_NAME = "build.sock"
MAX_MESSAGE = 16 * 1024 * 1024
DEFAULT_IDLE_MINUTES = 30.0
_LENGTH_BYTES = 4


def server_folder() -> str | None:
    """Where the socket lives: a per-user folder in the runtime (or temporary) folder; None
    where Unix sockets are not available."""
    if not hasattr(os, "getuid"):
        return None  # no Unix sockets to speak of
    base = os.environ.get("XDG_RUNTIME_DIR") or os.environ.get("TMPDIR") or "/tmp"
    return os.path.join(base, f"triplea-gen-{os.getuid()}")


def _send(conn: socket.socket, message: dict) -> None:
    import json

    body = json.dumps(message).encode("utf-8")
    conn.sendall(len(body).to_bytes(_LENGTH_BYTES, "big") + body)


def _receive(conn: socket.socket) -> dict:
    import json

    def exactly(count: int) -> bytes:
        data = bytearray()
        while len(data) < count:
            chunk = conn.recv(min(count - len(data), 1 << 20))
            if not chunk:
                raise ConnectionError("the other side closed the connection")
            data += chunk
        return bytes(data)

    length = int.from_bytes(exactly(_LENGTH_BYTES), "big")
    if length > MAX_MESSAGE:
        raise ValueError(f"message of {length} bytes is over the limit")
    message = json.loads(exactly(length))
    if not isinstance(message, dict):
        raise ValueError("a message is a JSON object")
    return message


def _ask(message: dict, folder: str | None = None, timeout: float | None = None) -> dict | None:
    """The server's reply, or None when no usable server answers."""
    folder = folder or server_folder()
    if folder is None:
        return None
    path = os.path.join(folder, SOCKET_NAME)
    if not os.path.exists(path):
        return None
    import socket

    from .datacache import is_private_folder

    # Ours and closed to everybody else: otherwise somebody else's socket could receive our
    # command lines and environment.
    if not is_private_folder(folder):
        return None

    if not hasattr(socket, "AF_UNIX"):
        return None
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            conn.settimeout(timeout)
            conn.connect(path)
            _send(conn, message)
            return _receive(conn)
    except (OSError, ValueError):
        return None


def _current_umask() -> int:
    mask = os.umask(0o077)
    os.umask(mask)
    return mask


def run_on_server(argv: list[str]) -> int | None:
    """Run a command on the build server: its exit status, or None to run it here."""
    if os.environ.get("TRIPLEA_GEN_NO_SERVER"):
        return None
    reply = _ask({"request": "run", "package": PACKAGE_DIR, "python": sys.version, "argv": argv,
                  "cwd": os.getcwd(), "env": dict(os.environ), "umask": _current_umask()})
    if reply is None or "status" not in reply:
        return None
    for stream, text in reply.get("output", []):
        (sys.stdout if stream == 1 else sys.stderr).write(text)
    return int(reply["status"])


# ---- the server side ----

def code_stamp() -> tuple:
    """Modification stamps of the code and templates the server has loaded."""
    stamps = []
    for root in (PACKAGE_DIR, os.path.join(os.path.dirname(PACKAGE_DIR), "templates")):
        for folder, subfolders, files in os.walk(root):
            subfolders[:] = sorted(d for d in subfolders if d != "__pycache__")
            for name in sorted(files):
                if name.endswith((".py", ".j2", ".yaml", ".xsd")):
                    info = os.stat(os.path.join(folder, name))
                    stamps.append((folder, name, info.st_mtime_ns, info.st_size))
    return tuple(stamps)


class _Capture:
    """A text stream that records what a job prints, in order, for the client to replay."""

    def __init__(self, number: int, chunks: list):
        self.number, self.chunks = number, chunks

    def write(self, text: str) -> int:
        if text:
            self.chunks.append((self.number, text))
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False


class BuildServer:
    def __init__(self, folder: str, idle_seconds: float):
        self.folder = folder
        self.socket_path = os.path.join(folder, SOCKET_NAME)
        self.idle_seconds = idle_seconds
        self.code = code_stamp()
        self.served = 0
        self.running = True

    def handle(self, request: dict) -> dict:
        kind = request.get("request")
        if kind == "status":
            import resource

            return {"pid": os.getpid(), "served": self.served, "package": PACKAGE_DIR, "python": sys.version,
                    "idle_minutes": self.idle_seconds / 60, "socket": self.socket_path,
                    "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}
        if kind == "stop":
            self.running = False
            return {"stopped": os.getpid()}
        if kind != "run":
            return {"declined": f"unknown request {kind!r}"}
        if request.get("package") != PACKAGE_DIR or request.get("python") != sys.version:
            return {"declined": "another installation of triplea-gen"}
        if code_stamp() != self.code:
            self.running = False  # a server with old code must not build; the next `server start` loads the new
            return {"declined": "triplea-gen's code changed since the server started"}
        argv = request.get("argv")
        if not isinstance(argv, list) or not argv or argv[0] not in SERVED_COMMANDS:
            return {"declined": "not a command the server runs"}
        return self._run(argv, request)

    def _run(self, argv: list[str], request: dict) -> dict:
        from .cli import run_command

        chunks: list = []
        saved = os.getcwd(), dict(os.environ), sys.stdout, sys.stderr
        mask = os.umask(int(request.get("umask", 0o022)))
        try:
            os.chdir(request["cwd"])
            os.environ.clear()
            os.environ.update({str(k): str(v) for k, v in dict(request.get("env", {})).items()})
            sys.stdout, sys.stderr = _Capture(1, chunks), _Capture(2, chunks)
            try:
                status = run_command([str(a) for a in argv])
            except SystemExit as ended:  # argparse on a bad command line
                status = ended.code if isinstance(ended.code, int) else (0 if ended.code is None else 2)
        finally:
            sys.stdout, sys.stderr = saved[2], saved[3]
            os.environ.clear()
            os.environ.update(saved[1])
            os.chdir(saved[0])
            os.umask(mask)
        self.served += 1
        return {"status": status, "output": chunks}

    def serve(self) -> None:
        import socket

        from .basecache import keep_in_memory

        keep_in_memory()
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listener:
            listener.bind(self.socket_path)
            os.chmod(self.socket_path, 0o600)
            listener.listen(8)
            listener.settimeout(self.idle_seconds or None)
            try:
                while self.running:
                    try:
                        conn, _ = listener.accept()
                    except socket.timeout:
                        break  # idle for too long
                    with conn:
                        self._answer(conn)
            finally:
                os.unlink(self.socket_path)

    def _answer(self, conn: socket.socket) -> None:
        conn.settimeout(30)
        try:
            if not _same_user(conn):
                return
            request = _receive(conn)
            _send(conn, self.handle(request))
        except (OSError, ValueError):
            pass  # the client went away or sent garbage; it runs the job itself


def _same_user(conn: socket.socket) -> bool:
    import socket
    import struct

    option = getattr(socket, "SO_PEERCRED", None)
    if option is None:
        return True  # the private folder is then the only guard
    _pid, uid, _gid = struct.unpack("3i", conn.getsockopt(socket.SOL_SOCKET, option, struct.calcsize("3i")))
    return uid == os.getuid()


# ---- the `server` command ----

def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "server", help="keep a warm build process for fast rebuilds (start, status, stop)",
        description="A background process that runs `build` and `validate` for you: a rebuild after a small "
                    "change then takes a fraction of the time of a new process. Commands use it when it runs "
                    "and build in their own process otherwise (TRIPLEA_GEN_NO_SERVER=1 always does).")
    parser.add_argument("action", choices=("start", "status", "stop", "run"),
                        help="start in the background, show status, stop; run: serve in the foreground")
    parser.add_argument("--idle", type=float, default=DEFAULT_IDLE_MINUTES, metavar="MINUTES",
                        help=f"stop after this many minutes without a job (default {DEFAULT_IDLE_MINUTES:g}; "
                             "0: never)")
    parser.set_defaults(run=run_server_command)


def run_server_command(args) -> int:
    folder = server_folder()
    if folder is None:
        print("triplea-gen: the build server needs Unix sockets, which this system lacks", file=sys.stderr)
        return 2
    if args.action == "status":
        reply = _ask({"request": "status"}, folder, timeout=5)
        if reply is None:
            print("no build server is running")
            return 1
        print(f"build server running: pid {reply['pid']}, {reply['served']} job(s) served, peak memory "
              f"{reply['peak_mib']:.0f} MiB, stops after {reply['idle_minutes']:g} idle minutes; "
              f"code {reply['package']}; socket {reply['socket']}")
        return 0
    if args.action == "stop":
        reply = _ask({"request": "stop"}, folder, timeout=5)
        print("build server stopped" if reply else "no build server is running")
        return 0
    problem = _prepare_folder(folder)
    if problem:
        print(f"triplea-gen: {problem}", file=sys.stderr)
        return 2
    if _ask({"request": "status"}, folder, timeout=5) is not None:
        print("a build server is already running ('triplea-gen server status' shows it)")
        return 0 if args.action == "start" else 1
    stale = os.path.join(folder, SOCKET_NAME)
    if os.path.exists(stale):
        os.unlink(stale)  # left by a server that was killed
    if args.action == "run":
        BuildServer(folder, args.idle * 60).serve()
        return 0
    return _start_in_background(folder, args.idle)


def _prepare_folder(folder: str) -> str:
    from .datacache import is_private_folder

    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    except OSError as err:
        return f"cannot create {folder}: {err.strerror}"
    if not is_private_folder(folder):
        return (f"{folder} is not a folder that only you can enter; remove it or make it private "
                "(chmod 700) to use the build server")
    return ""


def _start_in_background(folder: str, idle_minutes: float) -> int:
    import subprocess
    import time

    log_path = os.path.join(folder, "server.log")
    with open(log_path, "wb") as log:
        process = subprocess.Popen([sys.executable, "-m", "generator", "server", "run", "--idle", str(idle_minutes)],
                                   stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, cwd=folder,
                                   start_new_session=True)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        reply = _ask({"request": "status"}, folder, timeout=5)
        if reply is not None:
            print(f"build server started: pid {reply['pid']}; stops after {idle_minutes:g} idle minutes "
                  "('triplea-gen server stop' stops it now)")
            return 0
        if process.poll() is not None:
            break
        time.sleep(0.05)
    print(f"triplea-gen: the build server did not start; see {log_path}", file=sys.stderr)
    return 3

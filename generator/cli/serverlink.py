"""Talking to a running build server: where its socket is, the message format, and the client
side that hands a `build` or `validate` to it (generator/cli/buildserver.py is the server).

Every `build` and `validate` imports this module, so it stays small: it imports what it needs
to talk to a server only once a server's socket is there."""
from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import socket

# Commands a running build server does for us.
SERVED_COMMANDS = frozenset({"build", "validate"})
PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # generator/
SOCKET_NAME = "build.sock"
MAX_MESSAGE = 16 * 1024 * 1024
MAX_JOB_SECONDS = 300.0  # a job still running then is killed and answered with TG069
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


def _ask(message: dict, folder: str | None = None, timeout: float | None = 5.0,
         job_timeout: float | None = None) -> dict | None:
    """The server's reply, or None when no usable server answers in time. A job is first acknowledged
    ({"accepted": pid}, within timeout: a server that cannot take it is not waited for), then
    answered within job_timeout."""
    folder = folder or server_folder()
    if folder is None:
        return None
    path = os.path.join(folder, SOCKET_NAME)
    if not os.path.exists(path):
        return None
    import socket

    from generator.core.datacache import is_private_folder

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
            reply = _receive(conn)
            if "accepted" in reply:
                conn.settimeout(job_timeout)
                reply = _receive(conn)
            return reply
    except (OSError, ValueError, RecursionError):
        return None


def _current_umask() -> int:
    mask = os.umask(0o077)
    os.umask(mask)
    return mask


def run_on_server(argv: list[str]) -> int | None:
    """Run a command on the build server: its exit status, or None to run it here (no server, one
    that does not answer, declines, or does not finish in time)."""
    if os.environ.get("TRIPLEA_GEN_NO_SERVER"):
        return None
    reply = _ask({"request": "run", "package": PACKAGE_DIR, "python": sys.version, "argv": argv,
                  "cwd": os.getcwd(), "env": dict(os.environ), "umask": _current_umask()},
                 job_timeout=MAX_JOB_SECONDS + 30)
    if reply is None or type(reply.get("status")) is not int or not isinstance(reply.get("output"), list):
        return None
    for stream, text in reply["output"]:
        (sys.stdout if stream == 1 else sys.stderr).write(text)
    return reply["status"]

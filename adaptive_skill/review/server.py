"""Serve one run's review app on 127.0.0.1 only: check the run directory, take the run's review
lock, bind the port, then hand the socket to uvicorn. The lock comes first, so a second server on
the same run says where the first one is instead of failing on the port."""

from __future__ import annotations

import errno
import socket
from collections.abc import Callable
from pathlib import Path

from adaptive_skill.errors import UserError
from adaptive_skill.review.lock import ReviewLock
from adaptive_skill.review.sessions import valid_rater

HOST = "127.0.0.1"  # never another interface: ratings and trajectories stay on this machine


def serve(run_root: Path, *, port: int, rater: str | None = None, allow_running: bool = False,
          say: Callable[[str], None] = print) -> None:
    from adaptive_skill.report.load import load_run

    load_run(run_root)  # an unknown or empty directory is one line, before anything is written
    if not 0 <= port <= 65535:
        raise UserError(f"--port {port}: expected 0-65535 (0 picks a free port)")
    if rater is not None and valid_rater(rater) != rater:
        raise UserError(f"--rater {rater!r}: 1-40 letters, digits, single spaces or . @ _ -")
    try:
        import uvicorn

        from adaptive_skill.review.app import create_app
    except ImportError as exc:
        raise UserError(f"the review server needs the [review] extra ({exc.name} is missing): "
                        "pip install -e '.[review]'") from None
    lock = ReviewLock(run_root).acquire()
    try:
        sock = _bind(port)
        url = f"http://{HOST}:{sock.getsockname()[1]}/"
        lock.record(url)
        app = create_app(run_root, port=sock.getsockname()[1], default_rater=rater, allow_running=allow_running)
        if lock.stale and lock.stale.get("pid"):
            say(f"took over the review lock of pid {lock.stale['pid']}, which is no longer running")
        say(f"reviewing {run_root} at {url} (Ctrl+C to stop)")
        config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        lock.release()


def _bind(port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # a server just stopped leaves TIME_WAIT behind
    try:
        sock.bind((HOST, port))
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise UserError(f"{HOST}:{port} is in use by another program: choose another --port") from None
        raise UserError(f"cannot listen on {HOST}:{port}: {exc.strerror}") from None
    # Listen before the address is printed: a browser (or a test) that connects at once then waits in the
    # backlog until uvicorn accepts, instead of being refused while uvicorn is still starting.
    sock.listen(128)
    return sock

"""One review server per run. The lock is an flock on RUN/review.lock, which the kernel drops when
its holder dies however it dies, so a lock left by a crashed server is never mistaken for a live
one; the file holds the holder's pid and address, so a second server can say where the first is."""

from __future__ import annotations

import fcntl
import json
import os
import time
from pathlib import Path

from adaptive_skill.errors import UserError

LOCK_NAME = "review.lock"


class ReviewLock:
    def __init__(self, run_root: Path):
        self.path = Path(run_root) / LOCK_NAME
        self._fd: int | None = None
        self.stale: dict | None = None  # what a dead server left in the file, if anything

    def acquire(self) -> ReviewLock:
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise UserError(f"{self.path}: cannot create the review lock ({exc.strerror})") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read(fd)
            os.close(fd)
            where = f" at {holder['url']}" if holder.get("url") else ""
            raise UserError(f"{self.path.parent}: another review server (pid {holder.get('pid', '?')}) is serving "
                            f"this run{where}; open that address, or stop it first") from None
        self.stale = _read(fd) or None
        self._fd = fd
        return self

    def record(self, url: str) -> None:
        """Write who holds the lock, once the address is known."""
        assert self._fd is not None
        data = json.dumps({"pid": os.getpid(), "url": url, "started_at": time.time()}).encode()
        os.ftruncate(self._fd, 0)
        os.pwrite(self._fd, data, 0)
        os.fsync(self._fd)

    def release(self) -> None:
        if self._fd is None:
            return
        os.ftruncate(self._fd, 0)  # the file stays (unlinking it would race a new server); empty means free
        fcntl.flock(self._fd, fcntl.LOCK_UN)
        os.close(self._fd)
        self._fd = None


def _read(fd: int) -> dict:
    try:
        data = json.loads(os.pread(fd, 4096, 0).decode() or "{}")
    except (ValueError, OSError):
        return {}
    return data if isinstance(data, dict) else {}

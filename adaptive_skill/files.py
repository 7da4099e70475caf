"""Writing files so that a crash never leaves a torn one, and reading the run's line logs strictly.

Whole files and folders: write to a temporary name beside the target, then rename, so a reader
(or a later cycle) sees the old version or the new one, never half of one. Line logs (events.jsonl,
costs.jsonl): one JSON object per line, appended, flushed and fsync'd; a reader skips a torn last
line (a crash mid-append) and stops with one line naming file and line at any other bad line.
"""

from __future__ import annotations

import json
import os
import shutil
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from adaptive_skill.errors import UserError


def _tmp_name(path: Path, kind: str = "tmp") -> Path:
    return path.with_name(f".{path.name}.{kind}-{os.getpid()}-{threading.get_ident()}")


def write_bytes_atomic(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = _tmp_name(path)
    tmp.write_bytes(data)
    os.replace(tmp, path)


def write_text_atomic(path: Path, text: str) -> None:
    write_bytes_atomic(path, text.encode("utf-8"))


def write_json_atomic(path: Path, data: Any) -> None:
    write_text_atomic(path, json.dumps(data, indent=2, sort_keys=True, default=str))


def read_json(path: Path, default: Any = None) -> Any:
    """The parsed file, or `default` when it is missing or torn."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (FileNotFoundError, json.JSONDecodeError):
        return default


@contextmanager
def building_dir(dest: Path) -> Iterator[Path]:
    """A fresh path beside `dest` (not yet created) to build a folder in; when the block ends
    without error it becomes `dest` by rename (replacing an old `dest`). Killed mid-way, only a hidden
    temporary folder is left, which the next build of `dest` removes: `dest` is whole or absent."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    for stale in dest.parent.glob(f".{dest.name}.tmp-*"):  # left by a build that was killed
        shutil.rmtree(stale, ignore_errors=True)
    tmp = _tmp_name(dest)
    try:
        yield tmp
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    if dest.exists():
        old = _tmp_name(dest, "old")
        os.replace(dest, old)
        os.replace(tmp, dest)
        shutil.rmtree(old, ignore_errors=True)
    else:
        os.replace(tmp, dest)


# -- line logs ---------------------------------------------------------------------------------

def append_jsonl(path: Path, record: dict[str, Any]) -> None:
    """Append one JSON line and make it durable before returning (callers hold their own lock)."""
    line = json.dumps(record, sort_keys=True, default=str) + "\n"
    with path.open("a", encoding="utf-8") as handle:
        handle.write(line)
        handle.flush()
        os.fsync(handle.fileno())


def read_jsonl(path: Path, check: Callable[[dict[str, Any]], str | None] | None = None) -> list[dict[str, Any]]:
    """Every record of a line log. Blank lines are ignored; an unreadable last line is a crash
    mid-append and is skipped; any other line that is not a JSON object, or that `check` finds a
    problem with, raises UserError `<file>:<line>: ...`. A missing file is an empty log."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return []
    lines = data.split(b"\n")
    last = max((i for i, line in enumerate(lines) if line.strip()), default=-1)
    records = []
    for index, raw in enumerate(lines):
        if not raw.strip():
            continue
        record, problem = _parse(raw)
        if problem is None:
            problem = check(record) if check is not None else None
            if problem is None:
                records.append(record)
                continue
            raise UserError(f"{path}:{index + 1}: bad record: {problem}")
        if index != last:
            raise UserError(f"{path}:{index + 1}: corrupt line ({problem}); only the last line may be torn")
    return records


def repair_jsonl_tail(path: Path) -> None:
    """Before appending to a log a crash may have torn: cut an unreadable last line off (a reader
    skips it anyway) and end the file with a newline, so the next record starts a line of its own."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return
    body = data.rstrip(b"\n")
    if not body:
        return
    start = body.rfind(b"\n") + 1
    _, problem = _parse(body[start:])
    keep = start if problem is not None else len(body) + 1
    if keep == len(data) and data.endswith(b"\n"):
        return
    with path.open("r+b") as handle:
        if keep <= len(data):
            handle.truncate(keep)
        if keep > len(data):  # a whole last record without its newline
            handle.seek(0, os.SEEK_END)
            handle.write(b"\n")
        handle.flush()
        os.fsync(handle.fileno())


def _parse(raw: bytes) -> tuple[dict[str, Any] | None, str | None]:
    try:
        record = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        return None, f"not JSON: {str(exc).splitlines()[0][:80]}"
    if not isinstance(record, dict):
        return None, f"a JSON {type(record).__name__}, not an object"
    return record, None


def tree_hash(root: Path) -> str:
    """One hash of a directory's files: each one's path relative to `root`, whether it is executable,
    and its bytes (a link: its target, never followed); caches (__pycache__) left out. What `tasks
    validate` records per task, so a record names the version of the task it checked."""
    import hashlib
    import os

    digest = hashlib.sha256()
    for path in sorted(p for p in Path(root).rglob("*") if "__pycache__" not in p.parts):
        relative = path.relative_to(root).as_posix()
        if path.is_symlink():
            digest.update(f"{relative}\0link\0{os.readlink(path)}\n".encode())
        elif path.is_file():
            digest.update(f"{relative}\0{os.access(path, os.X_OK):d}\0".encode())
            digest.update(hashlib.sha256(path.read_bytes()).digest() + b"\n")
    return digest.hexdigest()

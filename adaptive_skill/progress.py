"""Progress for batches: a rich live bar on a terminal, one plain line per event otherwise.
Always on stderr, so `--json` output on stdout stays clean."""

from __future__ import annotations

import sys
import threading
import time
from typing import TextIO


class BatchProgress:
    def __init__(self, title: str, total: int, stream: TextIO | None = None, quiet: bool = False):
        self.title, self.total = title, total
        self.stream = stream or sys.stderr
        self.quiet = quiet
        self.done = 0
        self.failed = 0
        self._lock = threading.Lock()
        self._live = None
        self._started = time.monotonic()

    def __enter__(self) -> BatchProgress:
        if not self.quiet and self.stream.isatty():
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            self._live = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                                  TextColumn("{task.fields[status]}"), TimeElapsedColumn(),
                                  TextColumn("eta"), TimeRemainingColumn(),
                                  console=Console(file=self.stream), transient=False)
            self._live.start()
            self._bar = self._live.add_task(self.title, total=self.total, status="")
        elif not self.quiet:
            print(f"{self.title}: {self.total} to do", file=self.stream, flush=True)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._live is not None:
            self._live.stop()
        elif not self.quiet:
            elapsed = time.monotonic() - self._started
            print(f"{self.title}: {self.done}/{self.total} done, {self.failed} failed, {elapsed:.0f}s",
                  file=self.stream, flush=True)

    def started(self, label: str) -> None:
        if self._live is not None:
            self._live.update(self._bar, status=f"running {label}")

    def finished(self, label: str, ok: bool, note: str = "") -> None:
        with self._lock:
            self.done += 1
            self.failed += 0 if ok else 1
            if self._live is not None:
                mark = "[green]ok[/]" if ok else "[red]failed[/]"
                self._live.console.print(f"  {mark} {label} {note}".rstrip())
                self._live.update(self._bar, advance=1, status=f"{self.failed} failed")
            elif not self.quiet:
                print(f"[{self.done}/{self.total}] {'ok' if ok else 'FAILED'} {label} {note}".rstrip(),
                      file=self.stream, flush=True)

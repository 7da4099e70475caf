"""Progress of a run: per phase a bar with counts and ETA, a line per finished task (passed,
failed, passed/failed by the judge, spiral intervention, error) and the cycle's cost so far (once
there is one: a free model's lines say nothing of cost).

Three modes: "rich" (live bars; only when stdout and stderr are both terminals), "plain" (one
line per event, for logs and pipes), "quiet" (no progress; the engine's own lines still appear).
Always on stderr, so `--json` output on stdout stays clean."""

from __future__ import annotations

import json
import sys
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TextIO

MODES = ("auto", "rich", "plain", "quiet")
COLORS = {"passed": "green", "passed by judge": "green", "ok": "green", "done": "blue"}  # other statuses: red


def is_terminal(stream: TextIO) -> bool:
    import os

    if os.environ.get("TERM") == "dumb":
        return False
    return all(getattr(s, "isatty", lambda: False)() for s in (stream, sys.stdout))


class Display:
    """One per run: the engine logs through it, opens a `phase` per batch of work, and hands it
    every model call (`on_call`, the accounting's listener) so the cost stays current."""

    def __init__(self, mode: str = "auto", stream: TextIO | None = None):
        if mode not in MODES:
            raise ValueError(f"display mode {mode!r}: one of {', '.join(MODES)}")
        self.stream = stream or sys.stderr
        self.mode = ("rich" if is_terminal(self.stream) else "plain") if mode == "auto" else mode
        self._lock = threading.Lock()
        self._phase: PhaseProgress | None = None
        self._cost: Callable[[], float] | None = None
        self._cost_at_start = 0.0
        self._console = None

    @property
    def console(self):
        if self._console is None:
            from rich.console import Console

            self._console = Console(file=self.stream, highlight=False)
        return self._console

    def log(self, line: str) -> None:
        """A line of the run's story; above the live bars in rich mode."""
        if self.mode == "rich":
            self.console.print(line, markup=False)
        else:
            print(line, file=self.stream, flush=True)

    def cycle(self, spent: Callable[[], float]) -> None:
        """A cycle begins: `spent()` is the run's cost so far; the display shows what the cycle adds."""
        self._cost, self._cost_at_start = spent, spent()

    def cycle_cost(self) -> float | None:
        return None if self._cost is None else max(0.0, self._cost() - self._cost_at_start)

    def cost_text(self) -> str:
        """"cycle cost $0.0123" once the cycle has cost something; nothing for a free model (served
        locally, `free: true`, or one litellm cannot price), whose every line would end in $0.0000."""
        cost = self.cycle_cost()
        return "" if not cost else f"cycle cost ${cost:.4f}"

    def phase(self, title: str, total: int, *, role: str | None = None) -> PhaseProgress:
        """Progress of one batch of work. With `role`, that role's model calls count as progress
        (the judge's verdicts, which arrive inside one call of the judge)."""
        return PhaseProgress(self, title, total, role)

    def on_call(self, record: Any) -> None:
        """Accounting listener: a model call finished (any thread)."""
        with self._lock:
            phase = self._phase
        if phase is not None:
            phase.model_call(getattr(record, "role", None))

    def _enter(self, phase: PhaseProgress | None) -> None:
        with self._lock:
            self._phase = phase


CALLS_PER_LINE = 10  # plain mode: a line per this many model calls of a phase whose results come at its end


class PhaseProgress:
    def __init__(self, display: Display, title: str, total: int, role: str | None = None):
        self.display, self.title, self.total, self.role = display, title, total, role
        self.done = self.failed = self.calls = 0
        self.running: list[str] = []
        self._lock = threading.Lock()
        self._live = None
        self._bar = None
        self._started = time.monotonic()

    # -- lifetime ----------------------------------------------------------------------------

    def __enter__(self) -> PhaseProgress:
        self.display._enter(self)
        if self.display.mode == "rich":
            self._start_live()
        elif self.display.mode == "plain":
            self._print(f"{self.title}: {self.total} to do")
        return self

    def __exit__(self, *exc: object) -> None:
        self.display._enter(None)
        if self._live is not None:
            self._live.update(self._bar, completed=self.done, status=self._status())
            self._live.stop()
        elif self.display.mode == "plain":
            elapsed = time.monotonic() - self._started
            cost = self.display.cost_text()
            self._print(f"{self.title}: {self.done}/{self.total} done, {self.failed} failed, {elapsed:.0f}s"
                        + (f", {cost}" if cost else ""))

    def _start_live(self) -> None:
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            ProgressColumn,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )
        from rich.text import Text

        display = self.display

        class CostColumn(ProgressColumn):  # read at every refresh, so the cost moves while a task runs
            def render(self, task) -> Text:
                return Text(display.cost_text(), style="cyan")

        self._live = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                              TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn(), CostColumn(),
                              TextColumn("{task.fields[status]}"), console=display.console, transient=False)
        self._live.start()
        self._bar = self._live.add_task(self.title, total=self.total, status="")

    # -- events ------------------------------------------------------------------------------

    def started(self, label: str) -> None:
        with self._lock:
            self.running.append(label)
            self._refresh()

    def finished(self, label: str, status: str, note: str = "") -> None:
        """status: passed | failed | error | ok | passed by judge | failed by judge | judge error."""
        with self._lock:
            if label in self.running:
                self.running.remove(label)
            self.done += 1
            self.failed += status in ("failed", "error", "failed by judge", "judge error")
            line = f"{status} {label}" + (f" · {note}" if note else "")
            if self._live is not None:
                color = COLORS.get(status, "red")
                tail = f" · {_plain(note)}" if note else ""
                self._live.console.print(f"  [{color}]{status}[/] {_plain(label)}{tail}")
                self._live.update(self._bar, completed=self.done, status=self._status())
            elif self.display.mode == "plain":
                cost = self.display.cost_text()
                self._print(f"[{self.done}/{self.total}] {line}" + (f" · {cost}" if cost else ""))

    def attempt(self, result: Any, cached: bool = False) -> None:
        """A task attempt's result (harness AttemptResult)."""
        status, note = attempt_status(result)
        self.finished(result.task_id, status, "done before" if cached else note)

    def verdicts(self, results: Iterable[Any], threshold: float) -> None:
        """The judge's results of this phase, one line each."""
        for result in results:
            if getattr(result, "status", "ok") != "ok":
                self.finished(str(result.task_id), "judge error", str(getattr(result, "reason", ""))[:120])
            else:
                passed = result.score >= threshold
                self.finished(str(result.task_id), "passed by judge" if passed else "failed by judge",
                              f"score {result.score:g}" + ("" if passed else f": {result.failure_reason or ''}"))

    def model_call(self, role: str | None) -> None:
        if role is None or role != self.role:
            return
        with self._lock:
            self.calls += 1
            if self._live is not None:
                # a call is about one verdict: move the bar, but leave the last step to the results
                self._live.update(self._bar, completed=min(self.calls, max(0, self.total - 1)),
                                  status=self._status())
            elif self.display.mode == "plain" and self.calls % CALLS_PER_LINE == 0:
                # the results come as one batch at the end: a line now and then says the phase moves
                elapsed = time.monotonic() - self._started
                self._print(f"{self.title}: {self.calls} model calls" + (
                    f" (about {self.total} in all)" if self.total > 1 else "") + f", {elapsed:.0f}s")

    # -- output ------------------------------------------------------------------------------

    def _status(self) -> str:
        parts = []
        if self.running:
            shown = ", ".join(self.running[:3]) + (f" +{len(self.running) - 3}" if len(self.running) > 3 else "")
            parts.append(f"running {shown}")
        if self.failed:
            parts.append(f"{self.failed} failed")
        if self.role and self.calls:
            parts.append(f"{self.calls} {self.role} call(s)")
        return _plain(" · ".join(parts))

    def _refresh(self) -> None:
        if self._live is not None:
            self._live.update(self._bar, status=self._status())

    def _print(self, line: str) -> None:
        print(line, file=self.display.stream, flush=True)


def attempt_status(result: Any) -> tuple[str, str]:
    """(status, note) of an attempt: error for a broken sandbox or image, else the verifier's
    passed/failed; the note names the failure mode and any spiral intervention."""
    mode = result.failure_mode
    if mode in ("build_error", "sandbox_error"):
        status = "error"
    else:
        status = "passed" if result.passed else "failed"
    notes = [mode] if mode and status != "passed" else []
    actions = _interventions(result.trajectory_path)
    if actions:
        notes.append("spiral intervention: " + ", ".join(actions))
    return status, "; ".join(notes)


def _interventions(path: str | None) -> list[str]:
    """The loop monitor's actions (nudge, restart, ...) recorded in a trajectory file."""
    if not path:
        return []
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    events = data.get("events") if isinstance(data, dict) else None
    return [str(e.get("action")) for e in events or [] if isinstance(e, dict) and e.get("action") != "detected"]


def printable_line(text: str, limit: int = 300) -> str:
    """Model-written text fit for a log line: control characters (terminal escapes, line breaks)
    become spaces, runs of white space one, and the whole is cut at `limit` characters."""
    flat = " ".join("".join(c if c.isprintable() else " " for c in text).split())
    return flat if len(flat) <= limit else flat[:limit - 5].rstrip() + " [...]"


def _plain(text: str) -> str:
    """Task names and notes as literal text in rich markup."""
    from rich.markup import escape

    return escape(text)


class BatchProgress:
    """A single batch outside a run (`run`, `tasks validate`): a Display of its own."""

    def __init__(self, title: str, total: int, stream: TextIO | None = None, quiet: bool = False):
        self._phase = Display("quiet" if quiet else "auto", stream).phase(title, total)

    def __enter__(self) -> BatchProgress:
        self._phase.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self._phase.__exit__(*exc)

    def started(self, label: str) -> None:
        self._phase.started(label)

    def finished(self, label: str, ok: bool, note: str = "") -> None:
        self._phase.finished(label, "ok" if ok else "failed", note)  # ok = as expected (a nop agent fails)

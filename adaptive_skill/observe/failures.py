"""What counts as an error in a trajectory: the one definition signals and compression share.

A step is an error when its command exited non-zero, its tool failed (e.g. an unknown skill),
the model's reply was malformed, or its output holds a Python traceback although the exit code
was 0 (`python x.py || true`, scripts that swallow their status). A timed-out command is counted
apart, from the sandbox's timeout flag. Each step counts once, under the first kind that applies.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from adaptive_skill.agent.trajectory import StepRecord
from adaptive_skill.observe.shelltext import clip

Kind = Literal["format", "tool", "exit", "traceback", "timeout"]

TRACEBACK = re.compile(r"^Traceback \(most recent call last\):", re.MULTILINE)
# Lines that carry the evidence of a failure in a failing step's output.
ERROR_LINE = re.compile(
    r"error|fatal|fail|exception|traceback|denied|not found|no such|cannot|can't|could not|unable to"
    r"|invalid|undefined|unrecognized|unknown|missing|refused|segmentation fault|aborted|panic|killed|\bERR\b"
    r"|^E\s", re.IGNORECASE)
# A Python stack frame. Only the frame right before an error line is kept: where it was raised.
FRAME_LINE = re.compile(r'^\s*File ".*", line \d+')
MAX_LINE_CHARS = 240


@dataclass(frozen=True)
class Failure:
    step: int
    kind: Kind
    tool: str | None
    command: str  # the step's full argument (the command that really ran)
    exit_code: int | None
    lines: tuple[str, ...]  # evidence: the error lines of the output, or the tool's error message

    @property
    def is_error(self) -> bool:
        return self.kind != "timeout"


def step_failure(step: StepRecord) -> Failure | None:
    kind: Kind | None = None
    if step.timed_out:
        kind = "timeout"
    elif step.error:
        kind = "format" if step.error.startswith("format:") else "tool"
    elif step.exit_code not in (None, 0):
        kind = "exit"
    elif step.tool == "bash" and TRACEBACK.search(step.output or ""):
        kind = "traceback"
    if kind is None:
        return None
    lines = (step.error,) if kind in ("format", "tool") else tuple(error_lines(step.output or ""))
    return Failure(step=step.index, kind=kind, tool=step.tool, command=step.argument, exit_code=step.exit_code,
                   lines=lines)


def find_failures(steps: list[StepRecord]) -> list[Failure]:
    return [f for f in map(step_failure, steps) if f is not None]


def error_lines(output: str) -> list[str]:
    """The lines of a failing step's output that say what went wrong, in order, each once (cut
    to MAX_LINE_CHARS): every ERROR_LINE, and before it the last stack frame that led to it.
    With no such line, the last three non-empty lines: a bare non-zero exit still shows what the
    command printed last."""
    seen: set[str] = set()
    found: list[str] = []
    frame: str | None = None
    for raw in output.splitlines():
        raw = raw.rstrip()
        if FRAME_LINE.match(raw):
            frame = clip(raw, MAX_LINE_CHARS)
            continue
        if not (match := ERROR_LINE.search(raw)):
            continue
        for kept in (frame, _clip_around(raw, match.start())):
            if kept is not None and kept not in seen:
                seen.add(kept)
                found.append(kept)
        frame = None
    if not found:
        found = [clip(line.rstrip(), MAX_LINE_CHARS) for line in output.splitlines() if line.strip()][-3:]
    return found


def _clip_around(line: str, at: int) -> str:
    """A long line cut so that the word that made it an error line stays in view."""
    if len(line) <= MAX_LINE_CHARS or at < MAX_LINE_CHARS - 60:
        return clip(line, MAX_LINE_CHARS)
    head = MAX_LINE_CHARS // 4
    return clip(f"{line[:head]} [...] {line[at - head:]}", MAX_LINE_CHARS)

"""The one definition of a failed step, and the one finder of the lines that say what went wrong.
Signals, compression, the judge's view and the spiral monitor all count failures with this.

A step failed when
- its command timed out (the sandbox's flag, or the format's timeout text): kind `timeout`;
- the model's reply was malformed (`format`) or its tool refused it, e.g. an unknown skill (`tool`);
- its command exited non-zero (`exit`), except exit 1 of a single query (grep, diff, test...),
  which is an answer ("no match"), not a breakage;
- it exited 0 but printed a Python traceback (`python x.py || true`): `traceback`;
- it exited 0 only because its exit code was masked (`make | tail`, `cmd || true`) and the output
  shows an error (the same evidence as for unknown exits): `masked`;
- the format carries no exit code and the output shows an error (a traceback, an exception line
  such as `ModuleNotFoundError: ...`, `command not found`, `No such file or directory`, a failed
  test, a panic, a killed job, a log line at level ERROR, ...): `output`, with the exit code unknown.
Each step counts once, under the first kind that applies. `timeout` is counted apart from the
other kinds, which are the errors.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from adaptive_skill.trajectory.model import StepRecord
from adaptive_skill.trajectory.text import clean_output, clip, is_query

Kind = Literal["format", "tool", "exit", "traceback", "masked", "output", "timeout"]

TRACEBACK = re.compile(r"^Traceback \(most recent call last\):", re.MULTILINE)
# Lines that carry the evidence of a failure in a failing step's output (E: pytest's lines).
ERROR_LINE = re.compile(
    r"error|fatal|fail|exception|traceback|denied|not found|no such|cannot|can't|could not|unable"
    r"|invalid|undefined|unrecognized|unknown|missing|refused|segmentation fault|abort|panic|killed"
    r"|timed? ?out|\bERR\b|(?-i:^E\s)|^not ok\b|no space left", re.IGNORECASE)
# Output that shows a command failed, for formats without exit codes: stricter than ERROR_LINE,
# which also matches a listing of `errors.log` (a successful `ls`). Beyond error lines and
# tracebacks: test runners' verdicts (pytest, go test, jest, TAP), crashes (Go and Rust panics, a
# job killed by a signal, node's fatal errors), the C library's words for a failed system call,
# curl's errors, and log lines at level ERROR/FATAL/CRITICAL.
ERROR_EVIDENCE = re.compile(
    r"^Traceback \(most recent call last\):"
    r"|^\s*(?:[A-Za-z_][\w.]*\.)?[A-Z]\w*(?:Error|Exception)(?::|$)"  # ModuleNotFoundError: ...
    r"|\bcommand not found\b|^(?:\S*sh|\S+): (?:line )?\d+: .*: not found$"
    r"|No such file or directory|Permission denied|Segmentation fault|core dumped|syntax error"
    r"|No space left on device|Read-only file system|Disk quota exceeded|Too many open files|Cannot allocate memory"
    r"|Address already in use|Connection refused|Connection reset by peer|Operation not permitted"
    r"|^(?:\S+: )*(?:error|fatal|ERROR|FATAL|Error)(?:\[\w+\])?: "  # error: ..., gcc's x.c:1: error:, git's fatal:
    r"|: error [A-Z]{1,4}\d{2,5}: "  # tsc's error TS2304:, MSVC's error C2065:
    r"|^E: |^npm ERR!|^make(?:\[\d+\])?: \*\*\*|^FAILED\b|^=+ .*\b\d+ (?:failed|errors?)\b"
    r"|^--- FAIL: |^FAIL\b|^not ok \d+"  # go test, jest and go's package verdict, TAP (bats, prove)
    r"|^panic: |^thread '.*' panicked at|^fatal error: |^FATAL ERROR: "  # Go, Rust, the Go runtime, node
    r"|^(?:\S+: line \d+: +\d+ )?(?:Killed|Terminated|Aborted)(?: |$)"  # a job killed by a signal
    r"|^curl: \(\d+\) "
    r"|\[(?:ERROR|FATAL|CRITICAL|CRIT|EMERG|ALERT|error|crit|alert|emerg)\]"  # [ERROR] (gunicorn), [error] (nginx)
    r"|(?:^|\s)(?:ERROR|FATAL|CRITICAL|PANIC):\s|^(?:\S+: )?(?:ERROR|FATAL|CRITICAL)\b[ (]"  # log levels
    r"|\b(?:cannot|can't) (?:access|open|stat|create|find|remove|import)\b|\bCould not (?:find|open|resolve)\b",
    re.MULTILINE)
# A command whose exit code says nothing about its first part: piped into a filter, or `|| true`.
MASKED_EXIT = re.compile(
    r"\|\s*(?:tail|head|grep|egrep|less|more|cat|tee|sed|awk|cut|sort|uniq|wc|column)\b"
    r"|\|\|\s*(?:true|:|echo\b|exit 0)|;\s*(?:true|:|exit 0)\s*$")
# A Python stack frame. Only the frame right before an error line is kept: where it was raised.
FRAME_LINE = re.compile(r'^\s*File ".*", line \d+')
MAX_LINE_CHARS = 240
_SCAN_CHARS = 200_000  # of a huge output, the head and the tail are read


@dataclass(frozen=True)
class Failure:
    step: int
    kind: Kind
    tool: str | None
    command: str  # the step's full argument (the command that really ran)
    exit_code: int | None  # None: not known (the format does not carry it), or not a command
    lines: tuple[str, ...]  # evidence: the error lines of the output, or the tool's error message

    @property
    def is_error(self) -> bool:
        return self.kind != "timeout"

    @property
    def status(self) -> str:
        """How the failure reads under its command in a compressed trajectory: one phrase per kind."""
        return {"exit": f"exit {self.exit_code}", "traceback": f"traceback (exit {self.exit_code})",
                "masked": f"exit {self.exit_code}, but the output shows an error (the exit status was masked)",
                "output": "error in the output (exit unknown)", "timeout": "timed out and was killed",
                "tool": "tool error", "format": "malformed reply"}[self.kind]


def step_failure(step: StepRecord) -> Failure | None:
    kind: Kind | None = None
    output = step.output or ""
    if step.timed_out:
        kind = "timeout"
    elif step.error:
        kind = "format" if step.error.startswith("format:") or step.tool is None else "tool"
    elif step.tool == "bash":
        if step.exit_code is None:
            kind = "output" if ERROR_EVIDENCE.search(_scanned(output)) else None
        elif step.exit_code != 0:
            kind = None if step.exit_code == 1 and is_query(step.argument) else "exit"
        elif TRACEBACK.search(_scanned(output)):
            kind = "traceback"
        elif MASKED_EXIT.search(step.argument) and ERROR_EVIDENCE.search(_scanned(output)):
            kind = "masked"
    if kind is None:
        return None
    lines = (step.error or "",) if kind in ("format", "tool") else tuple(error_lines(output))
    return Failure(step=step.index, kind=kind, tool=step.tool, command=step.argument, exit_code=step.exit_code,
                   lines=lines)


def find_failures(steps: list[StepRecord]) -> list[Failure]:
    return [f for f in map(step_failure, steps) if f is not None]


def error_lines(output: str, frames: bool = True, fallback: int = 3) -> list[str]:
    """The lines of a failing step's output that say what went wrong, in order, each once (cut
    to MAX_LINE_CHARS): every ERROR_LINE, and before it (with `frames`) the last stack frame that
    led to it. With no such line, the last `fallback` non-empty lines: a bare non-zero exit still
    shows what the command printed last."""
    seen: set[str] = set()
    found: list[str] = []
    frame: str | None = None
    text = clean_output(_scanned(output))
    for raw in text.splitlines():
        raw = raw.rstrip()
        if FRAME_LINE.match(raw):
            frame = clip(raw, MAX_LINE_CHARS) if frames else None
            continue
        if not (match := ERROR_LINE.search(raw)):
            continue
        for kept in (frame, _clip_around(raw, match.start())):
            if kept is not None and kept not in seen:
                seen.add(kept)
                found.append(kept)
        frame = None
    if not found and fallback:
        found = [clip(line.rstrip(), MAX_LINE_CHARS) for line in text.splitlines() if line.strip()][-fallback:]
    return found


# A shell's word that it found no such program: "bash: jq: command not found", "bash: line 1: jq:
# command not found", "sh: 1: jq: not found". The name is the group.
_NOT_FOUND = re.compile(r"(?:^|: )([A-Za-z0-9_.+/-]{1,64}): (?:command )?not found")


def missing_program(line: str) -> str | None:
    """The program a shell's error line says it could not find (its last path part), or None; prose a
    model ran as a command ("Use: command not found") names none."""
    if not (match := _NOT_FOUND.search(line)):
        return None
    name = match.group(1).rsplit("/", 1)[-1]
    return name if name and not name[0].isupper() else None


def _scanned(output: str) -> str:
    if len(output) <= _SCAN_CHARS:
        return output
    return f"{output[:_SCAN_CHARS // 2]}\n{output[-_SCAN_CHARS // 2:]}"


def _clip_around(line: str, at: int) -> str:
    """A long line cut so that the word that made it an error line stays in view."""
    if len(line) <= MAX_LINE_CHARS or at < MAX_LINE_CHARS - 60:
        return clip(line, MAX_LINE_CHARS)
    head = MAX_LINE_CHARS // 4
    return clip(f"{line[:head]} [...] {line[at - head:]}", MAX_LINE_CHARS)

"""A compact digest of a cycle's observations, for an evolver that asks one question (structured.py).

Per failed or low-scored attempt, lowest judge score first: the task id, its instruction (cut),
the last few commands with their exit codes, the errors it met (the command, its exit code and the
first error line), and the judge's failure reason: what a diagnosis of the failures needs. The
digest also keeps the failures' situation terms (the programs run, the errors met; relevance.py),
which a proposed skill must name. Built from the files
the engine writes (observe/observations.py: <task>/instruction.md, trajectory.txt, signals.json,
verdict.json, programs.json), which derive from untrusted trajectories, so every read is bounded, no link is ever
followed (neither a task folder nor a file), and a missing or garbled file is skipped.
"""

from __future__ import annotations

import json
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adaptive_skill.evolve.relevance import Failures, fold, situation_terms
from adaptive_skill.observe.observations import PROGRAMS, SKILL_USE, TESTS, passed
from adaptive_skill.progress import printable_line as _line
from adaptive_skill.sandbox.programs import Programs, sentence

MAX_FILE_BYTES = 64 * 1024  # read of any one observation file; the rest is never read
MAX_FOLDERS = 500  # task folders looked at
TASK_CHARS = 80
INSTRUCTION_CHARS = 300
COMMAND_CHARS = 120
REASON_CHARS = 300
ERROR_CHARS = 160
LAST_COMMANDS = 4
ERRORS_SHOWN = 3
SKILL_USE_CHARS = 1500  # of skills.md shown
# The compressed trajectory (observe/compress.py) shows each command as "step N $ cmd", its status
# on the next line as "  -> exit 0" (or "  -> error ... (see Errors)").
_STEP = re.compile(r"^step (\d+) \$ (.*)$")
_STATUS = re.compile(r"^\s+-> (.*)$")
_PATH = re.compile(r"(?<![\w/.~])/[\w.-]+(?:/[\w.-]+)+")  # an absolute path of two parts or more
# The system's own places, which a general skill may name (`nginx -t` checks /etc/nginx/nginx.conf)
_SYSTEM = ("/etc/", "/usr/", "/bin/", "/sbin/", "/lib/", "/lib64/", "/proc/", "/sys/", "/dev/")


@dataclass
class Digest:
    text: str  # empty when nothing failed
    tasks: list[str] = field(default_factory=list)  # the failing task ids shown, lowest score first
    terms: set[str] = field(default_factory=set)  # the shown failures' programs and errors (relevance.py)
    skill_use: str = ""  # how the agent used each skill (observations/skills.md), when there are skills
    failed_commands: set[str] = field(default_factory=set)  # shown commands that failed, whitespace folded
    programs: str = ""  # which common programs the shown failures' containers had, where the probe ran
    paths: set[str] = field(default_factory=set)  # the files the shown instructions name (/app/x.json), as written,
    # but the system's own (/etc/..., /usr/...)

    def failures(self) -> Failures:
        """What no skill may carry back from these failures (the rules step's input)."""
        return Failures(frozenset(self.failed_commands), frozenset(self.tasks), frozenset(self.paths))


def read_digest(root: Path, *, pass_threshold: float, max_tasks: int = 6, max_chars: int = 3000) -> Digest:
    """The failing attempts under `root`, at most `max_tasks` blocks and `max_chars` characters."""
    rows = []
    for folder in _task_folders(root):
        verdict = _json(folder / "verdict.json")
        score = verdict.get("score")
        score = float(score) if isinstance(score, int | float) and not isinstance(score, bool) else None
        tests = _json(folder / TESTS).get("passed")  # only with trajectory_only off: then the tests decide
        if passed(score, tests, pass_threshold):
            continue
        rows.append((-1.0 if score is None else score, folder.name, score, verdict, folder))
    rows.sort(key=lambda row: (row[0], row[1]))
    blocks: list[str] = []
    tasks: list[str] = []
    terms: set[str] = set()
    failed: set[str] = set()
    probed: list[Programs] = []
    paths: set[str] = set()
    used = 0
    for _, name, score, verdict, folder in rows[:max_tasks]:
        block, shown_commands, shown_errors, failed_commands = _block(name, score, verdict, folder)
        if used + len(block) > max_chars:
            break
        blocks.append(block)
        tasks.append(name)
        terms |= situation_terms(shown_commands, shown_errors)
        failed |= {fold(command) for command in failed_commands}
        paths |= {path.rstrip(".") for path in _PATH.findall(read_bounded(folder / "instruction.md"))
                  if not path.startswith(_SYSTEM)}
        if (programs := Programs.from_dict(_json(folder / PROGRAMS))) is not None:
            probed.append(programs)
        used += len(block) + 2
    skill_use = "" if root.is_symlink() else _line_block(read_bounded(root / SKILL_USE), SKILL_USE_CHARS)
    return Digest("\n\n".join(blocks), tasks, terms, skill_use, failed, sentence(probed), paths)


def _block(name: str, score: float | None, verdict: dict[str, Any],
           folder: Path) -> tuple[str, list[str], list[str], list[str]]:
    """The task's lines, the commands and error lines they show, and the shown commands that failed."""
    shown = "no verdict" if score is None else f"score {score:g}/10"
    tests = _json(folder / TESTS).get("passed")
    if isinstance(tests, bool):
        shown += ", tests passed" if tests else ", tests failed"
    lines = [f"### {_line(name, TASK_CHARS)} ({shown})",
             f"Instruction: {_line(read_bounded(folder / 'instruction.md'), INSTRUCTION_CHARS) or '(missing)'}"]
    signals = _json(folder / "signals.json")
    commands = last_commands(read_bounded(folder / "trajectory.txt"))
    errors = _errors(signals)
    if not commands:  # a raw transcript (short runs) has no "step N $" lines: the signals name the errors
        commands = [(command, status) for command, status, _ in errors]
    lines.append("Last commands:" if commands else "Last commands: (none recorded)")
    lines += [f"- $ {command} -> {status}" for command, status in commands[-LAST_COMMANDS:]]
    if errors:
        lines.append("Errors:")
        lines += [f"- $ {command} -> {status}: {text or '(no error text)'}" for command, status, text in errors]
    reason = verdict.get("failure_reason") or verdict.get("error") or verdict.get("outcome")
    lines.append(f"Judge: {_line(reason if isinstance(reason, str) else '', REASON_CHARS) or '(no reason given)'}")
    shown_commands = [command for command, _ in commands[-LAST_COMMANDS:]] + [command for command, _, _ in errors]
    failed = [command for command, status in commands[-LAST_COMMANDS:] if status not in ("exit 0", "unknown")]
    failed += [command for command, _, _ in errors]
    return "\n".join(lines), shown_commands, [text for _, _, text in errors], failed


def last_commands(trajectory: str) -> list[tuple[str, str]]:
    """(command, status) of each step of a compressed trajectory, in step order, each step once."""
    found: dict[int, tuple[str, str]] = {}
    lines = trajectory.splitlines()
    for position, text in enumerate(lines):
        step = _STEP.match(text)
        if not step or int(step.group(1)) in found:
            continue
        after = lines[position + 1] if position + 1 < len(lines) else ""
        status = _STATUS.match(after)
        found[int(step.group(1))] = (_line(step.group(2), COMMAND_CHARS),
                                     _line(status.group(1).replace(" (see Errors)", "").replace(" (see Timeouts)", ""),
                                           60) if status else "unknown")
    return [found[number] for number in sorted(found)]


def _errors(signals: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(command, status, first error line) of the first ERRORS_SHOWN failures the signals list."""
    found = []
    snippets = signals.get("error_snippets")
    for snippet in snippets if isinstance(snippets, list) else []:
        if not isinstance(snippet, dict) or not isinstance(snippet.get("command"), str):
            continue
        code = snippet.get("exit_code")
        status = f"exit {code}" if isinstance(code, int) and not isinstance(code, bool) else str(snippet.get("kind"))
        error_lines = snippet.get("lines")
        text = next((line for line in error_lines if isinstance(line, str) and line.strip()), "") \
            if isinstance(error_lines, list) else ""
        found.append((_line(snippet["command"], COMMAND_CHARS), _line(status, 60), _line(text, ERROR_CHARS)))
        if len(found) >= ERRORS_SHOWN:
            break
    return found


def read_bounded(path: Path, limit: int = MAX_FILE_BYTES) -> str:
    """At most `limit` bytes of a regular file as text; "" for a link, a missing or odd file."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_NONBLOCK", 0))
    except OSError:  # missing, a link (ELOOP), unreadable
        return ""
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            return ""
        return handle.read(limit).decode("utf-8", errors="replace")


def _task_folders(root: Path) -> list[Path]:
    if root.is_symlink() or not root.is_dir():
        return []
    try:
        entries = sorted(os.scandir(root), key=lambda e: e.name)[:MAX_FOLDERS]
    except OSError:
        return []
    return [Path(e.path) for e in entries if e.is_dir(follow_symlinks=False) and not e.name.startswith(".")]


def read_host_json(path: Path, limit: int = MAX_FILE_BYTES) -> Any:
    """A host-written JSON file of the observations, read through read_bounded (no link followed, at
    most `limit` bytes); None when absent, unreadable or not JSON."""
    try:
        return json.loads(read_bounded(path, limit) or "null")
    except (ValueError, RecursionError):
        return None


def _json(path: Path) -> dict[str, Any]:
    data = read_host_json(path)
    return data if isinstance(data, dict) else {}


def _line_block(text: str, limit: int) -> str:
    """Lines of printable text, cut at `limit` characters in all."""
    lines = [_line(line, 300) for line in text.splitlines() if line.strip()]
    kept, used = [], 0
    for line in lines:
        if used + len(line) > limit:
            break
        kept.append(line)
        used += len(line) + 1
    return "\n".join(kept)

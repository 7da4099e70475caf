"""What an explore attempt is told about its task's attempt before (explore.reflect).

The 1.5B does not recover from an error inside an attempt: run 23's probe had four git tasks fail 16
times of 16 at temperature 1.0, each after `fatal: not a git repository`, and none of its trajectories
held the fix the distiller could have written down. Sampling hotter changes the words, not the
mistake. Told that error at the start of the same attempts, it passed 8 of 16 (docs/results.md, "the
reflect probe"). A note placed after the instruction, in the attempt's first message, says what the attempt
before did wrong: its failed commands with the line of their output that says why (the one
definition of a failed step, trajectory/failures.py), or, where nothing failed, the commands it ran
to no effect. The task's instruction itself is not changed: the judge and the verifier see the task
as it is.

Told that `jq`, `zip` or `unzip` is not found, the 1.5B tries `jq3`, `jq4`, ... (the reflect probe):
where a failed command's error says a program is not found and the attempt's container was probed
(sandbox/programs.py), the note also says that the program is not there under any name and which of
the common programs are.

The note is built from the agent's own trajectory, so from untrusted text: every command and line is
one line, bounded and of printable characters, and the note as a whole is bounded (NOTE_CHARS).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from adaptive_skill.sandbox.programs import Programs
from adaptive_skill.trajectory.failures import FRAME_LINE, TRACEBACK, find_failures, missing_program
from adaptive_skill.trajectory.load import as_view, load_view
from adaptive_skill.trajectory.text import clean_output, clip

MAX_COMMANDS = 3
COMMAND_CHARS = 160
LINE_CHARS = 160
NOTE_CHARS = 900
_UNPRINTABLE = re.compile(r"[^\x20-\x7e\u00a0-\uffff]")

FAILED_HEAD = "An earlier attempt at this task did not succeed. These of its commands failed:"
FAILED_TAIL = ("Do not run them that way again: read each error, fix what it names (the directory a "
               "command runs in, a path, an option, a missing program), then do the task.")
QUIET_HEAD = "An earlier attempt at this task did not succeed, though no command failed. Its last commands:"
QUIET_TAIL = "They did not do what the task asks: do it another way, and check the result before you submit."


def reflection(trajectory: str | Path | dict[str, Any] | list[Any], programs: Programs | None = None) -> str | None:
    """The note for the next attempt of the task whose attempt this trajectory is; None for a
    trajectory that cannot be read or that ran no command. `programs`: what the attempt's container
    had (its probe), for the line on a program it did not have."""
    try:
        view = load_view(trajectory) if isinstance(trajectory, str | Path) else as_view(trajectory)
    except (ValueError, OSError):
        return None
    failed: list[tuple[str, str]] = []
    absent: list[str] = []
    for failure in find_failures(view.steps):
        if failure.tool != "bash" or not isinstance(failure.command, str):
            continue
        command = _command(failure.command)
        said = [line for line in failure.lines if not (TRACEBACK.match(line) or FRAME_LINE.match(line))]
        # a program the command ran (by path too), not any word of the output
        ran = {word.rsplit("/", 1)[-1] for word in re.findall(r"[\w.+/-]+", failure.command)}
        absent += [name for name in map(missing_program, said) if name in ran and name not in absent]
        why = next((text for text in (_line(line, LINE_CHARS) for line in said) if text), "")
        if failure.kind == "timeout":
            why = "timed out and was killed"
        elif not why:
            why = "failed" if failure.exit_code is None else f"exit {failure.exit_code}"
        if command and command not in (c for c, _ in failed):
            failed.append((command, why))
    if failed:
        body = [f"- `{command}` -> {why}" for command, why in failed[:MAX_COMMANDS]]
        return _bounded(FAILED_HEAD, body, "\n".join(filter(None, [_absent(absent, programs), FAILED_TAIL])))
    ran = [c for c in (_command(s.argument) for s in view.steps
                       if s.tool == "bash" and isinstance(s.argument, str)) if c]
    if not ran:
        return None
    last = list(dict.fromkeys(reversed(ran)))[:MAX_COMMANDS][::-1]
    return _bounded(QUIET_HEAD, [f"- `{command}`" for command in last], QUIET_TAIL)


def with_reflection(instruction: str, note: str | None) -> str:
    """The attempt's first message: the instruction, then the note apart from it."""
    return instruction if not note else f"{instruction.rstrip()}\n\n{note}"


def _absent(names: list[str], programs: Programs | None) -> str:
    """The line on the programs the attempt did not have, with those its container has ("" without a
    probe or with nothing missing). A name is one line of at most 40 characters; the installed ones
    are the probe's fixed list, so nothing the container printed reaches the model through them."""
    if programs is None or not programs.installed:
        return ""
    shown = [f"`{name}`" for name in dict.fromkeys(_line(n, 40) for n in names)
             if name and name not in programs.installed][:3]
    if not shown:
        return ""
    return (f"Not installed in this container, under any name: {', '.join(shown)}. "
            f"Installed: {', '.join(programs.installed)}. Do it with one of those.")


_CONTINUED = ("&&", "||", "|", "{", "(", ";", " do", " then", " else")


def _command(text: str) -> str:
    """A command as one line: its lines joined by `; ` where the shell would have run them one after
    another (run 24's note showed `git init /app/repo git checkout -b feature/login`: two commands
    read as one), by a space after a line that continues."""
    joined = ""
    for line in (raw.strip() for raw in text[:4 * COMMAND_CHARS].splitlines()):
        if line and joined.endswith("\\"):
            joined = f"{joined[:-1].rstrip()} {line}"
        elif line:
            joined += ("" if not joined else " " if joined.endswith(_CONTINUED) else "; ") + line
    return _line(joined.removesuffix("\\"), COMMAND_CHARS)


def _line(text: str, limit: int) -> str:
    """One line of printable characters, backticks made quotes (the note quotes commands in them)."""
    flat = " ".join(_UNPRINTABLE.sub(" ", clean_output(text[:4 * limit])).split()).replace("`", "'")
    return clip(flat, limit)


def _bounded(head: str, body: list[str], tail: str) -> str:
    while body and len("\n".join([head, *body, tail])) > NOTE_CHARS:
        body.pop()
    return "\n".join([head, *body, tail])

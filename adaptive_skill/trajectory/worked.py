"""The worked commands of an attempt: what it ran that changed something and did not fail.

Read by the observe phase (observations/<task>/worked.json) and by the distilling evolver, which
writes them, for the attempts that passed, as the steps of a skill (evolve/distill.py). One
definition of a failed step (failures.step_failure); the one trajectory reader (load.as_view).
The commands are the agent's, so untrusted: each is one line, bounded, or dropped."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

from adaptive_skill.trajectory.failures import step_failure
from adaptive_skill.trajectory.load import as_view, load_view

# Commands that only look: without a redirection they change nothing and teach nothing
LOOKS = {"ls", "cat", "pwd", "head", "tail", "stat", "file", "tree", "which", "type", "whoami", "id", "env",
         "printenv", "echo", "less", "more", "du", "df", "true", "wc", "find", "grep", "sqlite3", "git"}
# ... but these forms of the looking programs do change something
# (`git -C DIR commit` too; a pipe into `tee FILE` writes the file, run 18's `grep ERROR log | tee out`)
_CHANGES = re.compile(r"\bgit\s+(?:-C\s+\S+\s+)?"
                      r"(?:init|add|commit|tag|checkout|branch|config|reset|rm|mv|switch|restore|stash)\b"
                      r"|\bsqlite3\b.*(?:-csv|\.mode|\.output|insert|update|delete|create)"
                      r"|\bfind\b.*\s-(?:delete|exec)\b"
                      r"|\|\s*(?:sudo\s+)?tee\s", re.I)
# A line ending in one of these goes on in the next: joined with a space, never with "; "
# (a keyword only on a line a compound command opens: `echo what to do` ends in no keyword)
_OPENS = re.compile(r"^(?:if|elif|for|while|until|select)\b.*\b(?:then|do)$|^(?:then|do|else)$"
                    r"|(?:\{|\(|\||&&|;)$")
_PROGRAM = re.compile(r"^\s*(?:cd\s+\S+\s*(?:&&|;)\s*)?(\S+)")
COMMAND_CHARS = 220
COMMANDS_PER_TASK = 3


def worked_commands(trajectory: str | Path | dict[str, Any] | list[Any]) -> list[str]:
    """The last three commands of an attempt (a trajectory file or its data) that changed something
    and did not fail, in order, each once; [] for a trajectory that cannot be read."""
    try:
        view = load_view(trajectory) if isinstance(trajectory, str | Path) else as_view(trajectory)
    except (ValueError, OSError):
        return []
    kept: list[str] = []
    for step in view.steps:
        if step.tool != "bash" or step_failure(step) is not None or step.exit_code not in (0, None):
            continue
        command = one_line(step.argument if isinstance(step.argument, str) else "")
        if not command or len(command) > COMMAND_CHARS or command in kept or only_looks(command):
            continue
        kept.append(command)
    return kept[-COMMANDS_PER_TASK:]


def only_looks(command: str) -> bool:
    """True for a command that reads and changes nothing (`ls`, `cat x`, `git status`), as far as
    its first program and a redirection tell."""
    first = _PROGRAM.match(command)
    program = first.group(1) if first else ""
    return program in LOOKS and ">" not in command and not _CHANGES.search(command)


def one_line(command: str) -> str:
    """A shell command as one line that means the same: its lines joined with "; " (with a space after
    a trailing backslash, an opening `then`, `do` or `else`, `{`, a pipe or `&&`); "" for what cannot
    be (a here-document, a quote open across lines) and for anything with a control character."""
    if "<<" in command:
        return ""
    parts: list[str] = []
    for line in command.splitlines():
        line = line.strip()
        if not line:
            continue
        if any(ord(ch) < 32 and ch != "\t" or ord(ch) == 127 for ch in line):
            return ""
        try:
            shlex.split(line.removesuffix("\\"))
        except ValueError:  # a quote left open: the line goes on inside a string
            return ""
        if parts and parts[-1].endswith("\\"):
            parts[-1] = parts[-1][:-1].rstrip() + " " + line
        elif parts and _OPENS.search(parts[-1]):  # `then; rm` would be a syntax error: `then rm`
            parts[-1] = parts[-1] + " " + line
        else:
            parts.append(line)
    return " ".join("; ".join(parts).split())

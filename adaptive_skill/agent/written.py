"""What an attempt's commands wrote, shown to the agent when it first submits
(models.agent.show_before_submit): the files its shell redirections and `tee` named, as `ls -ld`
and, for a text file, its first lines. The 1.5B runs one command and submits without looking
(docs/log/results-runs.md, runs 8 and 9); this puts the result in front of it instead of asking it to look.

The paths come from the agent's own command text and the command that shows them runs in the
attempt's own sandbox, in its shell (so a relative path means what it meant to the agent); each
path is quoted, and nothing runs on the host.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable

MAX_FILES = 3  # the last files written; an attempt rarely writes more that matter
MAX_LINES = 20
# `> f`, `>> f`, `2> f`, `tee f`, `tee -a f`; not `>&2` or `2>&1` (a descriptor, not a file)
_WRITE = re.compile(r"(?:(?<![<>&])\d?>>?|\btee\s+(?:-a\s+)?)\s*(?:'([^']+)'|\"([^\"$`]+)\"|([^\s;&|<>()'\"`$]+))")


def written_paths(commands: Iterable[str]) -> list[str]:
    """The files the commands redirect to or tee into, the last MAX_FILES, most recent last."""
    seen: list[str] = []
    for command in commands:
        for match in _WRITE.finditer(command):
            path = next(group for group in match.groups() if group)
            if path.startswith("/dev/") or path.startswith("/proc/"):
                continue
            if path in seen:
                seen.remove(path)
            seen.append(path)
    return seen[-MAX_FILES:]


def show_command(paths: list[str]) -> str:
    """A shell command that lists each existing path and prints the first lines of a text file
    (empty files and binary ones get only their `ls` line); missing paths print nothing."""
    parts = []
    for path in paths:
        quoted = shlex.quote(path)
        parts.append(f"if [ -e {quoted} ]; then ls -ld -- {quoted}; if [ -f {quoted} ] && grep -Iq . {quoted}; "
                     f"then head -n {MAX_LINES} -- {quoted}; fi; fi")
    return "; ".join(parts)

"""The worked commands of an attempt: what it ran that changed something and did not fail.

Read by the observe phase (observations/<task>/worked.json) and by the distilling evolver, which
writes them, for the attempts that passed, as the steps of a skill (evolve/distill.py). One
definition of a failed step (failures.step_failure); the one trajectory reader (load.as_view).
The commands are the agent's, so untrusted: each is one line, bounded, or dropped."""

from __future__ import annotations

import posixpath
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
# A here-document's operator (not a here-string's <<<): `<<EOF`, `<< 'EOF'`, `<<-"END"`
_HEREDOC = re.compile(r"(?<!<)<<(-?)\s*(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\2(?!<)")
_PROGRAM = re.compile(r"^\s*(?:cd\s+\S+\s*(?:&&|;)\s*)?(\S+)")
# A program run by a path relative to the working directory (`./sum.sh`, where a command starts):
# right where the attempt ran it, wrong for a task read from elsewhere. Run 20 placed
# `./sum.sh 1 2 3` before run-build-script and run-script-with-arg, whose agent then ran
# `./app/build.sh` and `./app/deploy.sh` and failed tasks the seed passes.
_RELATIVE_RUN = re.compile(r"(^|[;&|(]\s*|\b(?:then|do|else)\s+)"
                           r"\./([A-Za-z0-9_][A-Za-z0-9_.+-]*(?:/[A-Za-z0-9_.+-]+)*)")
_ABSOLUTE = re.compile(r"(?<![\w./-])/[A-Za-z0-9_.+-]+(?:/[A-Za-z0-9_.+-]+)*")
_CD = re.compile(r"(?:^|[;&|(]\s*)cd\s")
# The shell keeps its directory from one command to the next: a bare `cd /dir` step is not a command
# to keep, but where the ones after it ran (the reflect probe's git attempts: `cd /app/repo`, then `git
# checkout -b feature`, which had failed in /app). Each later command is kept with it, `cd /dir && ...`.
_CD_ONLY = re.compile(r"^cd\s+(/[A-Za-z0-9_.+/-]*)$")
_CD_RELATIVE = re.compile(r"^cd\s+([A-Za-z0-9_.+-][A-Za-z0-9_.+/-]*)$")
_CD_FIRST = re.compile(r"^cd\s+(/[A-Za-z0-9_.+/-]*)\s*(?:&&|;)")
_MOVES = re.compile(r"(?:^|[;&|(\n]\s*)(?:cd|pushd|popd)(?:\s|$)")
COMMAND_CHARS = 220
COMMANDS_PER_TASK = 3
# A command that writes one literal and nothing else: `echo "5433" > /app/db_port.txt`, `printf '42\n' >> f`
_LITERAL_WRITE = re.compile(r"^(?:echo(?:\s+-[neE]+)?|printf)\s+(['\"]?)([^'\"$`;&|<>()]*)\1\s*>>?\s*[^\s;&|<>]+$")


def worked_commands(trajectory: str | Path | dict[str, Any] | list[Any]) -> list[str]:
    """The last three commands of an attempt (a trajectory file or its data) that changed something
    and did not fail, in order, each once; [] for a trajectory that cannot be read and for one that
    wrote an answer it had read off an earlier step's output (copied_answer). A command run after a
    bare `cd /dir` step (and a `cd sub` from there) is kept as `cd /dir && command`, where it ran; a
    cd the record cannot follow (in a failed step, among other commands, relative from an unknown
    place) forgets the directory."""
    try:
        view = load_view(trajectory) if isinstance(trajectory, str | Path) else as_view(trajectory)
    except (ValueError, OSError):
        return []
    kept: list[str] = []
    seen: list[str] = []  # what the attempt's earlier steps printed
    directory: str | None = None  # where the last `cd /dir` left the shell; None: unknown or not moved
    for step in view.steps:
        argument = step.argument if isinstance(step.argument, str) else ""
        if step.tool == "bash" and copied_answer(argument, seen, view.instruction or ""):
            return []
        seen.append(step.output if isinstance(step.output, str) else "")
        if step.tool != "bash":
            continue
        if step_failure(step) is not None or step.exit_code not in (0, None):
            directory = None if _MOVES.search(argument) else directory  # it may or may not have moved
            continue
        line = one_line(argument)
        if only := _CD_ONLY.match(line):
            directory = posixpath.normpath(only.group(1))
            continue
        if directory is not None and (relative := _CD_RELATIVE.match(line)):
            directory = posixpath.normpath(posixpath.join(directory, relative.group(1)))
            continue
        first = _CD_FIRST.match(line)
        if directory is not None and line and not first:
            line = f"cd {directory} && {line}"
        if _MOVES.search(argument):  # where it leaves the shell: its own first cd, if that is its only one
            directory = first.group(1) if first and len(_MOVES.findall(line)) == 1 else None
        command = absolute_runs(line, view.instruction or "")
        if not command or len(command) > COMMAND_CHARS or command in kept or only_looks(command):
            continue
        kept.append(command)
    return kept[-COMMANDS_PER_TASK:]


def copied_answer(command: str, printed: list[str], instruction: str) -> bool:
    """True for a command that writes into a file one literal an earlier step printed and the
    instruction does not name: the answer read off the screen, not computed (run 22's json-read-port
    passed with `grep` printing the port, then `echo "5433" > /app/db_port.txt`). Its attempt teaches
    nothing another task can use, and its number would be wrong there."""
    if len(command) > COMMAND_CHARS:  # never kept, and the pattern need not read 100 kB of a hostile one
        return False
    match = _LITERAL_WRITE.match(command.strip())
    if match is None:
        return False
    value = match.group(2).replace("\\n", " ").strip()
    if not value or value.startswith("#!") or value in instruction:  # a script's first line is written, not read
        return False
    token = re.compile(r"(?<![\w.-])" + re.escape(value) + r"(?![\w.-])")
    return any(token.search(output[:100_000]) for output in printed)


def absolute_runs(command: str, instruction: str) -> str:
    """`command` with each program it runs by a relative path (`./sum.sh`) named instead by the one
    absolute path of the instruction that ends with it (`/app/sum.sh`); "" (not kept) when the
    instruction names no such path, or more than one. A command that `cd`s before its first such run
    made its own directory, and is kept as it is."""
    first = _RELATIVE_RUN.search(command)
    if first is None or _CD.search(command[:first.start(2)]):
        return command
    paths = {path.rstrip(".") for path in _ABSOLUTE.findall(instruction)}  # a sentence's full stop is not the path's
    missing = []

    def absolute(match: re.Match) -> str:
        found = [path for path in paths if path.endswith("/" + match.group(2))]
        if len(found) != 1:
            missing.append(match.group(2))
            return match.group(0)
        return match.group(1) + found[0]

    written = _RELATIVE_RUN.sub(absolute, command)
    return "" if missing else written


def only_looks(command: str) -> bool:
    """True for a command that reads and changes nothing (`ls`, `cat x`, `git status`), as far as
    its first program and a redirection tell."""
    first = _PROGRAM.match(command)
    program = first.group(1) if first else ""
    return program in LOOKS and ">" not in command and not _CHANGES.search(command)


def one_line(command: str) -> str:
    """A shell command as one line that means the same: its lines joined with "; " (with a space after
    a trailing backslash, an opening `then`, `do` or `else`, `{`, a pipe or `&&`), a here-document fed
    by printf instead (unfold_heredocs); "" for what cannot be (a quote open across lines, a
    here-document unfold_heredocs refuses) and for anything with a control character."""
    lines = unfold_heredocs(command.splitlines())
    if lines is None:
        return ""
    parts: list[str] = []
    for line, verbatim in lines:
        line = line.strip() if verbatim else " ".join(line.split())  # a here-document's text keeps its spaces
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
    return "; ".join(parts)


def unfold_heredocs(lines: list[str]) -> list[tuple[str, bool]] | None:
    """The lines with each here-document (`cmd <<'EOF'` ... `EOF`) as one line that feeds the same
    text: `printf '%s\\n' 'line' ... | cmd` (run 18's sqlite-create-table passed with one, and a
    dropped command teaches nothing). None where that would not mean the same: two on a line, a line
    that does more than the one command (`;`, `&`, `|`, a subshell), an unquoted delimiter over text
    the shell would expand (`$`, a backtick, a backslash), an empty or unterminated body. The one
    difference left: the command runs in a pipe's subshell (`read` would not set its variable). Each
    line comes with whether it is such a printf, whose quoted text must keep its spaces."""
    out: list[tuple[str, bool]] = []
    at = 0
    while at < len(lines):
        line = lines[at]
        found = list(_HEREDOC.finditer(line))
        at += 1
        if not found:
            if "<<" in line.replace("<<<", ""):  # a form not understood (`<< $END`, `<<EOF<<X`)
                return None
            out.append((line, False))
            continue
        if len(found) > 1:
            return None
        match = found[0]
        head = (line[:match.start()] + " " + line[match.end():]).strip()
        if not head or re.search(r"[;&|()`<]", head.replace("<<<", "")):
            return None
        strip_tabs, quoted, end = match.group(1) == "-", bool(match.group(2)), match.group(3)
        text: list[str] = []
        while at < len(lines) and (lines[at].lstrip("\t") if strip_tabs else lines[at]) != end:
            text.append(lines[at].lstrip("\t") if strip_tabs else lines[at])
            at += 1
        if at == len(lines) or not text or not quoted and re.search(r"[$`\\]", "".join(text)):
            return None
        at += 1
        out.append(("printf '%s\\n' " + " ".join(shlex.quote(t) for t in text) + " | " + " ".join(head.split()),
                    True))
    return out

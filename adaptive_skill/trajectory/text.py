"""Commands and outputs as readers need them: the one command normaliser (the key that spots a
command run again, whatever its spacing, quoting or path spelling), the short form of a long
command, cut lists, and terminal noise removed from outputs."""

from __future__ import annotations

import re
import shlex

_HEREDOC = re.compile(r"<<-?\s*(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\1")
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
_SHLEX_LIMIT = 400
# Programs whose exit code 1 means "no" (no match, files differ), not "broken".
_QUERY_PROGRAMS = {"grep", "egrep", "fgrep", "rg", "diff", "cmp", "test", "[", "[[", "which", "pgrep",
                   "command", "type", "git-diff", "ag"}


def clean_output(text: str) -> str:
    """Without colour codes and carriage returns."""
    return _ANSI.sub("", text).replace("\r\n", "\n").replace("\r", "\n")


def split_command(command: str) -> list[str]:
    """Shell words with quoting removed and operators (|, &&, ;) as their own words; a command
    shlex cannot read (an apostrophe in a here-document) falls back to whitespace, and so does a
    long one (a file written inline), where shlex would cost milliseconds and quoting rarely differs."""
    if len(command) > _SHLEX_LIMIT:
        return command.split()
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    try:
        return list(lexer)
    except ValueError:
        return command.split()


# What differs between two runs of the same command without meaning anything: clocks, durations,
# addresses and hashes, temporary names, process ids and ports, `file:line` numbers. Counters and
# tallies stay (a counter that moves is a different output).
_VOLATILE = [  # (pattern, replacement, a substring the text must hold for the pattern to apply: a cheap skip)
    (re.compile(r"\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z| ?[+-]\d{2}:?\d{2})?"), "<time>", ":"),
    (re.compile(r"\b20\d{6}[T_-]?\d{4,6}(?:Z|[+-]\d{4})?\b"), "<time>", "20"),  # 20260304T104512 in a name
    (re.compile(r"\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b"), "<time>", ":"),
    # durations, Go's 1m0s and 2h3m4.5s too
    (re.compile(r"\b(?:\d+h)?(?:\d+m)?\d+(?:\.\d+)?\s?(?:ms|s|sec|secs|seconds?|µs|us|ns)\b"), "<duration>", ""),
    (re.compile(r"\b0x[0-9a-fA-F]+\b"), "<addr>", "0x"),
    (re.compile(r"\b[0-9a-f]{12,}\b"), "<hex>", ""),
    (re.compile(r"/(?:tmp|var/tmp|dev/shm|var/folders)/[^\s:'\"()\[\]]+"), "<tmp>", "/"),
    (re.compile(r"\b(?:pytest-(?:of-\w+/pytest-)?|tmp)\d+\b"), "<tmp>", ""),
    (re.compile(r"\b(pid|process|port|worker|thread)\b(\s*[=:#]?\s*)\[?\d+\]?", re.IGNORECASE), r"\1\2<n>", ""),
    (re.compile(r"\[\d{3,}\]"), "[<n>]", "["),
    (re.compile(r"(\.\w{1,4}|Makefile|\)):\d+(?::\d+)?(?=[:\s,)]|$)", re.MULTILINE), r"\1:<line>", ":"),
]
# In an error, measured values (floats with 3+ decimals or 3+ digits before the point), sizes
# with a unit, addresses and large numbers (offsets, ids) also differ from run to run, and so do the
# pid and the echoed command of a shell's job line (`bash: line 1:  812 Killed  python3 x.py`);
# small integers stay (`assert 1 == 2` is not `assert 3 == 2`).
_ERROR_NUMBERS = [
    (re.compile(r"^(\S+: line \d+: )\s*\d+ +(Killed|Terminated|Aborted|Segmentation fault|Hangup)\b.*$", re.MULTILINE),
     r"\1<pid> \2"),
    (re.compile(r"\b\d+(?:\.\d+)?\s?(?:[KMGTP]i?B|[kKMGT]B?|bytes?)\b"), "<size>"),
    (re.compile(r"\b\d+#\d+\b|(?<=\*)\d+\b"), "<n>"),  # a log's pid#thread (nginx: `434#434: *17`), a connection id
    (re.compile(r"\b\d{1,3}(?:\.\d{1,3}){3}\b"), "<ip>"),
    (re.compile(r"(?<![\w.])-?(?:\d+\.\d{3,}|\d{3,}\.\d+)\b"), "<num>"),
    (re.compile(r"(?<![\w.])\d{4,}\b(?!\s*(?:failed|passed|errors?|failures?|tests?|skipped|warnings?)\b)"), "<num>"),
]


def mask_volatile(text: str, keep_durations: bool = False) -> str:
    """The text with what changes from run to run masked (see _VOLATILE); with `keep_durations`,
    durations stay (a benchmark's time is its result, not noise)."""
    for pattern, replacement, needs in _VOLATILE:
        if needs in text and not (keep_durations and replacement == "<duration>"):
            text = pattern.sub(replacement, text)
    return text


def mask_error(text: str) -> str:
    """An error line as a key: volatile parts and measured values masked, so the same failure reads
    the same each time it comes back."""
    text = mask_volatile(text)
    for pattern, replacement in _ERROR_NUMBERS:
        text = pattern.sub(replacement, text)
    return text


def command_segments(command: str) -> list[str]:
    """The simple commands of a command line, as written: split on `&&`, `||`, `;` and line ends
    outside quotes. A command with a here-document stays whole (its body is not commands)."""
    if "<<" in command:
        return [command.strip()] if command.strip() else []
    parts, current, quote, i = [], "", None, 0
    while i < len(command):
        char = command[i]
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif command.startswith(("&&", "||"), i) or char in ";\n":
            parts.append(current)
            current = ""
            i += 2 if char in "&|" else 1
            continue
        current += char
        i += 1
    return [p.strip() for p in [*parts, current] if p.strip()]


def normalize_path(token: str, cwd: str | None) -> str:
    if "/" not in token or "://" in token:
        return token
    path = re.sub(r"/{2,}", "/", token)
    if cwd and cwd != "/" and (path == cwd or path.startswith(cwd + "/")):
        path = path[len(cwd):].lstrip("/") or "."
    while path.startswith("./"):
        path = path[2:]
    return path.rstrip("/") or "/"


def normalize_command(command: str, cwd: str | None = None) -> str:
    """The one canonical form of a shell command: whitespace, quoting, a trailing `;`, and
    `./x` vs `x` vs `<cwd>/x` all agree, so `ls  -la;` and `ls -la` are the same command run again."""
    words = [normalize_path(word, cwd) for word in split_command(command.strip())]
    while words and words[-1] in (";", "&"):
        words.pop()
    return " ".join(words)


def normalize_action(tool: str | None, argument: str, cwd: str | None = None) -> str:
    """One canonical form per action of any tool."""
    if tool != "bash":
        return f"{tool}:{' '.join(argument.split())}"
    return "bash:" + normalize_command(argument, cwd)


def program(command: str) -> str:
    words = split_command(command.lstrip().split("\n", 1)[0][:200])
    while words and "=" in words[0] and not words[0].startswith("="):  # VAR=value prefixes
        words = words[1:]
    if words and words[0] in ("sudo", "env", "time", "nice", "!"):
        words = words[1:]
    return words[0].rsplit("/", 1)[-1] if words else ""


def is_query(command: str) -> bool:
    """A single query command (grep, diff, test...) whose exit code 1 is an answer."""
    if any(op in command for op in ("|", "&&", ";", "||", "\n")):
        return False
    return program(command) in _QUERY_PROGRAMS


def short_command(command: str, keep_lines: int = 2, line_chars: int = 200) -> str:
    """A command cut for reading, never dropped: a heredoc keeps its opening line and everything
    after its terminator (what actually ran on the written file); other long commands keep their
    first and last lines. The count of elided lines is always said."""
    lines = command.strip("\n").splitlines() or [""]
    if len(lines) <= 2 * keep_lines + 1:
        return "\n".join(clip(line, line_chars) for line in lines)
    if match := _HEREDOC.search(lines[0]):
        terminator = match.group(2)
        end = next((i for i in range(1, len(lines)) if lines[i].strip() == terminator), None)
        if end is not None:
            after = lines[end:end + 1 + keep_lines]
            rest = len(lines) - end - len(after)
            shown = [lines[0], f"  [... heredoc body: {end - 1} lines ...]", *after]
            if rest > 0:
                shown.append(f"  [... {rest} more lines ...]")
            return "\n".join(clip(line, line_chars) for line in shown)
    omitted = len(lines) - 2 * keep_lines
    shown = [*lines[:keep_lines], f"  [... {omitted} more lines ...]", *lines[-keep_lines:]]
    return "\n".join(clip(line, line_chars) for line in shown)


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 3] + "..."


def head_tail(lines: list[str], limit: int, what: str = "lines") -> list[str]:
    """At most `limit` of `lines`, the first and the last, the last preferred (a failure's last
    line is usually its cause), with the number left out said in between."""
    if len(lines) <= limit:
        return list(lines)
    head = limit // 2
    tail = limit - head
    return [*lines[:head], f"[... {len(lines) - limit} more {what} ...]", *(lines[-tail:] if tail else [])]

"""Reading commands and outputs the way the detectors need them: one canonical form per action,
one fingerprint per output that ignores what changes on every run (timings, clocks, ids)."""

from __future__ import annotations

import hashlib
import re
import shlex

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
# What differs between two runs of the same failing command without meaning anything.
_VOLATILE = [
    (re.compile(r"\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?"), "<time>"),
    (re.compile(r"\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b"), "<time>"),
    (re.compile(r"\b\d+(?:\.\d+)?\s?(?:ms|s|sec|secs|seconds?|µs|us|ns)\b"), "<duration>"),
    (re.compile(r"\b0x[0-9a-fA-F]+\b"), "<addr>"),
    (re.compile(r"\b[0-9a-f]{12,}\b"), "<hex>"),
    (re.compile(r"/tmp/[\w.-]*(?:tmp|temp)[\w.-]*", re.IGNORECASE), "<tmp>"),
    (re.compile(r"\b(pid|process|port)\s*[=:]?\s*\d+", re.IGNORECASE), r"\1 <n>"),
]
_SPACE = re.compile(r"[ \t]+")
_ERROR_LINE = re.compile(r"error|exception|fail|fatal|denied|refused|not found|no such|cannot|can't|unable"
                         r"|invalid|traceback|abort|timed? ?out|panic|(?-i:^E\s)", re.IGNORECASE)  # E: pytest's lines
# Commands that wait on purpose: polling them several times is expected, not a loop.
_WAITS = re.compile(r"\b(sleep|wait|timeout|until|watch|retry|wait-for-it)\b|--retry")
# Programs whose exit code 1 means "no" (no match, files differ), not "broken".
_QUERY_PROGRAMS = {"grep", "egrep", "fgrep", "rg", "diff", "cmp", "test", "[", "[[", "which", "pgrep",
                   "command", "type", "git-diff", "ag"}
_CD = re.compile(r"(?:^|[;&|]\s*)cd\s+(/[^\s;&|]*)")
_HEAD_TAIL = 4000
_SHLEX_LIMIT = 400


def clean_output(text: str) -> str:
    return _ANSI.sub("", text).replace("\r\n", "\n").replace("\r", "\n")


def head_tail(text: str, limit: int = _HEAD_TAIL) -> str:
    return text if len(text) <= 2 * limit else f"{text[:limit]}\n...\n{text[-limit:]}"


def mask_volatile(text: str) -> str:
    for pattern, replacement in _VOLATILE:
        text = pattern.sub(replacement, text)
    return text


def fingerprint(output: str) -> str:
    """Equal for two outputs that differ only in timings, clocks, addresses, temp names, spacing."""
    text = mask_volatile(head_tail(clean_output(output)))
    lines = [_SPACE.sub(" ", line).strip() for line in text.split("\n")]
    canonical = "\n".join(line for line in lines if line)
    return hashlib.blake2b(canonical.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()


def error_line(output: str, keep: int = 4) -> str:
    """What went wrong, as the output says it: its last few lines that look like errors (the
    traceback's frames and the test runner's tallies differ as the error changes), else the last
    non-empty line; volatile parts masked, so the same failure always reads the same."""
    lines = [line.strip() for line in clean_output(head_tail(output, 2000)).split("\n") if line.strip()]
    if not lines:
        return ""
    chosen = [line for line in lines if _ERROR_LINE.search(line)][-keep:] or lines[-1:]
    return " | ".join(_SPACE.sub(" ", mask_volatile(line))[:200] for line in chosen)


def normalize_path(token: str, cwd: str | None) -> str:
    if "/" not in token or "://" in token:
        return token
    path = re.sub(r"/{2,}", "/", token)
    if cwd and cwd != "/" and (path == cwd or path.startswith(cwd + "/")):
        path = path[len(cwd):].lstrip("/") or "."
    while path.startswith("./"):
        path = path[2:]
    return path.rstrip("/") or "/"


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


def normalize_action(tool: str | None, argument: str, cwd: str | None = None) -> str:
    """One canonical form per action: whitespace, quoting, `./x` vs `x` vs `<cwd>/x` all agree."""
    if tool != "bash":
        return f"{tool}:{' '.join(argument.split())}"
    words = [normalize_path(word, cwd) for word in split_command(argument.strip())]
    while words and words[-1] in (";", "&"):
        words.pop()
    return "bash:" + " ".join(words)


def waits(command: str) -> bool:
    return bool(_WAITS.search(command))


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


def cd_target(command: str) -> str | None:
    """The last absolute directory the command changes into, if any."""
    targets = _CD.findall(command)
    return normalize_path(targets[-1], None).rstrip("/") or "/" if targets else None


_WORDS = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.\-/]*[A-Za-z0-9_]")
_STOPWORDS = frozenset("""a an and are as at be by can do does done each for from has have how if in into is it
its make must not of on one or so such than that the their them then there these this to use used uses using
was were what when where which while will with without you your should would could also all any only other
file files task please ensure sure new output run running""".split())


def keywords(text: str) -> set[str]:
    """Words and paths that name things in the instruction; paths also by their parts."""
    found: set[str] = set()
    for word in _WORDS.findall(text.lower()):
        parts = {word, *[p for p in re.split(r"[/.]", word) if p]}
        found.update(p for p in parts if len(p) >= 3 and p not in _STOPWORDS and not p.isdigit())
    return found

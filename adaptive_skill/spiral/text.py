"""Reading outputs the way the detectors need them: one fingerprint per output that ignores what
changes on every run (timings, clocks, ids), and the error signature's line. Commands are
normalised by the kernel (adaptive_skill.trajectory.text), error lines found by its one finder."""

from __future__ import annotations

import hashlib
import re

from adaptive_skill.trajectory.failures import error_lines
from adaptive_skill.trajectory.text import clean_output, mask_error, mask_volatile, normalize_path

_SPACE = re.compile(r"[ \t]+")
# Commands that wait on purpose: polling them several times is expected, not a loop.
# A waiting program in command position (not `go test -timeout 30s`), or a retry option.
_WAITS = re.compile(r"(?:^|[;&|(]\s*|\b(?:do|then|-c\s+['\"]?)\s*)"
                    r"(?:sleep|wait|timeout|until|watch|wait-for-it|inotifywait)\b|--retry|\bretry\b", re.MULTILINE)
_CD = re.compile(r"(?:^|[;&|]\s*)cd\s+(/[^\s;&|]*)")
_HEAD_TAIL = 4000


def head_tail(text: str, limit: int = _HEAD_TAIL) -> str:
    return text if len(text) <= 2 * limit else f"{text[:limit]}\n...\n{text[-limit:]}"


def fingerprint(output: str, keep_durations: bool = False) -> str:
    """Equal for two outputs that differ only in timings, clocks, addresses, temp names, spacing
    (timings stay with `keep_durations`: when the task is about speed they are the result)."""
    text = mask_volatile(head_tail(clean_output(output)), keep_durations)
    lines = [_SPACE.sub(" ", line).strip() for line in text.split("\n")]
    canonical = "\n".join(line for line in lines if line)
    return hashlib.blake2b(canonical.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()


def error_line(output: str, keep: int = 4) -> str:
    """What went wrong, as the output says it: its last few lines that look like errors (the
    traceback's frames and the test runner's tallies differ as the error changes), else the last
    non-empty line; volatile parts masked, so the same failure always reads the same."""
    chosen = error_lines(head_tail(output, 2000), frames=False, fallback=1)[-keep:]
    return " | ".join(_SPACE.sub(" ", mask_error(line.strip()))[:200] for line in chosen)


def waits(command: str) -> bool:
    return bool(_WAITS.search(command))


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


# The things an instruction names: `quoted` names, paths and file names, calls (`paginate()`),
# snake_case and camelCase identifiers, endpoints (`/stats`).
_OBJECT = re.compile(r"`([^`\n]{2,60})`|(?<![\w.-])(/?(?:[\w.-]+/)*[\w-]+\.[A-Za-z]\w{0,5}\b|/?(?:[\w.-]+/)+[\w.-]+"
                     r"|/[a-z][\w-]{2,}|[A-Za-z_]\w*\(\)|[a-z][a-z0-9]*_[a-z0-9_]+|[a-z]+[A-Z]\w+)")


def task_objects(text: str) -> set[str]:
    """The files, paths and names an instruction is about, lower case; a path also by its file
    name and stem (`src/pager.py`: `pager.py`, `pager`), a call without its parentheses."""
    found: set[str] = set()
    for quoted, bare in _OBJECT.findall(text):
        name = (quoted or bare).lower().rstrip(".,:;")
        name = name[:-2] if name.endswith("()") else name
        parts = {name, name.rsplit("/", 1)[-1]}
        parts |= {p.rsplit(".", 1)[0] for p in list(parts) if "." in p}
        found.update(p for p in parts if len(p) >= 4 and p.strip("/") not in _STOPWORDS)
    return found

"""What a command is trying to do, beyond its words: install a package, search for something,
poll a service, set a value. Two commands with other tools or spellings (`pip install x`,
`python3 -m pip install 'x>=1'`, `pip3 install --user x`) have one intent. Read from the command
text only; None when a command is none of these."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from adaptive_skill.trajectory.text import program, split_command

_INSTALLERS = re.compile(
    r"^(?:sudo\s+)?(?:(?:python3?(?:\.\d+)?\s+-m\s+pip|pip3?|uv\s+pip|pipx)\s+install"
    r"|apt(?:-get)?\s+(?:-\S+\s+)*install|npm\s+(?:install|i|add)|yarn\s+add|conda\s+install"
    r"|mamba\s+install|gem\s+install|cargo\s+install|apk\s+add)\b(?P<rest>.*)$")
_VERSION = re.compile(r"[<>=~!;@\[].*$")
_OPTION_VALUE = {"-r", "-c", "-e", "-i", "--index-url", "--extra-index-url", "-t", "--target", "--prefix",
                 "--no-binary", "--only-binary", "-f", "--find-links", "--root", "--platform"}
_SEARCHERS = {"grep", "egrep", "fgrep", "rg", "ag", "ack", "find", "locate", "fd", "fdfind"}
_POLLERS = {"curl", "wget", "nc", "http", "ping", "pg_isready", "redis-cli", "mysqladmin"}
_TARGET = re.compile(r"(?:https?://)?(?P<host>localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\]|[\w.-]+\.\w+|[\w-]+)"
                     r":(?P<port>\d{2,5})(?P<path>/[\w./-]*)?")
_NC_TARGET = re.compile(r"\bnc\s+(?:-\w+\s+)*(?P<host>[\w.-]+)\s+(?P<port>\d{2,5})")
_LOCAL = {"127.0.0.1", "0.0.0.0", "[::1]"}
@dataclass(frozen=True)
class Intent:
    kind: str  # install | search | poll
    key: str  # equal for the same intent


@lru_cache(maxsize=1024)
def intent_of(command: str) -> Intent | None:
    first = command.strip().split("\n", 1)[0]
    for segment in re.split(r"\s*(?:&&|\|\||;)\s*", first):
        segment = re.sub(r"^(?:sleep\s+\S+|cd\s+\S+|timeout\s+\S+)\s*", "", segment.strip())
        if match := _INSTALLERS.match(segment):
            packages = _packages(match.group("rest"))
            if packages:
                return Intent("install", " ".join(sorted(packages)))
    if target := _poll_target(first):
        return Intent("poll", target)
    words = split_command(first[:300])
    if program(first) in _SEARCHERS or words[:2] == ["git", "grep"] or "xargs grep" in first:
        return Intent("search", "")
    return None


def _packages(rest: str) -> set[str]:
    return {name for name, _ in package_specs(rest)}


def is_install(segment: str) -> bool:
    """The command installs packages (named, or a manifest's: `npm install`, `pip install -r ...`)."""
    return bool(_INSTALLERS.match(re.sub(r"^(?:sudo\s+)", "", segment.strip())))


def install_segments(command: str) -> list[list[tuple[str, str]]]:
    """The package specs of each install in a command's first line: [(name, version spec)]."""
    found = []
    for segment in re.split(r"\s*(?:&&|\|\||;)\s*", command.strip().split("\n", 1)[0]):
        segment = re.sub(r"^(?:sleep\s+\S+|cd\s+\S+|timeout\s+\S+)\s*", "", segment.strip())
        if (match := _INSTALLERS.match(segment)) and (specs := package_specs(match.group("rest"))):
            found.append(specs)
    return found


def package_specs(rest: str) -> list[tuple[str, str]]:
    """(name, version spec) of each package an installer's arguments name: `'psycopg2>=2.7,<2.8'`
    is ("psycopg2", ">=2.7,<2.8"), `date-fns@^3` is ("date-fns", "^3"), a bare name has spec ""."""
    found: list[tuple[str, str]] = []
    skip = False
    for word in split_command(rest):
        if skip:
            skip = False
            continue
        if word in ("|", ">", "&", "2>&1") or word.startswith(">"):
            break
        if word in _OPTION_VALUE:
            skip = True
            continue
        if word.startswith(("-", ":")):
            continue
        word = word.strip("'\"")
        name = _VERSION.sub("", word).lower().replace("_", "-")
        if name and re.fullmatch(r"[a-z0-9][a-z0-9.+-]*", name) and name not in {n for n, _ in found}:
            found.append((name, word[len(name):].lstrip("@")))
    return found


def _poll_target(command: str) -> str | None:
    if not any(re.search(rf"(?<![\w-]){p}(?![\w-])", command) for p in _POLLERS):
        return None
    match = _TARGET.search(command) or _NC_TARGET.search(command)
    if not match:
        return None
    host = match.group("host")
    host = "localhost" if host in _LOCAL else host
    path = (match.groupdict().get("path") or "").rstrip("/")
    return f"{host}:{match.group('port')}{path}"


_TARGETS = re.compile(r"(?<![\w.-])(?:[\w.-]+/)*[\w-]+\.[A-Za-z]\w{0,5}\b|(?<![\w.-])(?:[\w.-]+/)+[\w.-]+")


_SED_SCRIPT = re.compile(r"^s([/|#,:]).*\1.*\1\w*$")


@lru_cache(maxsize=1024)
def targets(command: str) -> frozenset[str]:
    """The files and directories a command names: what it works on (not a sed script's words)."""
    words = [w for w in split_command(command.split("<<", 1)[0][:400]) if " " not in w and not _SED_SCRIPT.match(w)]
    return frozenset(t for w in words for t in _TARGETS.findall(w) if not t.startswith(("/dev/", "/tmp/")))

"""What a command is trying to do, beyond its words: install a package, look something up, poll a
service. Two commands with other tools or spellings (`pip install x`, `python3 -m pip install
'x>=1'`, `pip3 install --user x`; `which pg_dump`, `find / -name pg_dump`, `dpkg -S bin/pg_dump`;
`curl localhost:5432`, `pg_isready -h 127.0.0.1`, `ss -ltn | grep :5432`) have one intent. A
waiting command with no service to name polls what it runs after the wait (`sleep 20; ls out |
wc -l`). Read from the command text only; None when a command is none of these."""

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
# Look-ups: searches of files and of what is installed, whatever the tool.
_SEARCHERS = {"grep", "egrep", "fgrep", "rg", "ag", "ack", "find", "locate", "fd", "fdfind", "which", "whereis",
              "compgen", "apropos"}
_LOOKUPS = re.compile(r"^(?:command\s+-v|type\s+-[aptP]+|dpkg\s+-[SLl]|dpkg-query"
                      r"|apt-cache\s+(?:search|policy|show|madison)|apt\s+(?:list|search|show)|go\s+(?:doc|list)|pip3?\s+(?:show|list|index)|npm\s+(?:ls|view|search)"
                      r"|git\s+(?:grep|log\s+.*(?:-S|-G|--grep)))\b")
_POLLERS = {"curl", "wget", "nc", "http", "ping", "pg_isready", "psql", "redis-cli", "mysqladmin", "ss", "netstat",
            "lsof"}
_DEFAULT_PORTS = {"pg_isready": "5432", "psql": "5432", "redis-cli": "6379", "mysqladmin": "3306"}
_TARGET = re.compile(r"(?:https?://)?(?P<host>localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\]|[\w.-]+\.\w+|[\w-]+)"
                     r":(?P<port>\d{2,5})(?P<path>/[\w./-]*)?")
_NC_TARGET = re.compile(r"\bnc\s+(?:-\w+\s+)*(?P<host>[\w.-]+)\s+(?P<port>\d{2,5})")
_HOST_OPTION = re.compile(r"(?:^|\s)(?:-h|--host(?:=|\s))\s*(?P<host>[\w.-]+)")
_PORT_OPTION = re.compile(r"(?:^|\s)(?:-p|--port(?:=|\s))\s*(?P<port>\d{2,5})\b")
_LISTENING = re.compile(r"\b(?:ss|netstat|lsof)\b.*?(?::|sport = :|-i\s*:)(?P<port>\d{2,5})\b")
_WAIT = re.compile(r"^\s*(?:sleep\s+\S+\s*(?:;|&&)\s*)+(?P<rest>.+)$")
_LOCAL = {"127.0.0.1", "0.0.0.0", "[::1]", "localhost"}
_STATUS = re.compile(r"^\s*(?:docker\s+(?:inspect|ps|container\s+inspect)|docker[\s-]compose\s+ps"
                     r"|podman\s+(?:inspect|ps)|systemctl\s+(?:status|is-active|is-failed)|supervisorctl\s+status"
                     r"|kubectl\s+(?:get|describe)\s+pods?|service\s+(?P<name>\S+)\s+status)\b(?P<args>.*)$")
_LOOK_AT = re.compile(r"^\s*(?:ls|stat|test\s+-[efsd]|\[\s+-[efsd]|inotifywait(?:\s+-\S+(?:\s+\d+|\s+\w+)?)*)"
                      r"\s+(?P<args>.*)$")

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
    waited = _WAIT.match(first)
    rest = waited.group("rest") if waited else first
    if service := _service(rest):  # `docker inspect -f ... db`, `systemctl is-active app`, `supervisorctl status app`
        return Intent("poll", f"service:{service}")
    if watched := _watched_path(rest):  # `ls /data/incoming/*.csv`, `sleep 60; test -f x`: a path looked at
        return Intent("poll", f"path:{watched}")
    bare = re.sub(r"^(?:sudo\s+|[A-Z_]+=\S+\s+)+", "", first)
    if program(first) in _SEARCHERS or _LOOKUPS.match(bare) or "xargs grep" in first:
        return Intent("search", "")
    if waited:  # `sleep 20; wc -l < out.csv`: waiting on what the command reads
        return Intent("poll", "wait:" + " ".join(split_command(rest[:300])))
    return None


def _service(command: str) -> str | None:
    """The service or container whose state a command asks for, by its last name part: compose's
    `todo-db-1` and `db` are one container."""
    match = _STATUS.match(command)
    if not match:
        return None
    words = [w for w in split_command(match.group("args")[:300]) if w in ("|", "&&") or not w.startswith("-")]
    words = words[:words.index("|")] if "|" in words else words
    names = [w.removeprefix("name=") for w in words if re.fullmatch(r"(?:name=)?[A-Za-z][\w.@-]*", w)]
    name = match.group("name") or (names[-1] if names else None)
    return re.sub(r"-\d+$", "", name).rsplit("-", 1)[-1] if name else None


def _watched_path(command: str) -> str | None:
    """The directory a command looks at to see whether something appeared: `ls`, `stat`, `test -e`,
    `[ -f x ]`, `inotifywait ... DIR` (a listing piped to `wc -l` too)."""
    match = _LOOK_AT.match(command)
    if not match:
        return None
    paths = [w for w in split_command(match.group("args")[:300]) if not w.startswith("-") and w not in ("]", "|")]
    if not paths or paths[0] in ("wc", "head", "tail", "grep", "sort"):
        return None
    path = paths[0].rstrip("/") or "/"
    if re.search(r"[*?\[]", path) or re.search(r"\.\w{1,5}$", path):
        path = path.rsplit("/", 1)[0] if "/" in path else "."
    return path


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
    """The service a command asks after, as host:port (one service whatever the endpoint)."""
    pollers = [p for p in _POLLERS if re.search(rf"(?<![\w-]){p}(?![\w-])", command)]
    if not pollers:
        return None
    host, port = None, None
    if match := _TARGET.search(command) or _NC_TARGET.search(command):
        host, port = match.group("host"), match.group("port")
    elif match := _LISTENING.search(command):
        host, port = "localhost", match.group("port")
    elif defaults := [_DEFAULT_PORTS[p] for p in pollers if p in _DEFAULT_PORTS]:
        host = (m.group("host") if (m := _HOST_OPTION.search(command)) else "localhost")
        port = m.group("port") if (m := _PORT_OPTION.search(command)) else defaults[0]
    if port is None:
        return None
    host = "localhost" if host in _LOCAL or host.startswith("/") else host
    return f"{host}:{port}"


_TARGETS = re.compile(r"(?<![\w.-])(?:[\w.-]+/)*[\w-]+\.[A-Za-z]\w{0,5}\b|(?<![\w.-])(?:[\w.-]+/)+[\w.-]+")


_SED_SCRIPT = re.compile(r"^s([/|#,:]).*\1.*\1\w*$")


@lru_cache(maxsize=1024)
def targets(command: str) -> frozenset[str]:
    """The files and directories a command names: what it works on (not a sed script's words)."""
    words = [w for w in split_command(command.split("<<", 1)[0][:400]) if " " not in w and not _SED_SCRIPT.match(w)]
    return frozenset(t for w in words for t in _TARGETS.findall(w) if not t.startswith(("/dev/", "/tmp/")))

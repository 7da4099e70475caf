"""Checks of the final state: the label-free estimate looks at the world, not only at the transcript.

A checker (the judge's model) writes a few read-only shell commands from the task's instruction
alone: never the agent's record, the tests, the solution or a reward. They are written once per task
(the instruction is the same for every attempt, so every attempt is checked by the same commands)
and run on each attempt's state (sandbox/state.py) in a fresh container of the task's image: the
state's tars are unpacked there over the image's own paths, so the programs that run are the
image's, not ones the agent may have replaced, and nothing the checks do reaches the attempt's
container, the tests, the gate or the curve. Each command runs as an unprivileged user (`nobody`,
where the image has it; so it reads and cannot write), from the task's working directory, with a
clean environment (`env -i`,
a fixed PATH, no profile or rc file, git configured to run no pager, fsmonitor or hook), without
network, time-limited, its output cut. What they printed goes to the judge beside the compressed
trajectory (observe/judge.py), and their hash is the attempt's fingerprint: attempts of one task
whose checks print the same agree (benchmarks/probes/estimate_probe.py measures that lever).
"""

from __future__ import annotations

import hashlib
import json
import re
import shlex
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from adaptive_skill.llm.base import LLMError, StructuredOutputError
from adaptive_skill.observe.cache import VerdictCache, content_key
from adaptive_skill.protocols import LLM
from adaptive_skill.sandbox.base import truncate_middle
from adaptive_skill.sandbox.state import FORBIDDEN, load_state
from adaptive_skill.tasks.model import Task

CHECKS_VERSION = 1
MAX_CHECKS = 3
COMMAND_MAX_CHARS = 200
OUTPUT_MAX_CHARS = 600
CHECK_TIMEOUT_SEC = 10.0
STAGING = "/tmp/.adaptive-skill-state"
# What the checks run with: nothing of the agent's environment, rc files or git configuration can
# choose a program or run one (config given this way outranks the repository's own .git/config).
_GIT_SAFE = {"core.fsmonitor": "false", "core.pager": "cat", "core.hooksPath": "/dev/null",
             "safe.directory": "*", "diff.external": "", "core.editor": "true"}
CLEAN_ENV = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME": "/nonexistent",
             "LANG": "C.UTF-8", "TERM": "dumb", "PAGER": "cat", "GIT_PAGER": "cat", "GIT_CONFIG_NOSYSTEM": "1",
             "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_TERMINAL_PROMPT": "0",
             "GIT_CONFIG_COUNT": str(len(_GIT_SAFE)),
             **{f"GIT_CONFIG_KEY_{i}": k for i, k in enumerate(_GIT_SAFE)},
             **{f"GIT_CONFIG_VALUE_{i}": v for i, v in enumerate(_GIT_SAFE.values())}}

# `look PATH`: what a path holds, whatever kind it is; defined in every check's shell, so the judge
# reads one short command per path the instruction names (the checks' first part, written by code).
LOOK = r"""look() {
  p=$1
  if [ ! -e "$p" ] && [ ! -L "$p" ]; then echo "$p: no such file or directory"; return 1; fi
  [ -L "$p" ] && echo "$p is a link to $(readlink "$p")"
  if [ -d "$p/.git" ]; then
    echo "git repository $p; commits:"; git -C "$p" log --all --format='%h %s%d' -n 8 2>&1 | head -n 8
    echo "branches:"; git -C "$p" branch -a 2>&1 | head -n 10
    echo "tags:"; git -C "$p" tag -n1 2>&1 | head -n 10
    echo "uncommitted:"; git -C "$p" status --short 2>&1 | head -n 10
  elif [ -d "$p" ]; then ls -la "$p" 2>&1 | head -n 25
  else
    ls -l "$p"
    case "$p" in
      *.db|*.sqlite|*.sqlite3)
        for t in $(sqlite3 -readonly "$p" "select name from sqlite_master where type='table'" 2>&1); do
          echo "table $t, $(sqlite3 -readonly "$p" "select count(*) from \"$t\"" 2>&1) rows:"
          sqlite3 -readonly -header "$p" "select * from \"$t\" limit 5" 2>&1; done;;
      *.tar|*.tar.gz|*.tgz) tar -tvf "$p" 2>&1 | head -n 15;;
      *.gz) gzip -l "$p" 2>&1 | head -n 3;;
      *.zip) python3 -m zipfile -l "$p" 2>&1 | head -n 15;;
      *) if [ ! -s "$p" ]; then echo "(empty)"; elif grep -qI . "$p" 2>/dev/null; then
           echo "$(wc -l < "$p") lines:"; head -n 15 "$p"; else echo "(binary)"; fi;;
    esac
  fi
}"""
MAX_LOOKS = 4
MODEL_CHECKS = 2  # of the model's, after the looks
# A model-written check is kept only when it reads: its first word one of these, and no redirection
# into a file (a small model writes the task's solution instead of a check: run 2026-12-02).
READ_ONLY = frozenset({"cat", "ls", "head", "tail", "wc", "stat", "file", "git", "sqlite3", "grep", "find",
                       "test", "[", "diff", "cmp", "readlink", "md5sum", "sha256sum", "sort", "uniq", "cut",
                       "awk", "python3", "zipinfo", "od", "du", "id", "getent", "look"})  # archives: look lists them
_WRITES = re.compile(r"(^|[^0-9&])>|\btee\b|\bsed\s+-i|\b(rm|mv|cp|chmod|chown|mkdir|touch|ln|kill)\b"
                     r"|\b(insert|update|delete|drop|create|alter)\b", re.IGNORECASE)
# git subcommands that only read; `branch` and `tag` only to list (no name, no -a/-d/-m/-f of tag).
_GIT = re.compile(r"\bgit\s+(?:-C\s+\S+\s+)?(\S+)(.*?)(?=[;&|]|$)")
_GIT_READS = frozenset({"log", "show", "status", "diff", "rev-parse", "rev-list", "ls-files", "cat-file",
                        "describe", "shortlog", "ls-tree", "grep", "for-each-ref", "show-ref"})
_LISTING = {"branch": {"-a", "--all", "-l", "--list", "-v", "-vv", "-r", "--show-current"},
            "tag": {"-l", "--list", "-n", "-n1", "-n5", "-n9"}}


def _git_writes(command: str) -> bool:
    for verb, rest in _GIT.findall(command):
        if verb in _GIT_READS:
            continue
        if verb in _LISTING and all(arg in _LISTING[verb] for arg in rest.split()):
            continue
        return True
    return False

SYSTEM_PROMPT = """You check whether a task in a Linux terminal was done, by looking at the final state of the machine.
You do not see what was done: write the commands from the task alone.

Write 1 to 3 shell commands, one line each, that only READ and whose output shows whether each requirement
of the task holds: print the file the task names (cat), list a directory (ls -la), show a git repository
(git -C DIR log --oneline --all, git -C DIR branch, git -C DIR tag -n, git -C DIR status --short), query a
database (sqlite3 DB "SELECT ..."), parse a JSON file (python3 -c ...), or run the script the task asks for.
Use the exact absolute paths of the task. Never change, create or delete anything."""

_EXAMPLE_TASK = "Save the names of the files in /srv/in, sorted, one per line, to /srv/names.txt."
_EXAMPLE_REPLY = '{"checks": ["cat /srv/names.txt", "ls -1 /srv/in"]}'


# An `ls -l` time ("Dec  2 09:34", "May  7  2026") and a commit or object hash (7-40 hex digits).
_CLOCK = re.compile(r"\b[A-Z][a-z]{2}\s+\d{1,2}\s+(\d{1,2}:\d{2}|\d{4})\b|\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])"
                    r"[0-9a-f]{7,40}\b")


class CheckPlan(BaseModel):
    checks: list[str] = Field(min_length=1, max_length=MAX_CHECKS,
                              description="read-only shell commands, one line each")


@dataclass(frozen=True)
class PlannedChecks:
    commands: list[str]
    refused: list[str] = field(default_factory=list)  # with why, as shown to a person
    error: str | None = None
    cached: bool = False


@dataclass
class CheckRun:
    command: str
    exit_code: int | None
    output: str
    timed_out: bool = False


@dataclass
class CheckedState:
    runs: list[CheckRun] = field(default_factory=list)
    error: str | None = None  # why nothing could be checked (no state, no isolated sandbox, ...)
    seconds: float = 0.0

    def fingerprint(self) -> str | None:
        """What the checks printed, as one hash, without what differs between two attempts that did the
        same (a listing's times, a commit's hash): attempts whose checks print the same agree."""
        if self.error or not self.runs:
            return None
        rows = [[r.command, r.exit_code, r.timed_out, _CLOCK.sub("~", r.output)] for r in self.runs]
        return hashlib.sha256(json.dumps(rows, ensure_ascii=False).encode()).hexdigest()

    def evidence(self) -> str | None:
        """The section the judge reads: each command and what it printed."""
        if self.error or not self.runs:
            return None
        parts = []
        for run in self.runs:
            status = "timed out" if run.timed_out else f"exit {run.exit_code}"
            parts.append(f"$ {run.command}\n({status})\n{run.output.rstrip() or '(no output)'}")
        return "\n\n".join(parts)

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "fingerprint": self.fingerprint()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CheckedState:
        return cls(runs=[CheckRun(**r) for r in data.get("runs", [])], error=data.get("error"),
                   seconds=float(data.get("seconds") or 0.0))


def _printable(text: str) -> str:
    return "".join(ch if ch.isprintable() else " " for ch in text)


def screen(commands: list[str]) -> tuple[list[str], list[str]]:
    """(commands to run, refusals): one printable line each, bounded, none naming the verifier's
    places (they do not exist where the checks run; a check that reaches for them is refused)."""
    kept, refused = [], []
    for raw in commands:
        command = " ".join(_printable(str(raw)).split())
        if not command:
            continue
        if len(command) > COMMAND_MAX_CHARS:
            refused.append(f"longer than {COMMAND_MAX_CHARS} characters: {command[:60]}...")
        elif any(place in command for place in FORBIDDEN if place not in ("/proc", "/dev", "/run")):
            refused.append(f"names the verifier's or the harness's files: {command[:100]}")
        elif command.split()[0] not in READ_ONLY or _git_writes(command) or _WRITES.search(
                command.replace("2>&1", "").replace("2>/dev/null", "")):
            refused.append(f"does not only read: {command[:100]}")
        elif command not in kept:
            kept.append(command)
    return kept[:MAX_CHECKS], refused


def looks(instruction: str) -> list[str]:
    """The checks written by code, from the instruction alone: `look PATH` for each path it names
    (up to MAX_LOOKS; the verifier's places and system directories never), else the working directory."""
    from adaptive_skill.sandbox.state import allowed_path, named_paths

    paths = [p for p in named_paths(instruction) if allowed_path(p)][:MAX_LOOKS]
    return [f"look {shlex.quote(p)}" for p in paths] or ["look ."]  # the checks start in the working directory


class Checker:
    """Writes the checks of a task (the judge's model, cached by instruction) and runs them on an
    attempt's state."""

    def __init__(self, llm: LLM | None, cache_dir: Path | None = None, worked_example: bool | None = None,
                 timeout: float = CHECK_TIMEOUT_SEC, ask_model: bool = True):
        """`worked_example`: one worked task and reply before the question; by default for a model
        measured to need a worked example of a structured reply (the embedded ones: the LLM's
        `evolver_demo`, docs/llm.md), never for an API model that does not."""
        self.llm = llm
        self.cache = VerdictCache(cache_dir) if cache_dir is not None else None
        self.worked_example = bool(getattr(llm, "evolver_demo", False)) if worked_example is None else worked_example
        self.timeout = timeout
        self.ask_model = ask_model and llm is not None

    def messages(self, instruction: str) -> list[dict[str, Any]]:
        messages = [{"role": "system", "content": SYSTEM_PROMPT}]
        if self.worked_example:  # a small model copies the shape of one worked answer
            messages += [{"role": "user", "content": f"# Task\n{_EXAMPLE_TASK}"},
                         {"role": "assistant", "content": _EXAMPLE_REPLY}]
        return messages + [{"role": "user", "content": f"# Task\n{instruction.strip()[:6000]}"}]

    def plan(self, instruction: str) -> PlannedChecks:
        """`look` at each path the instruction names, then the model's checks that only read (at most
        MODEL_CHECKS; none when the checker asks no model)."""
        own = looks(instruction)
        if not self.ask_model:
            return PlannedChecks(own)
        asked = self._ask(instruction)
        extra = [c for c in asked.commands if c not in own][:MODEL_CHECKS]
        return PlannedChecks(own + extra, asked.refused, error=asked.error, cached=asked.cached)

    def _ask(self, instruction: str) -> PlannedChecks:
        messages = self.messages(instruction)
        key = content_key({"checks": CHECKS_VERSION, "model": self.llm.model, "messages": messages})
        stored = self.cache.get(key) if self.cache is not None else None
        if stored is not None and isinstance(stored.get("checks"), list):
            kept, refused = screen(stored["checks"])
            return PlannedChecks(kept, refused, cached=True)
        try:
            reply = self.llm.complete_json(messages, CheckPlan)
        except (StructuredOutputError, LLMError) as exc:
            return PlannedChecks([], error=f"the checker wrote no checks: {str(exc)[:200]}")
        if self.cache is not None:
            self.cache.put(key, reply.model_dump(mode="json"))
        kept, refused = screen(reply.checks)
        return PlannedChecks(kept, refused)

    def run(self, provider, task: Task, state_dir: Path, commands: list[str]) -> CheckedState:
        return run_checks(provider, task, state_dir, commands, timeout=self.timeout)


def run_checks(provider, task: Task, state_dir: Path, commands: list[str],
               timeout: float = CHECK_TIMEOUT_SEC) -> CheckedState:
    """Unpack the attempt's state in a fresh container of the task's image and run `commands` there.
    Never raises: what went wrong is the result's `error`."""
    started = time.monotonic()

    def done(result: CheckedState) -> CheckedState:
        result.seconds = round(time.monotonic() - started, 3)
        return result

    if not commands:
        return done(CheckedState(error="no checks"))
    state = load_state(state_dir)
    if state is None or state.error or not state.roots:
        why = "no state was kept" if state is None else (state.error or "the task's paths did not exist")
        return done(CheckedState(error=f"nothing to check: {why}"))
    if getattr(provider, "kind", "") != "docker":
        return done(CheckedState(error="checks run only in a Docker sandbox"))
    try:
        sandbox = provider.open(task, {"adaptive-skill.role": "checker"}, offline=True)
    except Exception as exc:
        return done(CheckedState(error=f"no checker sandbox: {type(exc).__name__}: {str(exc)[:200]}"))
    try:
        sandbox.start()
        for index, root in enumerate(state.roots):
            staged = f"{STAGING}/{index}.tar"
            sandbox.copy_in(state_dir / root.tar, staged)
            parent = root.path.rsplit("/", 1)[0] or "/"
            unpack = (f"rm -rf -- {shlex.quote(root.path)} && mkdir -p -- {shlex.quote(parent)} && "
                      f"tar -xf {shlex.quote(staged)} -C {shlex.quote(parent)}")
            result = sandbox.exec(unpack, timeout=60)
            if result.exit_code != 0 and root.complete:
                return done(CheckedState(error=f"could not unpack {root.path}: {result.output.strip()[-200:]}"))
        sandbox.exec(f"rm -rf -- {STAGING}", timeout=30)
        # As an unprivileged user where the image has one: the checks read, and cannot change what a
        # later check reads (unless the agent made its files writable for all: then only its copy).
        user = "nobody" if sandbox.exec("id -u nobody", timeout=30).exit_code == 0 else "root"
        workdir = shlex.quote(getattr(sandbox, "image_workdir", None) or "/")
        env = " ".join(f"{k}={shlex.quote(v)}" for k, v in CLEAN_ENV.items())
        runs = []
        for command in commands:
            script = f"{LOOK}\ncd {workdir} 2>/dev/null; {command}"
            result = sandbox.exec(f"env -i {env} bash --noprofile --norc -c {shlex.quote(script)} </dev/null 2>&1",
                                  timeout=timeout, workdir="/", user=user)
            runs.append(CheckRun(command=command, exit_code=result.exit_code, timed_out=result.timed_out,
                                 output=truncate_middle(_printable_lines(result.output), OUTPUT_MAX_CHARS)))
        return done(CheckedState(runs=runs))
    except Exception as exc:
        return done(CheckedState(error=f"checks could not run: {type(exc).__name__}: {str(exc)[:200]}"))
    finally:
        sandbox.close()


def _printable_lines(text: str) -> str:
    return "\n".join(_printable(line) for line in text.replace("\r", "").split("\n"))

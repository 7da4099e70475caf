"""Families of tasks: tasks that one command solves up to a path, a name or a value (`git -C /app/repo
branch feature` and `git -C /app/repo branch feature/login main`). A split that puts one on each side
measures the recall of a sibling, not a lesson, so a suite declares them in one file beside its tasks:

    # families.toml
    [families]
    git-branch = ["git-branch-feature", "git-create-branch"]  # git -C REPO branch NAME [START]

Each family lists two or more task directories of the suite; a task is in at most one family; tasks
in none have `Task.family` None. `scan_suite` reads the file; a malformed one is one TaskError naming
the file and the key. `similarity` scores two tasks on their instructions and their reference
solutions, with paths, names, quoted values and numbers masked, so a test can find twins nobody
declared (tests/test_families.py).
"""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from pathlib import Path

from adaptive_skill.tasks.model import Task

FAMILIES_FILE = "families.toml"


def read_families(suite: Path, error: type[Exception]) -> dict[str, str]:
    """{task id: family} from `suite`/families.toml ({} when there is none). Every problem raises
    `error` with one line naming the file and the key."""
    file = Path(suite) / FAMILIES_FILE
    if not file.is_file():
        return {}

    def fail(key: str | None, reason: str) -> Exception:
        return error(f"{file}: {key + ': ' if key else ''}{reason}")

    try:
        data = tomllib.loads(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise fail(None, f"cannot read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise fail(None, f"malformed TOML: {exc}") from None
    for key in data:
        if key != "families":
            raise fail(key, "unknown key (the file holds one table, [families])")
    families = data.get("families", {})
    if not isinstance(families, dict):
        raise fail("families", "must be a table of NAME = [task ids]")
    found: dict[str, str] = {}
    for name, members in families.items():
        key = f"families.{name}"
        if not isinstance(members, list) or not all(isinstance(m, str) and m.strip() for m in members):
            raise fail(key, f"must be a list of task ids, got {members!r}")
        if len(set(members)) < 2:
            raise fail(key, "a family needs two or more different tasks")
        for member in members:
            if not (Path(suite) / member).is_dir() or member.startswith((".", "_")) or "/" in member:
                raise fail(key, f"{member!r} is not a task directory of the suite")
            if found.get(member, name) != name:
                raise fail(key, f"{member!r} is already in family {found[member]!r} (a task is in one family)")
            found[member] = name
    return found


# -- finding twins nobody declared ---------------------------------------------------------------

_TICKED = re.compile(r"`([^`]*)`")
_STOP = frozenset("a an the to of in on and or is it its as at by for with that this be".split())
_WORD = re.compile(r"(?<![\w-])[-+]{1,2}[A-Za-z][\w-]*|[A-Za-z_][\w.]*")  # a flag, or a word


def instruction_words(instruction: str) -> list[str]:
    """The instruction's words, lower case, with every `quoted` value, path and number replaced by
    the same placeholder and the commonest small words dropped."""
    text = _TICKED.sub(" V ", instruction)
    text = re.sub(r"(?<!\w)/[\w./-]+", " V ", text)
    text = re.sub(r"\d+", " N ", text)
    return [w.lower() for w in re.findall(r"[A-Za-z]+", text) if w.lower() not in _STOP]


def command_words(script: str, instruction: str) -> list[str]:
    """The programs, subcommands, flags and keywords of a solution script, with what the
    instruction names masked: its `quoted` values (a value with spaces only where the script quotes it
    whole, as an SQL statement), the parts of its paths, any path, any number. A line that is nothing
    but masked values (running a given script) counts as one placeholder word."""
    values = [v for v in _TICKED.findall(instruction) if v.strip()]
    names = {part for v in values if " " not in v for part in re.split(r"[/]", v) if len(part) >= 2}
    names |= {part for p in re.findall(r"(?<!\w)/[\w./-]+", instruction) for part in p.split("/") if len(part) >= 2}
    text = "\n".join(line for line in script.splitlines()
                     if line.strip() and not line.startswith("#!") and line.strip() not in ("set -e", "set -eu"))
    for value in sorted((v for v in values if " " in v.strip()), key=len, reverse=True):
        for quote in "'\"":
            text = text.replace(quote + value + quote, " V ")
    for name in sorted(names | {v for v in values if " " not in v}, key=len, reverse=True):
        text = re.sub(r"(?<![\w.-])" + re.escape(name) + r"(?![\w-])", " V ", text)
    text = re.sub(r"[^\s'\"]*/[^\s'\"]*", " V ", text)
    text = re.sub(r"\b\d+\b", " N ", text)
    words: list[str] = []
    for line in text.splitlines():
        found = [w for w in _WORD.findall(line) if w not in ("V", "N")]
        words += found or (["V"] if line.strip() else [])
    return words


def dice(a: list[str], b: list[str]) -> float:
    """2 |A & B| / (|A| + |B|) over multisets: 1 for the same words, 0 for none in common."""
    if not a and not b:
        return 1.0
    common = Counter(a) & Counter(b)
    return 2 * sum(common.values()) / (len(a) + len(b))


def _solution(task: Task) -> str:
    try:
        return task.solution_script.read_text(encoding="utf-8") if task.solution_script else ""
    except (OSError, UnicodeDecodeError):
        return ""


def similarity(a: Task, b: Task) -> tuple[float, float]:
    """(instructions, solutions), each in [0, 1]. Instructions: the overlap of their masked words.
    Solutions: the overlap of their programs, subcommands and keywords, times one half plus half the
    overlap of their flags (`tar -czf` and `tar -xzf` are near, `git branch` and `git tag` are not)."""
    words_a, words_b = command_words(_solution(a), a.instruction), command_words(_solution(b), b.instruction)
    flags_a, flags_b = ([w for w in words if w[0] in "-+"] for words in (words_a, words_b))
    plain = dice([w for w in words_a if w[0] not in "-+"], [w for w in words_b if w[0] not in "-+"])
    return (dice(instruction_words(a.instruction), instruction_words(b.instruction)),
            plain * (1 + dice(flags_a, flags_b)) / 2)

"""The problems file: YAML, either a list of problem texts or `problems:` entries with an `id`
and a `text`. Ids name the record directories, so they must be unique and path-safe."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from adaptive_skill.errors import UserError

_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


@dataclass(frozen=True)
class Problem:
    id: str
    text: str


def load_problems(path: Path) -> list[Problem]:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError(f"{path}: no such problems file") from None
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise UserError(f"{path}: cannot read the problems file: {' '.join(str(exc).split())}") from None
    entries = data.get("problems") if isinstance(data, dict) else data
    if not isinstance(entries, list) or not entries:
        raise UserError(f"{path}: expected a non-empty list of problems (or a `problems:` list)")
    problems = [_problem(entry, number, path) for number, entry in enumerate(entries, 1)]
    seen: set[str] = set()
    for problem in problems:
        if problem.id in seen:
            raise UserError(f"{path}: problem id {problem.id!r} appears twice")
        seen.add(problem.id)
    return problems


def _problem(entry: object, number: int, path: Path) -> Problem:
    if isinstance(entry, str):
        entry = {"id": f"p{number}", "text": entry}
    if not isinstance(entry, dict) or set(entry) - {"id", "text"}:
        raise UserError(f"{path}: problem {number}: expected a text or a mapping with `id` and `text`")
    text = " ".join(str(entry.get("text") or "").split())
    pid = str(entry.get("id") or f"p{number}")
    if not text:
        raise UserError(f"{path}: problem {number}: the text is empty")
    if not _ID.match(pid):
        raise UserError(f"{path}: problem {number}: id {pid!r} may hold only letters, digits, '.', '_' and '-'")
    return Problem(pid, text)

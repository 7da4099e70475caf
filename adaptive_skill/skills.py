"""SKILL.md in the Agent Skills format: parse, validate, and list every problem.

A skill is a directory `skills/<name>/` holding `SKILL.md` (YAML frontmatter + markdown body)
and optionally `scripts/` and `references/`. The validator never trusts a name from a file as a
path: names are checked against a strict pattern before they touch the file system, and
symlinks that leave the workspace are refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

NAME_PATTERN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
MAX_NAME = 64
MAX_DESCRIPTION = 1024
MAX_COMPATIBILITY = 500
ALLOWED_KEYS = {"name", "description", "license", "compatibility", "metadata", "allowed-tools"}
# A description must say WHEN to use the skill, not only what it is.
WHEN_WORDS = re.compile(r"\b(when|whenever|if|before|after|while|use|using|during)\b", re.IGNORECASE)
VERIFICATION_HEADING = re.compile(r"^#{1,6}\s*(verification|verify|how to verify|checks?)\b",
                                  re.IGNORECASE | re.MULTILINE)
DRAFTS_DIR = "_drafts"  # solver-proposed drafts live here; not skills of the library


class SkillFormatError(ValueError):
    """SKILL.md text that cannot be parsed into frontmatter + body."""


@dataclass(frozen=True)
class Skill:
    name: str
    description: str
    body: str
    path: Path  # the skill directory
    frontmatter: dict[str, Any]


CATEGORY_CHARS = 40


def category_key(category: str) -> str:
    """A task category as skills name it: lower case, runs of other characters one hyphen, at most
    CATEGORY_CHARS ("Files & Permissions" -> "files-permissions"); "" when nothing is left. A key is
    its own key, so a key read back from a file compares equal to the task's."""
    return re.sub(r"[^a-z0-9]+", "-", category.lower()).strip("-")[:CATEGORY_CHARS].strip("-")


def skill_categories(skill: Skill) -> frozenset[str]:
    """The task categories a skill declares it is written for: its frontmatter's `metadata.category`,
    one category or several separated by commas, each as category_key gives it. A skill without the
    key, or with a value of another type (the frontmatter is untrusted), declares none."""
    metadata = skill.frontmatter.get("metadata")
    value = metadata.get("category") if isinstance(metadata, dict) else None
    if not isinstance(value, str):
        return frozenset()
    return frozenset(key for part in value[:1000].split(",") if (key := category_key(part)))


@dataclass(frozen=True)
class Problem:
    path: Path
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


def parse_skill_text(text: str) -> tuple[dict[str, Any], str]:
    """Split SKILL.md into (frontmatter mapping, body). Raises SkillFormatError, nothing else."""
    if not isinstance(text, str):
        raise SkillFormatError("SKILL.md is not text")
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].rstrip("\r\n").strip() != "---":
        raise SkillFormatError("SKILL.md must start with a '---' line opening the YAML frontmatter")
    end = next((i for i in range(1, len(lines)) if lines[i].rstrip("\r\n").strip() == "---"), None)
    if end is None:
        raise SkillFormatError("the YAML frontmatter is not closed by a '---' line")
    header = "".join(lines[1:end])
    try:
        data = yaml.safe_load(header)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 2})" if mark is not None else ""
        raise SkillFormatError(f"the frontmatter is not valid YAML{where}") from None
    except (RecursionError, ValueError, TypeError, OverflowError) as exc:  # pathological YAML
        raise SkillFormatError(f"the frontmatter cannot be read: {type(exc).__name__}") from None
    if not isinstance(data, dict):
        raise SkillFormatError("the frontmatter must be a YAML mapping with name and description")
    return data, "".join(lines[end + 1:])


def render_skill(name: str, description: str, steps: list[str], verification: list[str]) -> str:
    """A SKILL.md in the canonical layout (front matter name and description, `## Steps` numbered,
    `## Verification` bullets) from one-line parts. The front matter is written by the YAML library
    (quoting whatever YAML would misread), one line per key; a part holding a line break raises
    ValueError: callers make their parts single lines first, so no part can open a heading or end
    the front matter."""
    parts = [name, description, *steps, *verification]
    if any("\n" in part or "\r" in part for part in parts):
        raise ValueError("skill parts must be single lines")
    header = yaml.safe_dump({"name": name, "description": description}, sort_keys=False, allow_unicode=True,
                            width=float("inf"), default_flow_style=False)
    numbered = [f"{number}. {step}" for number, step in enumerate(steps, 1)]
    return "\n".join(["---", header.rstrip("\n"), "---", "", "## Steps", *numbered, "", "## Verification",
                      *(f"- {line}" for line in verification)]) + "\n"


def frontmatter_problems(data: dict[str, Any], body: str, *, dir_name: str | None,
                         max_body_chars: int = 2000, require_verification: bool = True) -> list[str]:
    """Every rule a skill's content must meet; an empty list means valid."""
    problems: list[str] = []
    for key in data:
        if key not in ALLOWED_KEYS:
            problems.append(f"unknown frontmatter key {str(key)[:40]!r} "
                            f"(allowed: {', '.join(sorted(ALLOWED_KEYS))})")
    name = data.get("name")
    if not isinstance(name, str) or not name:
        problems.append("frontmatter 'name' is missing or not a string")
    else:
        if len(name) > MAX_NAME:
            problems.append(f"name is {len(name)} characters; at most {MAX_NAME}")
        if not NAME_PATTERN.match(name):
            problems.append(f"name {name[:64]!r} must be lower-case letters, digits and single hyphens "
                            "(no leading, trailing or double hyphen)")
        if dir_name is not None and name != dir_name:
            problems.append(f"name {name[:64]!r} differs from its directory name {dir_name!r}")
    description = data.get("description")
    if not isinstance(description, str) or not description.strip():
        problems.append("frontmatter 'description' is missing or empty")
    else:
        if len(description) > MAX_DESCRIPTION:
            problems.append(f"description is {len(description)} characters; at most {MAX_DESCRIPTION}")
        if not WHEN_WORDS.search(description):
            problems.append("description must say when to use the skill (e.g. 'Use when ...')")
    for key in ("license", "allowed-tools"):
        if key in data and not isinstance(data[key], str):
            problems.append(f"frontmatter {key!r} must be a string")
    if "compatibility" in data:
        value = data["compatibility"]
        if not isinstance(value, str) or not value or len(value) > MAX_COMPATIBILITY:
            problems.append(f"frontmatter 'compatibility' must be a string of 1-{MAX_COMPATIBILITY} characters")
    if "metadata" in data:
        value = data["metadata"]
        if not isinstance(value, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                                  for k, v in value.items()):
            problems.append("frontmatter 'metadata' must map strings to strings")
    if len(body) > max_body_chars:
        problems.append(f"body is {len(body)} characters; the limit is {max_body_chars}")
    if not body.strip():
        problems.append("body is empty: a skill needs steps")
    elif require_verification and not VERIFICATION_HEADING.search(body):
        problems.append("body has no '## Verification' section saying how to check the result")
    return problems


def _escapes(path: Path, root: Path) -> bool:
    """True when `path` is a symlink, or resolves outside `root`."""
    if path.is_symlink():
        target = path.resolve()
        return not target.is_relative_to(root.resolve())
    return False


def check_skill_dir(skill_dir: Path, *, max_body_chars: int = 2000, require_verification: bool = True,
                    root: Path | None = None) -> list[Problem]:
    """All problems of one skill directory. `root` bounds where symlinks may point."""
    root = root or skill_dir
    if skill_dir.is_symlink():
        return [Problem(skill_dir, "a skill directory must not be a symlink")]
    if not skill_dir.is_dir():
        return [Problem(skill_dir, "not a directory")]
    if not NAME_PATTERN.match(skill_dir.name) or len(skill_dir.name) > MAX_NAME:
        problems = [Problem(skill_dir, f"directory name {skill_dir.name!r} is not a valid skill name")]
    else:
        problems = []
    skill_md = skill_dir / "SKILL.md"
    if skill_md.is_symlink():
        return [*problems, Problem(skill_md, "SKILL.md must be a regular file, not a symlink")]
    if not skill_md.is_file():
        return [*problems, Problem(skill_dir, "SKILL.md is missing")]
    for path in sorted(skill_dir.rglob("*")):
        if path.is_symlink() and _escapes(path, root):
            problems.append(Problem(path, "symlink points outside the workspace"))
    try:
        text = skill_md.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return [*problems, Problem(skill_md, "SKILL.md is not UTF-8 text")]
    if "\x00" in text:
        return [*problems, Problem(skill_md, "SKILL.md is binary (it holds NUL bytes)")]
    try:
        data, body = parse_skill_text(text)
    except SkillFormatError as exc:
        return [*problems, Problem(skill_md, str(exc))]
    problems += [Problem(skill_md, message) for message in frontmatter_problems(
        data, body, dir_name=skill_dir.name, max_body_chars=max_body_chars,
        require_verification=require_verification)]
    return problems


def check_skills(path: Path, *, max_body_chars: int = 2000, require_verification: bool = True,
                 root: Path | None = None) -> list[Problem]:
    """Check one skill directory (has SKILL.md) or a whole `skills/` directory."""
    if not path.exists():
        return [Problem(path, "no such file or directory")]
    if path.is_file() and path.name == "SKILL.md":
        path = path.parent
    if (path / "SKILL.md").exists() or (path / "SKILL.md").is_symlink():
        return check_skill_dir(path, max_body_chars=max_body_chars,
                               require_verification=require_verification, root=root or path.parent)
    if not path.is_dir():
        return [Problem(path, "not a skill directory or a skills/ directory")]
    problems: list[Problem] = []
    for entry in sorted(path.iterdir()):
        if entry.name.startswith(".") or entry.name == DRAFTS_DIR:
            continue
        if entry.is_dir() or entry.is_symlink():
            problems += check_skill_dir(entry, max_body_chars=max_body_chars,
                                        require_verification=require_verification, root=root or path)
        else:
            problems.append(Problem(entry, "stray file in skills/: each skill is a directory"))
    return problems


def load_skill(skill_dir: Path) -> Skill:
    """Read a skill that is known to be valid (call check_skill_dir first)."""
    data, body = parse_skill_text((skill_dir / "SKILL.md").read_text(encoding="utf-8"))
    return Skill(name=str(data["name"]), description=str(data["description"]).strip(), body=body,
                 path=skill_dir, frontmatter=data)

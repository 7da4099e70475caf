"""Rules the evolver's output must meet, enforced in code after it returns (not only asked for
in its prompt): where it may write, the skill budget, the SKILL.md quality gate, memory format.

Works on two directory trees, the workspace before and after the evolver, so it never depends
on what the evolver says it did.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

from adaptive_skill.config import EvolveConfig
from adaptive_skill.evolve.loadable import load_problems
from adaptive_skill.evolve.outcome import Changes, Violation
from adaptive_skill.evolve.relevance import NO_FAILURES, Failures, body_steps, task_specific, unusable_step
from adaptive_skill.skills import DRAFTS_DIR, NAME_PATTERN, SkillFormatError, check_skill_dir, parse_skill_text
from adaptive_skill.workspace import MAX_MEMORY_FILE_BYTES, parse_memory_line

EDITABLE_ROOTS = ("prompts", "skills", "memory")
MAX_PROMPT_CHARS = 20_000


def copy_tree(source: Path, dest: Path) -> None:
    """Copy directories and regular files only; a link or special file is skipped, never followed."""
    dest.mkdir(parents=True, exist_ok=True)
    for entry in sorted(os.scandir(source), key=lambda e: e.name):
        target = dest / entry.name
        if entry.is_dir(follow_symlinks=False):
            copy_tree(Path(entry.path), target)
        elif entry.is_file(follow_symlinks=False):
            fd = os.open(entry.path, os.O_RDONLY | os.O_NOFOLLOW)
            out_fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o644)
            with os.fdopen(fd, "rb") as src, os.fdopen(out_fd, "wb") as out:
                shutil.copyfileobj(src, out)
            os.chmod(target, 0o755 if entry.stat(follow_symlinks=False).st_mode & 0o111 else 0o644)


def tree_digest(root: Path) -> dict[str, str]:
    """relative path -> sha256 of every regular file (symlinks recorded as such, never followed)."""
    digests: dict[str, str] = {}
    if not root.exists():
        return digests
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root).as_posix()
        if relative.split("/")[0] == ".git" or "__pycache__" in relative:
            continue
        if path.is_symlink():
            digests[relative] = "symlink:" + str(path.readlink())
        elif path.is_file():
            digests[relative] = hashlib.sha256(path.read_bytes()).hexdigest()
    return digests


def workspace_hash(root: Path) -> str:
    """One hash for the editable content of a workspace: equal hashes, equal behaviour."""
    digest = hashlib.sha256()
    for relative, file_hash in tree_digest(root).items():
        if relative.split("/")[0] in EDITABLE_ROOTS:
            digest.update(f"{relative}\0{file_hash}\n".encode())
    return digest.hexdigest()


def skill_names(root: Path) -> set[str]:
    skills = root / "skills"
    if not skills.is_dir():
        return set()
    return {p.name for p in skills.iterdir() if p.is_dir() and not p.is_symlink() and p.name != DRAFTS_DIR}


def diff_trees(before: Path, after: Path) -> Changes:
    old, new = tree_digest(before), tree_digest(after)
    changes = Changes(added=sorted(set(new) - set(old)), deleted=sorted(set(old) - set(new)),
                      modified=sorted(p for p in set(old) & set(new) if old[p] != new[p]))
    old_skills, new_skills = skill_names(before), skill_names(after)
    changes.created_skills = sorted(new_skills - old_skills)
    changes.deleted_skills = sorted(old_skills - new_skills)
    touched = {p.split("/")[1] for p in changes.paths() if p.startswith("skills/") and p.count("/") >= 2}
    changes.modified_skills = sorted(touched & old_skills & new_skills)
    return changes


def check(before: Path, after: Path, config: EvolveConfig, *,
          failures: Failures = NO_FAILURES) -> tuple[Changes, list[Violation]]:
    """What changed from `before` to `after`, and every rule it breaks. `failures`: what the evolver
    was shown of the failures (digest.Digest.failures): no skill may teach a command that failed there,
    nor name a failed task or a file its instruction names."""
    changes = diff_trees(before, after)
    violations: list[Violation] = []
    changed = changes.paths()

    def under(root: str) -> list[str]:
        return [p for p in changed if p == root or p.startswith(root + "/")]

    outside = [p for p in changed if p.split("/")[0] not in EDITABLE_ROOTS]
    if outside:
        violations.append(Violation("outside", f"changes outside {', '.join(EDITABLE_ROOTS)}/ are not allowed",
                                    outside, repairable=False))
    allowed = {"skills": config.evolve_skills and not config.prompt_only,
               "prompts": config.evolve_prompts,
               "memory": config.evolve_memory and not config.prompt_only}
    for root, ok in allowed.items():
        if not ok and under(root):
            reason = "prompt_only is set" if config.prompt_only else f"evolve_{root} is off"
            violations.append(Violation("permission", f"{root}/ may not change: {reason}", under(root),
                                        repairable=False))
    if config.protect_skills and allowed["skills"]:
        protected = [f"skills/{s}" for s in sorted(set(changes.modified_skills) | set(changes.deleted_skills))]
        if protected:
            violations.append(Violation("protected", "protect_skills is set: existing skills are read-only "
                                        f"({', '.join(s.split('/')[1] for s in protected)})", protected,
                                        repairable=False))
    if allowed["skills"]:
        violations += _skill_violations(before, after, changes, config, failures)
    if allowed["prompts"] and under("prompts"):
        violations += _prompt_violations(after, config)
    if allowed["memory"] and under("memory"):
        violations += _memory_violations(after, under("memory"))
    violations += load_violations(after, violations)
    return changes, violations


def _skill_violations(before: Path, after: Path, changes: Changes, config: EvolveConfig,
                      failures: Failures) -> list[Violation]:
    found: list[Violation] = []
    created = set(changes.created_skills)
    for name in sorted(set(changes.created_skills) | set(changes.modified_skills)):
        if not NAME_PATTERN.match(name):
            found.append(Violation("quality", f"skills/{name}: not a valid skill name", [f"skills/{name}"]))
            continue
        problems = check_skill_dir(after / "skills" / name, max_body_chars=config.skills.max_body_chars,
                                   require_verification=config.skills.require_verification, root=after)
        if problems:
            listed = "; ".join(p.message for p in problems)
            found.append(Violation("quality", f"skills/{name}: {listed}", [f"skills/{name}"]))
        else:
            added = _added_steps(before, after, name)
            # a new skill's name counts; an existing one's (a seed skill's) was not the evolver's to choose
            specific = task_specific(name if name in created else "", " ".join([_new_description(before, after, name),
                                                                                *added]), failures)
            unusable = unusable_step(added, failures, network=config.sandbox.allow_network)
            if reasons := specific + ([unusable] if unusable else []):
                found.append(Violation("quality", f"skills/{name}: {'; '.join(reasons)}", [f"skills/{name}"]))
    count_before, count_after = len(skill_names(before)), len(skill_names(after))
    limit = max(config.max_skills, count_before)  # a library already over budget may not grow
    if count_after > limit:
        excess = count_after - limit
        newest = sorted(changes.created_skills)[-excess:] if changes.created_skills else []
        found.append(Violation(
            "budget", f"{count_after} skills exceed the budget of {config.max_skills}: fold the new patterns "
            f"into existing skills instead of creating {', '.join(newest) or 'new ones'}",
            [f"skills/{name}" for name in newest]))
    return found


def _new_description(before: Path, after: Path, name: str) -> str:
    """The description of skills/<name>/SKILL.md in `after` when it differs from its version in `before`."""
    old, new = (_skill_parts(root, name)[0].get("description") for root in (before, after))
    return str(new) if new is not None and new != old else ""


def _added_steps(before: Path, after: Path, name: str) -> list[str]:
    """The steps (body_steps) of skills/<name>/SKILL.md in `after` that its version in `before` lacks:
    what the change teaches, so a line a skill already held is not held against the change."""
    old = set(body_steps(_skill_parts(before, name)[1]))
    return [step for step in body_steps(_skill_parts(after, name)[1]) if step not in old]


def _skill_parts(root: Path, name: str) -> tuple[dict, str]:
    """The front matter and body of skills/<name>/SKILL.md under `root`; empty for a missing, linked
    or unparsable file."""
    path = root / "skills" / name / "SKILL.md"
    if not path.is_file() or path.is_symlink():
        return {}, ""
    try:
        return parse_skill_text(path.read_text(encoding="utf-8", errors="replace"))
    except SkillFormatError:
        return {}, ""


def _prompt_violations(after: Path, config: EvolveConfig) -> list[Violation]:
    # Beyond these, whether the agent can load it is the load check's question (load_violations).
    from adaptive_skill.agent.loop import template_problem

    prompt = after / "prompts" / "system.md"
    if not prompt.is_file() or prompt.is_symlink():
        return [Violation("prompt", "prompts/system.md must exist", ["prompts/system.md"])]
    text = prompt.read_text(encoding="utf-8", errors="replace")
    if not text.strip() or len(text) > MAX_PROMPT_CHARS:
        return [Violation("prompt", f"prompts/system.md must hold 1-{MAX_PROMPT_CHARS} characters",
                          ["prompts/system.md"])]
    if problem := template_problem(text):
        return [Violation("prompt", f"prompts/system.md is not a valid template: {problem}", ["prompts/system.md"])]
    return []


def _memory_violations(after: Path, paths: list[str]) -> list[Violation]:
    found = []
    for relative in paths:
        path = after / relative
        if not (path.exists() or path.is_symlink()) or relative == "memory/README.md":
            continue
        if not relative.endswith(".jsonl") or "/" in relative.removeprefix("memory/"):
            found.append(Violation("memory", f"{relative}: memory holds only memory/*.jsonl files", [relative]))
            continue
        if path.is_symlink() or not path.is_file():
            found.append(Violation("memory", f"{relative}: memory files must be regular files", [relative]))
            continue
        if path.stat().st_size > MAX_MEMORY_FILE_BYTES:
            found.append(Violation("memory", f"{relative}: larger than {MAX_MEMORY_FILE_BYTES} bytes", [relative]))
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            try:
                if line.strip():
                    parse_memory_line(line)
            except ValueError as exc:
                found.append(Violation("memory", f"{relative}:{number}: {exc} (one JSON object per line, "
                                       'at least {"text": "..."})', [relative]))
                break
    return found


def load_violations(after: Path, known: list[Violation]) -> list[Violation]:
    """What would stop the agent from loading `after` (loadable.py), as violations; a path some
    rule already reports is not reported twice."""
    covered = {path for v in known for path in v.paths}
    return [Violation("load", f"{p.path}: {p.message} (every solve would fail)", [p.path])
            for p in load_problems(after) if p.path not in covered]


def revert(violations: list[Violation], before: Path, after: Path) -> None:
    """Restore every path named by the violations in `after` to what `before` had."""
    for violation in violations:
        for relative in violation.paths:
            if relative.startswith("/") or ".." in relative.split("/"):
                continue  # never a path this module made; nothing outside `after` is touched
            target, source = after / relative, before / relative
            if target.is_symlink() or target.is_file():
                target.unlink()
            elif target.is_dir():
                shutil.rmtree(target)
            if source.is_symlink():
                continue  # `before` holds no links; if it did, one would not be restored
            if source.is_dir():
                copy_tree(source, target)
            elif source.is_file():
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, target)

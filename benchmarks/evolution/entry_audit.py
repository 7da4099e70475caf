"""Each distilled entry of a workspace, tried on its own task against that task's tests: how many of
the commands a library teaches are wrong (issue 66's target: at most one in the library that ships).

    python benchmarks/evolution/entry_audit.py WORKSPACE --suite SUITE [--format text|json] [--out FILE]

Labels are read here, after the fact, and go nowhere but this report: it is how a learned library is
audited, not part of learning. For each skill the distilling evolver wrote (its body opens with the
distilled INTRO), each entry's task is found in SUITE by the instruction the entry stores
(`entry-<n>-task`, or its first sentence for an entry written before 2026-12-06). Its commands (the
last three the attempt ran, as the skill shows them) are run in a fresh container of that task, one
after another in one shell as the agent's shell ran them, in place of the reference solution; then
the task's own tests run:
  right    the tests pass: the entry does its task;
  wrong    they fail: what the entry teaches does not do its own task (the trap it was written to
           catch, or a step the last three commands leave out: the detail says which test failed);
  no task  no task of SUITE has its instruction (another suite's entry, or a hand-edited one).
The commands are the evolver's untrusted text: they run only inside the task's container, as its
reference solution would.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from adaptive_skill.entries import first_sentence, is_distilled, one_line  # noqa: E402
from adaptive_skill.evolve.distill import entries_of  # noqa: E402
from adaptive_skill.skills import SkillFormatError, parse_skill_text  # noqa: E402
from adaptive_skill.tasks.loader import load_suite  # noqa: E402
from adaptive_skill.tasks.model import Task  # noqa: E402


@dataclasses.dataclass
class Audited:
    skill: str
    number: int
    sentence: str
    commands: list[str]
    task: str | None
    verdict: str  # right | wrong | no task | error
    detail: str = ""


def entries(workspace: Path) -> list[tuple[str, int, object]]:
    """(skill, number, Entry) of every distilled entry under WORKSPACE/skills, links not followed."""
    found = []
    skills = workspace / "skills"
    for folder in sorted(p for p in skills.iterdir() if p.is_dir() and not p.is_symlink()) if skills.is_dir() else []:
        path = folder / "SKILL.md"
        if path.is_symlink() or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        try:
            _, body = parse_skill_text(text)
        except SkillFormatError:
            continue
        if is_distilled(body):
            found += [(folder.name, number, entry) for number, entry in enumerate(entries_of(text), 1)]
    return found


def task_of(entry, by_instruction: dict[str, Task], by_sentence: dict[str, list[Task]]) -> Task | None:
    if entry.instruction and entry.instruction in by_instruction:
        return by_instruction[entry.instruction]
    matches = by_sentence.get(entry.sentence, [])
    return matches[0] if len(matches) == 1 else None


def audit(workspace: Path, suite: Path, progress=None) -> list[Audited]:
    from adaptive_skill.config import SandboxConfig
    from adaptive_skill.harness.agents import OracleAgent
    from adaptive_skill.harness.attempt import run_attempt
    from adaptive_skill.harness.providers import make_provider

    tasks = load_suite(suite)
    by_instruction = {one_line(t.instruction): t for t in tasks}
    by_sentence: dict[str, list[Task]] = {}
    for t in tasks:
        by_sentence.setdefault(first_sentence(t.instruction), []).append(t)
    provider = make_provider(SandboxConfig())
    out: list[Audited] = []
    todo = entries(workspace)
    try:
        with tempfile.TemporaryDirectory(prefix="entry-audit-") as scratch:
            for index, (skill, number, entry) in enumerate(todo, 1):
                task = task_of(entry, by_instruction, by_sentence)
                row = Audited(skill, number, entry.sentence, list(entry.commands), task.id if task else None, "no task")
                if task is not None:
                    script = Path(scratch) / f"{index}" / "solve.sh"
                    script.parent.mkdir()
                    script.write_text("#!/bin/bash\n" + "\n".join(entry.commands) + "\n")
                    try:
                        result = run_attempt(dataclasses.replace(task, solution_script=script), OracleAgent(), provider,
                                             {"adaptive-skill.role": "entry-audit"})
                        row.verdict = "right" if result.passed else "wrong"
                        row.detail = "" if result.passed else (result.detail or "")[-600:]
                    except Exception as exc:  # noqa: BLE001 - one entry's trouble is its row, not the report's end
                        row.verdict, row.detail = "error", f"{type(exc).__name__}: {exc}"[:300]
                out.append(row)
                if progress:
                    progress(f"[{index}/{len(todo)}] {row.verdict:8} {skill} #{number} {row.task or ''}")
    finally:
        provider.close_all()
    return out


def summary(rows: list[Audited]) -> dict:
    counts = {v: sum(1 for r in rows if r.verdict == v) for v in ("right", "wrong", "no task", "error")}
    return {"entries": len(rows), **counts}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("workspace", type=Path)
    parser.add_argument("--suite", type=Path, required=True)
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--out", type=Path, help="also write the JSON record here")
    args = parser.parse_args(argv)
    if not (args.workspace / "skills").is_dir():
        print(f"{args.workspace}: no skills/ folder (a workspace holds skills/<name>/SKILL.md)", file=sys.stderr)
        return 2
    rows = audit(args.workspace, args.suite, progress=None if args.format == "json" else print)
    record = {"workspace": str(args.workspace), "suite": str(args.suite), "summary": summary(rows),
              "entries": [dataclasses.asdict(r) for r in rows]}
    if args.out:
        args.out.write_text(json.dumps(record, indent=1) + "\n")
    if args.format == "json":
        print(json.dumps(record, indent=1))
    else:
        s = record["summary"]
        print(f"{s['entries']} entries: {s['right']} right, {s['wrong']} wrong, {s['no task']} with no task "
              f"in the suite, {s['error']} errors")
        for r in rows:
            if r.verdict == "wrong":
                print(f"  wrong: {r.skill} #{r.number} ({r.task}): {' ; '.join(r.commands)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Rebuild the candidate a distilling evolver's record describes, by running that evolver again on it.

    python benchmarks/evolution/distill_workspace.py benchmarks/evolution/results/curve-29 \\
        --config configs/curve-split2-labelfree.yaml --out DIR

For a run whose gate was never reached (the confirm run, docs/results.md), the record holds no
candidate and no workspace hash, only the distiller's record (evolve/distill.json): per task it
counted, the task, its category, whether explore found it, and the worked commands it wrote. This
script writes those entries into an observations folder of the engine's own form (the instruction
from the suite, worked.json, agreed.json) and runs the distilling evolver (evolve/distill.py) on a
copy of the seed workspace `workspace/` with the config's settings, so every rule the engine applies
(the skill names, the body limit, the shared skill) is applied the same way. What it writes is kept
only when the new record's passed entries and written skills equal the old record's, or nothing is
kept (exit 2, one line). The record's `left` tasks cannot be replayed (their commands are not kept)
and are not needed: a task left out writes nothing. The evolver has stored each entry's task
instruction in the skill's metadata (`entry-<number>-task`) since 2026-12-06, after every record
here: those lines are taken out again, so the candidate is the one judged, to the byte, and is placed
as it was (agent/inline.py ranks a skill without them as before); `--entry-tasks` keeps them.

What it is for: measuring the candidate the gate would have judged, on the gate's rounds or on fresh
ones (docs/curve.md):
    adaptive-skill curve --config CONFIG --set curve.evolve=false --set "curve.workspaces=[DIR]" --out OUT
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))

SEED = ROOT / "workspace"


class RebuildError(Exception):
    """The record cannot give the candidate (one line, what and why)."""


def _entries(record: dict, where: Path) -> list[dict]:
    passed = record.get("passed")
    if not isinstance(passed, list) or not passed:
        raise RebuildError(f"{where}: no passed entries to distill")
    for item in passed:
        if not (isinstance(item, dict) and isinstance(item.get("task"), str)
                and isinstance(item.get("category"), str) and isinstance(item.get("explored"), bool)
                and isinstance(item.get("commands"), list) and all(isinstance(c, str) for c in item["commands"])):
            raise RebuildError(f"{where}: a passed entry without its task, category, explored flag or commands")
    return passed


def without_entry_tasks(skill_md: str) -> str:
    """A SKILL.md as the distilling evolver wrote it before 2026-12-06: its frontmatter without the
    `entry-<number>-task` lines of its metadata (each one line: the evolver writes no line breaks),
    and without a `metadata:` line left with nothing under it."""
    lines = skill_md.split("\n")
    if not lines or lines[0] != "---" or "---" not in lines[1:]:
        return skill_md
    end = lines.index("---", 1)
    front = [line for line in lines[1:end] if not re.match(r"^  entry-\d+-task: ", line)]
    if front and front[-1] == "metadata:":
        front.pop()
    return "\n".join(["---", *front, *lines[end:]])


def rebuild(record_dir: Path, config_path: Path, out: Path, overrides: list[str] = (), seed: Path = SEED,
            entry_tasks: bool = False) -> str:
    """Write the candidate to `out` (which must not exist); return its workspace_hash. `entry_tasks`:
    keep the entries' task instructions the evolver stores now (the record's candidate had none)."""
    from adaptive_skill.config.loading import load_config
    from adaptive_skill.evolve.distill import RECORD, DistillEvolver
    from adaptive_skill.evolve.rules import workspace_hash
    from adaptive_skill.observe.agreement import AGREED
    from adaptive_skill.observe.observations import WORKED
    from adaptive_skill.tasks import load_suite
    from adaptive_skill.workspace import copy_workspace

    where = record_dir / "distill.json"
    try:
        record = json.loads(where.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise RebuildError(f"{where}: not a distill record: {exc}") from None
    passed = _entries(record, where)
    config = load_config(config_path, list(overrides))
    if config.evolver.mode != "distill":
        raise RebuildError(f"{config_path}: evolver.mode {config.evolver.mode!r}: only the distilling evolver "
                           "can be run again from its record")
    tasks = {t.id: t for t in load_suite(config.paths.suite)}
    missing = [item["task"] for item in passed if item["task"] not in tasks]
    if missing:
        raise RebuildError(f"{where}: task {missing[0]} is not in the suite {config.paths.suite}")
    if out.exists():
        raise RebuildError(f"{out}: exists; choose a new directory")
    with tempfile.TemporaryDirectory(prefix="distill-workspace-") as scratch:
        observations, work = Path(scratch) / "observations", Path(scratch) / "ws"
        for item in passed:
            folder = observations / item["task"]
            folder.mkdir(parents=True)
            (folder / "instruction.md").write_text(tasks[item["task"]].instruction, encoding="utf-8")
            (folder / WORKED).write_text(json.dumps({"category": item["category"], "commands": item["commands"]}))
            # The vote's outcome, as explore.agree leaves it: the attempt counted (0: the batch's own).
            (folder / AGREED).write_text(json.dumps({"passed": True, "commands": item["commands"],
                                                     "attempt": 1 if item["explored"] else 0}))
        copy_workspace(seed, work)  # the engine's copy: a link in the seed is refused, never followed
        DistillEvolver(config).evolve(work, observations, Path(scratch) / "evolve", task_id=record.get("task_id", ""))
        again = json.loads((Path(scratch) / "evolve" / RECORD).read_text())
        for key in ("passed", "written"):
            if again.get(key) != record.get(key):
                raise RebuildError(f"{where}: run again, the distiller's {key!r} differs from the record's "
                                   f"({json.dumps(again.get(key))[:200]}): not the same candidate")
        if not entry_tasks:
            for name in again.get("written", {}):
                path = work / "skills" / name / "SKILL.md"
                path.write_text(without_entry_tasks(path.read_text(encoding="utf-8")), encoding="utf-8")
        shutil.copytree(work, out)
    return workspace_hash(out)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("record", type=Path, help="a folder holding a distill record (distill.json)")
    p.add_argument("--config", required=True, type=Path, help="the run's config")
    p.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                   help="the run's --set overrides, as it was run")
    p.add_argument("--out", required=True, type=Path, help="the directory to write (must not exist)")
    p.add_argument("--entry-tasks", action="store_true",
                   help="keep each entry's task instruction in the skills' metadata (written since 2026-12-06)")
    args = p.parse_args(argv)
    from adaptive_skill.errors import UserError

    try:
        got = rebuild(args.record, args.config, args.out, args.overrides, entry_tasks=args.entry_tasks)
    except (RebuildError, UserError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"{args.out}: the candidate of {args.record.name}, workspace hash {got[:16]} (its passed entries and "
          "written skills are the record's)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

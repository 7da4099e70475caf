"""Give the skills a finished gate left undecided the rounds of their own that `gating.skill_max_rounds`
would have given them, after the fact, and write the library the gate per skill would then ship.

    python benchmarks/evolution/skill_rounds.py RUN --cycle 1 --skill-max-rounds 4 --out DIR

RUN is an evolve run directory whose cycle was gated with `gating.per_skill` (a curve's is
OUT/runs/evolve). The gate's recorded rounds and placements (cycle's gate.json) are read; every skill
they leave undecided under the cap (the rule of engine/sequential.py with `skill_max_rounds` K) gets
the engine's own skill rounds (engine/phase_gate.py `skill_round`: its tasks alone, both sides, the
skills' seed stream, so no attempt shares a seed with a curve's fresh rounds) until each is decided
or K rounds are spent. The attempts go under DIR (gate-mutated/, gate-baseline/; a rerun reuses what
is there); the run's gate record is not touched, though its cost journal gains the new model calls,
as `adaptive-skill replay`'s do. DIR/skill-rounds.json keeps each skill's decision before and after,
the new rounds' scores and the attempts run; DIR/workspace is the candidate with the skills then
dropped taken out (a created skill removed, a modified one put back as the baseline has it), to
measure on fresh seeds; when no skill is kept, the candidate is rejected and no workspace is written:

    adaptive-skill curve --config CONFIG --set "curve.workspaces=[DIR/workspace]" --set curve.first_round=2 --out OUT

It runs the run's own config (its snapshot), as `adaptive-skill replay` does, with K set; models the
run used must be reachable. What it measures is the lever `gating.skill_max_rounds`, on a candidate
that a gate without it already decided: the same decisions a run with the setting would have made when
the gate ran all its `max_rounds` whole rounds (a gate that stopped earlier, every skill decided, is
refused if the cap leaves a skill undecided: a run with it would have run more whole rounds).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from adaptive_skill.engine.sequential import skill_decisions  # noqa: E402
from adaptive_skill.engine.stopping import Stop  # noqa: E402
from adaptive_skill.errors import UserError  # noqa: E402
from adaptive_skill.files import read_json, write_json_atomic  # noqa: E402


def undecided_rounds(run_path: Path, cycle: int, cap: int, out: Path, quiet: bool = False) -> dict:
    from adaptive_skill.engine.cycle import AdaptiveSkillEngine
    from adaptive_skill.engine.gate_replay import run_config
    from adaptive_skill.engine.phase_gate import skill_round
    from adaptive_skill.progress import Display
    from adaptive_skill.runs import RunDir
    from adaptive_skill.versioning import WorkspaceRepo

    run = RunDir.open(run_path)
    gate_path = run.cycle_dir(cycle) / "gate.json"
    gate = read_json(gate_path, None)
    if not isinstance(gate, dict) or not gate.get("gated"):
        raise UserError(f"{gate_path}: no gate of cycle {cycle} was run")
    if not isinstance(gate.get("skills"), list) or not gate["skills"]:
        raise UserError(f"{gate_path}: the gate judged no skill on its own (gating.per_skill was off)")
    config = run_config(run, None, [f"gating.skill_max_rounds={cap}"])
    engine = AdaptiveSkillEngine(config, run, display=Display("quiet" if quiet else "auto"))
    rounds = [{task: tuple(pair) for task, pair in one.items()} for one in gate["round_scores"]]
    placed = {task: row["skill"] for row in gate["skills"] for task in row["tasks"]}
    changed = [row["skill"] for row in gate["skills"]]
    for skill in changed:  # the names become folders of DIR/workspace/skills: checked before any work
        if not isinstance(skill, str) or "/" in skill or "\\" in skill or skill in {"", ".", ".."}:
            raise UserError(f"{gate_path}: skill name {skill!r} is not a folder of skills/")
    g = config.gating
    before = skill_decisions(rounds, placed, changed, g, final=len(rounds) >= g.skill_rounds)
    if len(rounds) < g.max_rounds and any(d.verdict == "continue" for d in before.values()):
        raise UserError(f"{gate_path}: the gate stopped after {len(rounds)} of max_rounds {g.max_rounds} whole "
                        f"round(s); with skill_max_rounds {cap} a run would have run more whole rounds, not skill "
                        "rounds")
    decided, whole, attempts = dict(before), len(rounds), 0
    repo = WorkspaceRepo.open(run.workspace)
    with tempfile.TemporaryDirectory(prefix="adaptive-skill-skill-rounds-") as scratch:
        candidate = repo.export(gate["mutated_commit"], Path(scratch) / "candidate")
        baseline = repo.export(gate["baseline_commit"], Path(scratch) / "baseline")
        for r in range(whole, g.skill_rounds):
            if all(d.verdict != "continue" for d in decided.values()):
                break
            ran, decided, _ = skill_round(engine, f"cycle {cycle} skill round {r + 1}", r, rounds, placed, decided,
                                          changed, (candidate, out / "gate-mutated"), (baseline, out / "gate-baseline"))
            attempts += ran
        kept = [s for s, d in decided.items() if d.verdict == "keep"]
        library = out / "workspace"
        if library.is_symlink() or library.is_file():
            library.unlink()
        elif library.exists():
            shutil.rmtree(library)
        if kept:
            prune(candidate, baseline, library, [s for s, d in decided.items() if d.verdict != "keep"], gate_path)
    report = {"run": str(run.root), "cycle": cycle, "skill_max_rounds": cap, "whole_rounds": whole,
              "skill_rounds": len(rounds) - whole, "attempts": attempts,
              "skill_round_scores": [{task: list(pair) for task, pair in one.items()} for one in rounds[whole:]],
              "before": [d.to_dict() for d in before.values()], "after": [d.to_dict() for d in decided.values()],
              "kept": kept, "workspace": str(library) if kept else None}
    write_json_atomic(out / "skill-rounds.json", report)
    return report


def prune(candidate: Path, baseline: Path, library: Path, dropped: list[str], gate_path: Path) -> None:
    """`library`: the candidate without the `dropped` skills, each put back as the baseline has it (removed
    when the baseline has none). The candidate's files are an LLM's: links are copied as links, never
    followed, and a skills/ that is a link is refused."""
    shutil.copytree(candidate, library, symlinks=True)
    skills = library / "skills"
    if skills.is_symlink() or (baseline / "skills").is_symlink():
        raise UserError(f"{gate_path}: skills/ of the candidate or the baseline is a link; not followed")
    for skill in dropped:
        mine, theirs = skills / skill, baseline / "skills" / skill
        if mine.is_symlink() or mine.is_file():
            mine.unlink()
        elif mine.is_dir():
            shutil.rmtree(mine)
        if theirs.is_symlink():
            mine.symlink_to(theirs.readlink())
        elif theirs.is_dir():
            shutil.copytree(theirs, mine, symlinks=True)
        elif theirs.is_file():
            shutil.copy2(theirs, mine, follow_symlinks=False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", type=Path, help="the evolve run directory (a curve's OUT/runs/evolve)")
    parser.add_argument("--cycle", type=int, default=1)
    parser.add_argument("--skill-max-rounds", type=int, required=True, help="K: rounds a skill may be judged on")
    parser.add_argument("--out", type=Path, required=True, help="where the attempts, the report and the library go")
    parser.add_argument("-q", "--quiet", action="store_true")
    args = parser.parse_args(argv)
    try:
        args.out.mkdir(parents=True, exist_ok=True)
        report = undecided_rounds(args.run, args.cycle, args.skill_max_rounds, args.out, quiet=args.quiet)
    except (UserError, ValueError) as exc:
        print(f"error: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    except Stop as exc:  # a budget spent, a STOP file: what ran is kept and a rerun goes on
        print(f"stopped: {' '.join(str(exc).split())}", file=sys.stderr)
        return 1
    before = {d["skill"]: d for d in report["before"]}
    for d in report["after"]:
        stat = d.get("statistic") or {}
        llr = "" if stat.get("llr") is None else f" (LLR {stat['llr']:+.2f})"
        print(f"{d['skill']}: {before[d['skill']]['verdict']} -> {d['verdict']}{llr} on {len(d['tasks'])} task(s)")
    print(f"{report['skill_rounds']} skill round(s), {report['attempts']} attempts; " + (
        f"kept: {', '.join(report['kept'])}; the library: {report['workspace']}" if report["kept"] else
        "no skill kept: the candidate is rejected, no library written"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

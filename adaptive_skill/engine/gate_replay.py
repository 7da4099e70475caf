"""Replay the holdout gate of a tagged workspace (`adaptive-skill replay`, commands/replay.py): the
same rounds (tasks and per-round seeds) on both sides, the same decision rule (sequential.py), and
whether the recorded decision would stand."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from adaptive_skill.config import REDACTED, EvolveConfig, load_config
from adaptive_skill.engine.cycle import AdaptiveSkillEngine
from adaptive_skill.engine.sequential import Round, sequential_decision
from adaptive_skill.errors import UserError
from adaptive_skill.files import read_json
from adaptive_skill.runs import RunDir
from adaptive_skill.versioning import WorkspaceRepo


def run_config(run: RunDir, path: Path | None, overrides: list[str]) -> EvolveConfig:
    """The config to replay with: the user's, or the run's own snapshot (whose redacted API keys
    then come from the environment, as litellm does when none is set)."""
    config = load_config(path or run.config_path, overrides)
    for role in ("agent", "judge", "evolver", "proposer", "embedder"):
        model = getattr(config.models, role)
        if model.api_key == REDACTED:
            model.api_key = None
    return config


def recorded_gate(run: RunDir, repo: WorkspaceRepo, tag: str) -> tuple[int, dict] | None:
    """(cycle, gate.json) of the gating in which the workspace at `tag` (same tree) was the mutated side."""
    tree = repo.tree_of(tag)
    for gate_path in sorted(run.root.glob("cycles/*/gate.json")):
        gate = read_json(gate_path, {})
        commit = gate.get("mutated_commit")
        if gate.get("gated") and commit and repo.tree_of(commit) == tree:
            return int(gate_path.parent.name), gate
    return None


def replay(run_path: Path, tag: str, against: str | None, config_path: Path | None, overrides: list[str],
           quiet: bool = False) -> dict:
    """Run the gate again for `tag` against the workspace it was gated against (or `against`), round
    by round with the recorded seeds, until the rule decides; new attempts go to runs/<id>/replays/."""
    from adaptive_skill.progress import Display

    run = RunDir.open(run_path)
    repo = WorkspaceRepo.open(run.workspace)
    config = run_config(run, config_path, overrides)
    engine = AdaptiveSkillEngine(config, run, display=Display("quiet" if quiet else "auto"))
    if not engine.holdout:
        raise UserError(f"{run.root}: the run has no holdout tasks to replay")
    for name in [tag] + ([against] if against else []):
        repo.resolve(name)  # a clear error for an unknown tag before any work
    found = recorded_gate(run, repo, tag)
    if found is None and against is None:
        raise UserError(f"{tag} was never gated as a change in {run.root} (evo-0 is the seed): "
                        "name the workspace to compare it with, --against TAG")
    cycle, recorded = found if found else (None, {})
    baseline_ref = against or recorded["baseline_commit"]
    stamp = time.strftime("%Y%m%d-%H%M%S")
    out = run.root / "replays" / f"{tag}-{stamp}"
    rounds: list[Round] = []
    with tempfile.TemporaryDirectory(prefix="adaptive-skill-replay-") as scratch:
        mutated_ws = repo.export(tag, Path(scratch) / "mutated")
        baseline_ws = repo.export(baseline_ref, Path(scratch) / "baseline")
        for r in range(config.gating.max_rounds):
            title = f"replay {tag} round {r + 1}"
            mutated = engine.evaluate_holdout(mutated_ws, out / "mutated", f"{title} (mutated)", r)
            baseline = engine.evaluate_holdout(baseline_ws, out / "baseline", f"{title} (baseline)", r)
            rounds.append({task: (baseline.scores.get(task), mutated.scores.get(task))
                           for task in sorted(set(mutated.scores) | set(baseline.scores))})
            decision = sequential_decision(rounds, config.gating)
            if decision.final:
                break
    stat = decision.statistic
    replayed = {"verdict": decision.verdict, "rounds": len(rounds), "llr": round(stat.llr, 4),
                "delta": None if stat.delta is None else round(stat.delta, 4), "reason": decision.reason,
                "round_scores": [{task: list(pair) for task, pair in one.items()} for one in rounds]}
    report: dict = {"run": str(run.root), "tag": tag, "against": against or baseline_ref, "cycle": cycle,
                    "tasks": [t.id for t in engine.holdout], "replayed": replayed,
                    "recorded": None, "stands": None, "out": str(out)}
    if recorded and against is None:
        verdict = recorded.get("verdict") or ("accept" if recorded.get("accepted") else "reject")
        report["recorded"] = {"verdict": verdict,
                              "rounds": recorded.get("rounds"), "llr": (recorded.get("statistic") or {}).get("llr"),
                              "delta": recorded.get("delta"), "reason": recorded.get("reason"),
                              "round_scores": recorded.get("round_scores") or []}
        report["stands"] = report["recorded"]["verdict"] == replayed["verdict"]
    return report

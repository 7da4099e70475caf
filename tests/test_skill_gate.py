"""The gate per skill (gating.per_skill, issue 66): each created or modified skill judged on the holdout
tasks it was placed for; a skill that helps is kept, one that hurts dropped without its neighbour, and
the tag says which and why."""

import json
from pathlib import Path

import pytest
import yaml
from taskfactory import make_task

from adaptive_skill.config import GatingConfig, load_config
from adaptive_skill.engine import AdaptiveSkillEngine
from adaptive_skill.engine.sequential import skill_decisions
from adaptive_skill.versioning import WorkspaceRepo

REPO = Path(__file__).resolve().parents[1]


def test_each_skill_is_judged_on_its_own_tasks():
    g = GatingConfig(min_rounds=2, max_rounds=2)
    rounds = [{"a1": (0, 1), "a2": (0, 1), "b1": (1, 0), "b2": (1, 0), "n": (0, 0)}] * 2
    placed = {"a1": "alpha", "a2": "alpha", "b1": "beta", "b2": "beta", "n": None, "c1": "gamma"}
    decided = skill_decisions(rounds, placed, ["alpha", "beta", "gamma", "delta"], g, final=True)
    assert {s: d.verdict for s, d in decided.items()} == {"alpha": "keep", "beta": "drop", "gamma": "drop",
                                                          "delta": "drop"}
    assert decided["alpha"].tasks == ["a1", "a2"] and "too few" in decided["gamma"].reason
    # undecided: "continue" while rounds remain, dropped at the last one
    mixed = [{"a1": (0, 1), "a2": (1, 1)}, {"a1": (1, 1), "a2": (0, 0)}]
    assert skill_decisions(mixed, placed, ["alpha"], GatingConfig(min_rounds=2, max_rounds=4))["alpha"].verdict \
        == "continue"
    last = skill_decisions(mixed, placed, ["alpha"], GatingConfig(min_rounds=2, max_rounds=2), final=True)["alpha"]
    assert last.verdict == "drop" and "no clear improvement" in last.reason


def test_more_skills_need_more_evidence_each():
    """The boundaries move out by ln m for m skills judged on the same rounds (Bonferroni on Wald's bound)."""
    g = GatingConfig(min_rounds=2, max_rounds=2)
    rounds = [{"a1": (0, 1), "a2": (0, 0), "a3": (0, 0)}, {"a1": (0, 1), "a2": (0, 1), "a3": (0, 0)}]
    placed = {"a1": "alpha", "a2": "alpha", "a3": "alpha"}
    alone = skill_decisions(rounds, placed, ["alpha"], g, final=True)["alpha"]
    many = skill_decisions(rounds, placed, ["alpha"] + [f"s{i}" for i in range(30)], g, final=True)["alpha"]
    assert alone.statistic.llr == many.statistic.llr and 2.5 < alone.statistic.llr < 2.5 + 3.4  # ln 31 = 3.43
    assert alone.verdict == "keep" and many.verdict == "drop"


def test_restore_paths_drops_a_created_skill_and_restores_a_modified_one(tmp_path):
    root = tmp_path / "ws"
    (root / "skills" / "old").mkdir(parents=True)
    (root / "skills" / "old" / "SKILL.md").write_text("v1\n")
    repo = WorkspaceRepo.init(root, "seed")
    seed = repo.head()
    (root / "skills" / "old" / "SKILL.md").write_text("v2\n")
    (root / "skills" / "new").mkdir()
    (root / "skills" / "new" / "SKILL.md").write_text("new\n")
    (root / "skills" / "kept").mkdir()
    (root / "skills" / "kept" / "SKILL.md").write_text("kept\n")
    candidate = repo.snapshot("candidate")
    pruned = repo.restore_paths(seed, ["skills/old", "skills/new"], "drop two")
    assert repo.parents(pruned) == [candidate]
    assert (root / "skills" / "old" / "SKILL.md").read_text() == "v1\n" and not (root / "skills" / "new").exists()
    assert (root / "skills" / "kept" / "SKILL.md").read_text() == "kept\n" and not repo.is_dirty()
    with pytest.raises(Exception, match="not a path inside"):
        repo.restore_paths(seed, ["../outside"], "no")


def _skill(name: str, description: str) -> str:
    return (f"mkdir -p /workspace/skills/{name} && cat > /workspace/skills/{name}/SKILL.md <<'EOF'\n---\n"
            f"name: {name}\ndescription: {description}\n---\n## Steps\n1. Write the answer file.\n"
            "## Verification\n- cat the file\nEOF")


def _two_recipe_run(tmp_path: Path, suite: Path, agent: list, second: str, gating: dict, run_id: str):
    """One cycle with scripted models: the candidate adds alpha-recipe and `second`-recipe, and the gate
    (two rounds, per skill, with `gating` on top) judges them; the agent's rules say what each does."""
    judge = [{"content": {"score": 5, "category": "alpha", "outcome": "Did something.", "failure_reason": None}}]
    evolver = [
        {"when": r"\[exit code", "tool_calls": [{"name": "submit", "arguments": {"answer": "two recipes"}}]},
        {"tool_calls": [{"name": "bash", "arguments": {"command": _skill(
            "alpha-recipe", "Use for alpha service answer files.") + "\n" + _skill(
            f"{second}-recipe", f"Use for {second} service answer files.")}}]},
    ]
    models = {}
    for role, script in {"agent": agent, "judge": judge, "evolver": evolver}.items():
        (tmp_path / f"{role}.yaml").write_text(yaml.safe_dump(script))
        models[role] = {"model": f"scripted/{tmp_path / f'{role}.yaml'}"}
    config = {"max_skills": 4, "batch_size": 2, "holdout_ratio": 0.5, "max_cycles": 1, "workers": 2, "seed": 1,
              "skill_in_prompt_tokens": 300,
              "paths": {"workspace": str(REPO / "workspace"), "suite": str(suite), "runs_dir": str(tmp_path / "runs")},
              "models": models, "limits": {"max_steps": 4}, "evolver": {"mode": "single"},
              "explore": {"passes": 0, "reflect": False, "agree": False},
              "gating": {"per_skill": True, "temperature": 0.3, "min_rounds": 2, "max_rounds": 2, **gating}}
    (tmp_path / "cycle.yaml").write_text(yaml.safe_dump(config))
    engine = AdaptiveSkillEngine.start(load_config(tmp_path / "cycle.yaml"), run_id=run_id, log=lambda line: None)
    assert engine.run() == "max_cycles"
    return engine


@pytest.mark.docker
def test_the_gate_keeps_the_skill_that_helps_and_drops_the_one_that_hurts(tmp_path, docker_client, base_image):
    """Two kinds of task, alpha and beta. The candidate adds a skill for each: with alpha-recipe in its
    prompt the agent solves alpha tasks it failed before; with beta-recipe it breaks beta tasks it
    solved. As one block the candidate changes nothing (+2 tasks, -2); per skill, alpha-recipe is
    kept, beta-recipe dropped, and the tag holds alpha-recipe alone and says why."""
    suite = tmp_path / "suite"
    for kind in ("alpha", "beta"):
        for i in range(4):
            task = make_task(suite, f"{kind}-{i}")
            (task / "instruction.md").write_text(f"Write 42 to /app/answer.txt for the {kind} service number {i}.")
            toml = (task / "task.toml").read_text().replace('"file-operations"', f'"{kind}"')
            (task / "task.toml").write_text(toml)
    agent = [
        {"when": r"\[exit code", "tool_calls": [{"name": "submit", "arguments": {"answer": "done"}}]},
        {"when": r"alpha-recipe \(already read", "tool_calls": [{"name": "bash", "arguments": {
            "command": "echo 42 > /app/answer.txt"}}]},
        {"when": r"beta-recipe \(already read", "tool_calls": [{"name": "bash", "arguments": {
            "command": "echo BAD > /app/answer.txt"}}]},
        {"when": "beta service", "tool_calls": [{"name": "bash", "arguments": {"command": "echo 42 > /app/answer.txt"}}]},
        {"tool_calls": [{"name": "bash", "arguments": {"command": "echo PLAIN"}}]},
    ]
    engine = _two_recipe_run(tmp_path, suite, agent, "beta", {}, "per-skill")
    run = engine.run_dir.root
    gate = json.loads((run / "cycles" / "001" / "gate.json").read_text())
    decided = {d["skill"]: (d["verdict"], len(d["tasks"])) for d in gate["skills"]}
    assert decided == {"alpha-recipe": ("keep", 2), "beta-recipe": ("drop", 2)}
    assert gate["accepted"] and gate["statistic"]["delta"] == 0.0  # as one block: nothing gained
    repo = WorkspaceRepo.open(run / "workspace")
    tag = repo.tags()[-1]
    assert tag.name == "evo-1" and tag.metrics["skills_kept"] == ["alpha-recipe"]
    assert "beta-recipe" in tag.metrics["skills_dropped"]
    assert tag.metrics["created"] == ["alpha-recipe"] and tag.metrics["holdout_of"] == "the whole candidate"
    assert engine.state.cycles[-1].created == ["alpha-recipe"]  # the dropped skill is not counted as learned
    # without beta-recipe, alpha-recipe is the closest skill for the beta tasks: a prompt no round ran
    beta = next(d["tasks"] for d in gate["skills"] if d["skill"] == "beta-recipe")
    assert tag.metrics["untried_placements"] == {task: "alpha-recipe" for task in beta}
    untried_events = [e for e in engine.run_dir.events() if e["event"] == "placements_untried"]
    assert [e["tasks"] for e in untried_events] == [2]
    committed = json.loads((run / "cycles" / "001" / "commit.json").read_text())
    assert committed["untried_placements"] == tag.metrics["untried_placements"]  # the curve's record reads it
    skills = sorted(p.name for p in (run / "workspace" / "skills").iterdir())
    assert skills == ["alpha-recipe", "check-your-work"]
    assert repo.parents(tag.commit) == [gate["mutated_commit"]]  # the pruned commit, on top of the candidate
    # skills log: the tag's metrics and the gate's evidence say which skills were kept and why
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "adaptive_skill", "skills", "log", "--run", str(run), "--format",
                           "json"], capture_output=True, text=True)
    logged = json.loads(done.stdout)
    assert logged["tags"][-1]["metrics"]["skills_kept"] == ["alpha-recipe"]
    evidence = "\n".join(logged["decisions"][0]["evidence"])
    assert "skill alpha-recipe: keep on 2 task(s)" in evidence and "skill beta-recipe: drop on 2 task(s)" in evidence


def test_a_round_without_a_trajectory_does_not_fix_a_tasks_placement_as_none():
    """A holdout attempt that left no trajectory says no skill was placed; the next round's attempt
    of the same library says which was. The task is judged for that skill, not for none."""
    from adaptive_skill.engine.phase_gate import remember_placements

    placed: dict[str, str | None] = {}
    remember_placements(placed, {"a": None, "b": "gzip-keep-worked-commands", "c": None})
    remember_placements(placed, {"a": "gzip-keep-worked-commands", "b": "gzip-keep-worked-commands", "c": None})
    assert placed == {"a": "gzip-keep-worked-commands", "b": "gzip-keep-worked-commands", "c": None}


def test_untried_placements_name_each_prompt_no_round_ran():
    """The pruned library's placements against the two sides of the gate's rounds. A kept skill has the
    candidate's text (tried only where the candidate placed it); a dropped one is back to the accepted
    text (tried only where the accepted library placed it); an unchanged skill is the same on both."""
    from adaptive_skill.engine.placements import NONE, untried

    baseline = {"a": "seed", "b": "seed", "c": "mod", "d": None, "e": "seed", "f": "mod"}
    candidate = {"a": "new", "b": "gone", "c": "mod", "d": "gone", "e": "seed", "f": "new"}
    pruned = {"a": "new", "b": "new", "c": "mod", "d": None, "e": "seed", "f": "mod"}
    kept, dropped = ["new"], ["gone", "mod"]
    # a: the kept skill where the candidate placed it; c: "mod" dropped (restored), where the accepted
    # library placed it; d: nothing, as the accepted library; e: an unchanged skill both sides placed
    # b: the kept skill takes a dropped skill's task; f: "mod" restored, placed where only the candidate had it
    assert untried(pruned, candidate, baseline, kept, dropped) == {"b": "new"}
    # the modified skill kept: on f its text is the candidate's, which only the accepted library's
    # older text was placed with; on c the candidate placed it too
    assert untried(pruned, candidate, baseline, ["new", "mod"], ["gone"]) == {"b": "new", "f": "mod"}
    assert untried({"x": None}, {"x": "gone"}, {"x": "seed"}, [], ["gone"]) == {"x": NONE}


def _write_skill(root: Path, name: str, description: str) -> None:
    (root / "skills" / name).mkdir(parents=True, exist_ok=True)
    (root / "skills" / name / "SKILL.md").write_text(
        f"---\nname: {name}\ndescription: {description}\n---\n## Steps\n1. Write the answer file.\n"
        "2. Check it with cat.\n")


def _placement_engine(tmp_path):
    """A workspace repository with a seed skill, a candidate adding alpha- and beta-recipe, and that
    candidate without beta-recipe (the gate per skill's prune); an engine with two holdout tasks."""
    from types import SimpleNamespace

    from adaptive_skill.config import EvolveConfig
    from adaptive_skill.tasks.model import Task

    root = tmp_path / "ws"
    _write_skill(root, "check-your-work", "Check the result before you submit.")
    (root / "prompts").mkdir()
    (root / "prompts" / "system.md").write_text("You solve terminal tasks.\n")
    repo = WorkspaceRepo.init(root, "seed")
    seed = repo.head()
    _write_skill(root, "alpha-recipe", "Use for alpha service answer files.")
    _write_skill(root, "beta-recipe", "Use for beta service answer files.")
    candidate = repo.snapshot("candidate")
    repo.restore_paths(seed, ["skills/beta-recipe"], "drop beta-recipe")
    holdout = [Task(id=f"{kind}-0", path=tmp_path, layout="harbor",
                    instruction=f"Write 42 to /app/answer.txt for the {kind} service answer file.")
               for kind in ("alpha", "beta")]
    events = []
    engine = SimpleNamespace(config=EvolveConfig(skill_in_prompt_tokens=300), holdout=holdout, repo=repo,
                             run_dir=SimpleNamespace(workspace=root, event=lambda kind, **f: events.append((kind, f))),
                             log=lambda line: events.append(("log", line)))
    return engine, seed, candidate, events


def test_the_commits_placements_are_the_prompts(tmp_path):
    """engine/placements.py places a library without a model; its choice is the skill the agent's
    prompt holds (agent/loop.py build_system_prompt), and the pruned library's untried placement is
    the kept skill on the dropped skill's task."""
    from dataclasses import replace

    from adaptive_skill.agent.loop import build_system_prompt
    from adaptive_skill.engine.placements import holdout_placements, untried_placements
    from adaptive_skill.harness.agents import memory_options
    from adaptive_skill.workspace import Workspace

    engine, seed, candidate, _ = _placement_engine(tmp_path)
    placed = holdout_placements(engine, engine.run_dir.workspace)
    memory = memory_options(engine.config, Workspace(engine.run_dir.workspace))
    for task in engine.holdout:
        prompt = build_system_prompt(Workspace(engine.run_dir.workspace), True, instruction=task.instruction,
                                     memory=replace(memory, category=task.category))
        assert placed[task.id] == (prompt.inline.name if prompt.inline else None)
    assert placed == {"alpha-0": "alpha-recipe", "beta-0": "alpha-recipe"}
    baseline = engine.repo.export(seed, tmp_path / "baseline")
    assert untried_placements(engine, candidate, baseline, ["alpha-recipe"], ["beta-recipe"]) == {
        "beta-0": "alpha-recipe"}


def test_a_placement_check_that_fails_warns_and_the_tag_is_still_made(tmp_path):
    from types import SimpleNamespace

    from adaptive_skill.engine.phase_commit import pruned_untried
    from adaptive_skill.engine.records import GateResult

    engine, seed, candidate, events = _placement_engine(tmp_path)
    engine.state = SimpleNamespace(accepted_hash="0" * 16, accepted_commit=seed)

    def broken(workspace_hash):
        raise OSError("disk gone")

    engine.run_dir.baseline_dir = broken
    gated = GateResult(accepted=True, reason="", gated=True, kept_skills=["alpha-recipe"],
                       dropped_skills=["beta-recipe"])
    assert pruned_untried(engine, 1, candidate, gated) is None
    assert events[0] == ("placements_untried", {"cycle": 1, "tasks": None, "placements": None,
                                                "error": "OSError: disk gone"})
    assert "WARNING cycle 1" in events[1][1]


def _alpha_gamma_run(tmp_path: Path, gating: dict, run_id: str):
    """A run whose candidate adds alpha-recipe (fixes both its holdout tasks) and gamma-recipe (fixes one
    of its two): under two rounds, alpha is kept and gamma undecided. Returns the engine, run, and
    gamma's holdout tasks."""
    from adaptive_skill.tasks.loader import load_suite
    from adaptive_skill.tasks.split import split_suite

    suite = tmp_path / "suite"
    for kind in ("alpha", "gamma"):
        for i in range(4):
            task = make_task(suite, f"{kind}-{i}")
            (task / "instruction.md").write_text(f"Write 42 to /app/answer.txt for the {kind} service number {i}.")
            toml = (task / "task.toml").read_text().replace('"file-operations"', f'"{kind}"')
            (task / "task.toml").write_text(toml)
    _, holdout = split_suite(load_suite(suite), 0.5, 1)
    gamma = sorted(t.id for t in holdout if t.id.startswith("gamma"))
    assert len(gamma) == 2  # stratified by category: two of each kind held out
    fixable = suite / gamma[0] / "instruction.md"
    fixable.write_text(fixable.read_text() + " It is fixable.")
    agent = [
        {"when": r"\[exit code", "tool_calls": [{"name": "submit", "arguments": {"answer": "done"}}]},
        {"when": r"(alpha-recipe \(already read|gamma-recipe \(already read[\s\S]*fixable)", "tool_calls": [
            {"name": "bash", "arguments": {"command": "echo 42 > /app/answer.txt"}}]},
        {"tool_calls": [{"name": "bash", "arguments": {"command": "echo PLAIN"}}]},
    ]
    engine = _two_recipe_run(tmp_path, suite, agent, "gamma", gating, run_id)
    return engine, engine.run_dir.root, gamma


@pytest.mark.docker
def test_an_undecided_skill_gets_rounds_of_its_own_on_its_tasks_alone(tmp_path, docker_client, base_image):
    """gating.skill_max_rounds: after the whole candidate's two rounds, alpha-recipe is kept (it fixes
    both its tasks) and gamma-recipe is undecided (it fixes one of its two). A third round then runs
    gamma's two holdout tasks alone, on both sides, with a seed of the skills' own stream, and decides
    it; the whole candidate's statistic stays on its two rounds."""
    engine, run, gamma = _alpha_gamma_run(tmp_path, {"skill_max_rounds": 3}, "skill-rounds")
    gate = json.loads((run / "cycles" / "001" / "gate.json").read_text())
    decided = {d["skill"]: (d["verdict"], d["tasks"]) for d in gate["skills"]}
    assert decided["alpha-recipe"][0] == "keep" and decided["gamma-recipe"] == ("drop", gamma)
    assert "after 3 round(s)" in next(d["reason"] for d in gate["skills"] if d["skill"] == "gamma-recipe")
    # the third round ran gamma's two tasks alone, on both sides
    assert gate["rounds"] == 2 and len(gate["round_scores"]) == 2 and len(gate["round_scores"][0]) == 4
    assert [sorted(r) for r in gate["skill_round_scores"]] == [gamma]
    assert gate["rollouts"] == 2 * 4 * 2 + 2 * 2
    # sampled as gate round 1002, a seed stream apart from the whole rounds (r0, r1) and a curve's (r2, ...)
    own = run / "cycles" / "001" / "gate-mutated" / "r1002" / "results"
    assert sorted(p.stem for p in own.glob("*.json")) == gamma
    assert sorted(p.name for p in (run / "cycles" / "001" / "gate-mutated").iterdir()) == ["r0", "r1", "r1002"]
    baseline_own = next(run.glob("baselines/*/gate-*/r1002/results"))
    assert sorted(p.stem for p in baseline_own.glob("*.json")) == gamma
    rounds = [e["round"] for e in engine.run_dir.events() if e["event"] == "gate_skill" and e["skill"] == "gamma-recipe"]
    assert rounds == [1, 2, 3]
    decision = next(e for e in engine.run_dir.events() if e["event"] == "gate_decision")
    assert decision["rounds"] == 2 and decision["skill_rounds"] == 1
    from adaptive_skill.engine.records import GateResult

    assert GateResult.from_dict(gate).evidence()[0].startswith(
        "2 round(s) (1 more round(s) on the undecided skills' tasks), 20 attempts")
    assert WorkspaceRepo.open(run / "workspace").tags()[-1].metrics["skills_kept"] == ["alpha-recipe"]


@pytest.mark.docker
def test_skill_rounds_gives_a_finished_gates_undecided_skill_its_rounds(tmp_path, docker_client, base_image):
    """benchmarks/evolution/skill_rounds.py on a run gated without skill_max_rounds: gamma-recipe, dropped
    as undecided after two rounds, gets a third round of its own (its tasks alone, both sides, under
    DIR, the run's record untouched) and the library written keeps alpha-recipe alone."""
    import subprocess
    import sys

    engine, run, gamma = _alpha_gamma_run(tmp_path, {}, "no-skill-rounds")
    gate = json.loads((run / "cycles" / "001" / "gate.json").read_text())
    assert {d["skill"]: d["verdict"] for d in gate["skills"]} == {"alpha-recipe": "keep", "gamma-recipe": "drop"}
    recorded = sorted(p.name for p in (run / "cycles" / "001" / "gate-mutated").iterdir())
    out = tmp_path / "more"
    command = [sys.executable, str(REPO / "benchmarks" / "evolution" / "skill_rounds.py"), str(run),
               "--skill-max-rounds", "3", "--out", str(out), "-q"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "gamma-recipe: continue -> drop" in done.stdout and "alpha-recipe: keep -> keep" in done.stdout
    report = json.loads((out / "skill-rounds.json").read_text())
    assert report["skill_rounds"] == 1 and report["attempts"] == 4 and report["kept"] == ["alpha-recipe"]
    assert [sorted(r) for r in report["skill_round_scores"]] == [gamma]
    for side in ("gate-mutated", "gate-baseline"):
        assert sorted(p.stem for p in (out / side / "r1002" / "results").glob("*.json")) == gamma
    assert sorted(p.name for p in (run / "cycles" / "001" / "gate-mutated").iterdir()) == recorded
    assert sorted(p.name for p in (out / "workspace" / "skills").iterdir()) == ["alpha-recipe", "check-your-work"]
    # a rerun reuses the attempts instead of running them again
    stamps = {p: p.stat().st_mtime_ns for p in out.glob("gate-*/r1002/results/*.json")}
    again = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0 and "1 skill round(s), 4 attempts" in again.stdout
    assert {p: p.stat().st_mtime_ns for p in out.glob("gate-*/r1002/results/*.json")} == stamps and len(stamps) == 4
    # a run whose gate judged no skill on its own: one line, exit 2
    gate["skills"] = []
    (run / "cycles" / "001" / "gate.json").write_text(json.dumps(gate))
    refused = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert refused.returncode == 2 and "judged no skill on its own" in refused.stderr and "Traceback" not in refused.stderr
    # a skill name that is no folder of skills/ (gate.json is the run's record, the names an LLM's): refused
    gate["skills"] = [{"skill": "../escape", "tasks": gamma, "verdict": "drop", "reason": "", "statistic": None}]
    (run / "cycles" / "001" / "gate.json").write_text(json.dumps(gate))
    hostile = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert hostile.returncode == 2 and "'../escape' is not a folder of skills/" in hostile.stderr
    assert (out / "workspace" / "skills" / "alpha-recipe").is_dir()  # nothing removed before the check


def test_skill_rounds_prunes_without_following_an_llms_links(tmp_path):
    """The library skill_rounds.py writes: a dropped skill removed or put back as the baseline has it,
    links copied as links (never followed), a skills/ that is a link refused."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("skill_rounds", REPO / "benchmarks" / "evolution" / "skill_rounds.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("host file\n")
    candidate, baseline = tmp_path / "candidate", tmp_path / "baseline"
    for root in (candidate, baseline):
        (root / "skills" / "kept").mkdir(parents=True)
        (root / "skills" / "kept" / "SKILL.md").write_text("kept\n")
    (candidate / "skills" / "new").symlink_to(outside)  # created by the candidate, a link out
    (candidate / "skills" / "changed").mkdir()
    (candidate / "skills" / "changed" / "SKILL.md").write_text("v2\n")
    (baseline / "skills" / "changed").mkdir()
    (baseline / "skills" / "changed" / "SKILL.md").write_text("v1\n")
    (baseline / "skills" / "linked").symlink_to(outside)
    (candidate / "skills" / "linked").mkdir()
    library = tmp_path / "library"
    module.prune(candidate, baseline, library, ["new", "changed", "linked"], tmp_path / "gate.json")
    skills = library / "skills"
    assert sorted(p.name for p in skills.iterdir()) == ["changed", "kept", "linked"]
    assert (skills / "changed" / "SKILL.md").read_text() == "v1\n"
    assert (skills / "linked").is_symlink() and (skills / "linked").readlink() == outside
    assert (outside / "secret.txt").read_text() == "host file\n" and sorted(outside.iterdir()) == [outside / "secret.txt"]
    linked = tmp_path / "linked-candidate"
    linked.mkdir()
    (linked / "skills").symlink_to(candidate / "skills")
    with pytest.raises(Exception, match="is a link; not followed"):
        module.prune(linked, baseline, tmp_path / "library2", ["new"], tmp_path / "gate.json")


def test_a_skill_undecided_at_max_rounds_continues_to_skill_max_rounds():
    """With gating.skill_max_rounds, a skill undecided at the whole candidate's last round is not
    dropped there: it continues, and is decided by its own cap (its futility boundary rises to 0 at
    skill_max_rounds, not at max_rounds)."""
    placed = {"a1": "alpha", "a2": "alpha"}
    mixed = [{"a1": (0, 1), "a2": (0, 0)}, {"a1": (0, 1), "a2": (0, 0)}]
    capped = GatingConfig(min_rounds=2, max_rounds=2, per_skill=True)
    longer = GatingConfig(min_rounds=2, max_rounds=2, per_skill=True, skill_max_rounds=4)
    assert skill_decisions(mixed, placed, ["alpha"], capped, final=True)["alpha"].verdict == "drop"
    assert skill_decisions(mixed, placed, ["alpha"], longer, final=False)["alpha"].verdict == "continue"
    # a round of its own holds its tasks alone; at its cap, undecided is dropped, with the cap in the reason
    own = mixed + [{"a1": (0, 1), "a2": (0, 0)}] * 2
    last = skill_decisions(own, placed, ["alpha"], longer, final=True)["alpha"]
    assert last.verdict == "drop" and "after 4 round(s)" in last.reason
    helped = mixed + [{"a1": (0, 1), "a2": (0, 1)}] * 2
    assert skill_decisions(helped, placed, ["alpha"], longer, final=True)["alpha"].verdict == "keep"


def test_skill_max_rounds_is_checked_where_it_is_set():
    with pytest.raises(ValueError, match="needs per_skill"):
        GatingConfig(skill_max_rounds=4)
    with pytest.raises(ValueError, match="must not be below max_rounds"):
        GatingConfig(per_skill=True, max_rounds=4, skill_max_rounds=3)
    assert GatingConfig(per_skill=True, max_rounds=2, skill_max_rounds=4).skill_rounds == 4
    assert GatingConfig(per_skill=True, max_rounds=2).skill_rounds == 2

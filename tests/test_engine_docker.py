"""The whole cycle end to end in Docker with scripted models (rule mode): one mutation accepted
and tagged, one rejected by gating and rolled back, one budget violation repaired; EGL; events;
and a run killed with SIGKILL mid-cycle that --resume finishes with the same tags."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from taskfactory import scripted_engine_config

from adaptive_skill.config import load_config
from adaptive_skill.engine import AdaptiveSkillEngine
from adaptive_skill.engine.phase_evolve import history as evolver_history
from adaptive_skill.versioning import WorkspaceRepo

REPO = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.docker


def bash(command):
    return {"tool_calls": [{"name": "bash", "arguments": {"command": command}}]}


def submit(answer):
    return {"tool_calls": [{"name": "submit", "arguments": {"answer": answer}}]}


def skill(name):
    return (f"mkdir -p /workspace/skills/{name} && cat > /workspace/skills/{name}/SKILL.md <<'EOF'\n---\n"
            f"name: {name}\ndescription: Use when writing answer files for tasks.\n---\n## Steps\n1. Write it.\n"
            "## Verification\n- cat the file\nEOF")


AGENT = [  # behaviour depends on the skills listed in the system prompt
    {"when": r"\[exit code", **submit("done")},
    {"when": "shortcut-hacks", **bash("echo BAD > /app/answer.txt")},
    {"when": "careful-checks", **bash("echo 42 > /app/answer.txt && echo GOOD")},
    bash("echo PLAIN"),
]
JUDGE = [  # scores what the trajectory shows
    {"when": "echo BAD", "content": {"score": 2, "category": "file-operations", "outcome": "Wrote a wrong answer.",
                                     "failure_reason": "took a shortcut"}},
    {"when": "GOOD", "content": {"score": 9, "category": "file-operations", "outcome": "Wrote the answer.",
                                 "failure_reason": None}},
    {"content": {"score": 5, "category": "file-operations", "outcome": "Printed something and stopped.",
                 "failure_reason": "never wrote the answer file"}},
]
EVOLVER = [
    {"when": r"\[exit code", **submit("updated the library")},
    {"when": "exceed the budget", **bash("rm -rf /workspace/skills/extra-*")},  # the repair turn
    {"when": "rejected by gating", **bash(skill("extra-one") + "\n" + skill("extra-two"))},  # cycle 3: over budget
    {"when": r"Skills now \(2", **bash(skill("shortcut-hacks"))},  # cycle 2: a bad idea
    {"when": r"Skills now \(1", **bash(skill("careful-checks"))},  # cycle 1: a good idea
]


@pytest.fixture
def setup(tmp_path, docker_client, base_image):
    return scripted_engine_config(tmp_path, {"agent": AGENT, "judge": JUDGE, "evolver": EVOLVER})


def test_three_cycles(setup):
    config = load_config(setup)
    engine = AdaptiveSkillEngine.start(config, run_id="three")
    assert engine.run() == "max_cycles"
    run = engine.run_dir.root
    repo = WorkspaceRepo.open(run / "workspace")

    tags = repo.tags()
    assert [t.name for t in tags] == ["evo-0", "evo-1"]
    assert tags[1].metrics["created"] == ["careful-checks"] and tags[1].metrics["delta"] == 1.0
    assert sorted(p.name for p in (run / "workspace" / "skills").iterdir()) == ["careful-checks", "check-your-work"]

    cycle = {n: {phase: json.loads((run / "cycles" / f"{n:03d}" / f"{phase}.json").read_text())
                 for phase in ("solve", "observe", "evolve", "gate", "commit", "converge")} for n in (1, 2, 3)}
    assert cycle[1]["gate"]["accepted"] and cycle[1]["commit"]["tag"] == "evo-1"
    # a clear improvement (every holdout attempt fixed, verifier-scored) stops the gate at min_rounds, far
    # below the cap; so does the clear regression of cycle 2
    assert cycle[1]["gate"]["score"] == "verifier" and cycle[1]["gate"]["rounds"] == config.gating.min_rounds == 2
    assert cycle[1]["gate"]["statistic"]["llr"] >= config.gating.accept_at and config.gating.max_rounds == 30
    assert cycle[2]["gate"]["rounds"] == 2 and cycle[2]["gate"]["verdict"] == "reject"
    # cycle 1's accepted candidate ran its 2 rounds as the mutated side: they are cycle 2's baseline
    assert cycle[1]["gate"]["baseline_rounds_reused"] == 0 and cycle[2]["gate"]["baseline_rounds_reused"] == 2
    assert cycle[2]["gate"]["round_scores"] == [{t: [1.0, 0.0] for t in cycle[2]["gate"]["round_scores"][0]}] * 2
    # the judge checked against the verifier on holdout: the scripted judge is right every time
    assert cycle[1]["gate"]["judge_check"]["n"] == 8 and cycle[1]["gate"]["judge_check"]["agreement"] == 1.0
    assert cycle[1]["gate"]["judge_check"]["auroc"] == 1.0 and not cycle[1]["gate"]["judge_check"]["warning"]
    # cycle 2: rejected by gating, rolled back as a new commit; the rejected version stays reachable
    assert not cycle[2]["gate"]["accepted"] and cycle[2]["gate"]["delta"] == -1.0
    rejected = cycle[2]["commit"]["rejected_commit"]
    assert cycle[2]["commit"]["rolled_back"] and "shortcut-hacks" in repo.list_dir(rejected, "skills")
    assert rejected in [c.hexsha for c in repo.repo.iter_commits()]
    # cycle 3: over budget, repaired by one more evolver turn, so nothing was left to gate
    assert [v["rule"] for v in cycle[3]["evolve"]["violations"]] == ["budget"]
    assert cycle[3]["evolve"]["repaired"] and not cycle[3]["evolve"]["mutated"]
    assert cycle[3]["gate"]["reason"] == "no mutation to gate"
    # skills log --run shows every gated change with its evidence, accepted or rejected
    logged = subprocess.run([sys.executable, "-m", "adaptive_skill", "skills", "log", "--run", str(run),
                             "--format", "json"],
                            capture_output=True, text=True, cwd=REPO, check=True)
    decisions = json.loads(logged.stdout)["decisions"]
    assert [(d["cycle"], d["accepted"]) for d in decisions] == [(1, True), (2, False)]
    first, second = decisions[0]["evidence"], decisions[1]["evidence"]
    assert first[0].startswith("2 round(s), 8 attempts; holdout pass rate mutated 100% vs baseline 0%; "
                               "2 task(s) better, 0 worse, 0 unchanged")
    assert first[1].startswith("per task (mutated - baseline): ") and "+1.00" in first[1]
    assert first[2].startswith("accepted: LLR") and second[-1].startswith("rejected: LLR")
    # EGL per task solved: cycle 1's batch ran with the seed workspace and solved nothing (divisor 1)
    assert [cycle[n]["converge"]["egl"] for n in (1, 2, 3)] == [1000.0, 0.0, 0.0]
    assert [cycle[n]["converge"]["solved"] for n in (1, 2, 3)] == [0, 2, 2]
    # the baseline of cycle 3 would have been reused: cycle 2 and 3 share the accepted workspace
    assert len(list((run / "baselines").iterdir())) == 2

    # batches rotate through the train pool: 4 train tasks, batches of 2, cycles 1+2 cover them all
    solved = [set(cycle[n]["solve"]["tasks"]) for n in (1, 2, 3)]
    assert len(solved[0] | solved[1]) == 4 and not solved[0] & solved[1]

    # the evolver never sees labels
    for path in run.glob("cycles/*/observations/**/*"):
        if path.is_file():
            text = path.read_text()
            assert '"passed"' not in text and "reward" not in text, path
    # ...but what programs each train task's container had, probed before its agent ran
    probed = [json.loads(p.read_text()) for p in run.glob("cycles/001/observations/*/programs.json")]
    assert len(probed) == 2  # the minimal Debian base: perl and sed, no python3 (terminal-easy installs it)
    assert all("sed" in p["installed"] and {"python3", "jq"} <= set(p["missing"]) for p in probed)

    events = [json.loads(line) for line in (run / "events.jsonl").read_text().splitlines()]
    kinds = [e["event"] for e in events]
    assert kinds[0] == "run_start" and kinds[-1] == "run_end" and events[-1]["status"] == "max_cycles"
    for n in (1, 2, 3):
        phases = [e["phase"] for e in events if e["event"] == "phase_end" and e["cycle"] == n]
        assert phases == ["solve", "observe", "evolve", "gate", "commit", "converge"]
    assert kinds.count("mutation_accepted") == 1 and kinds.count("mutation_rejected") == 1
    assert [(e["cycle"], e["round"], e["verdict"]) for e in events if e["event"] == "gate_round"] == [
        (1, 1, "continue"), (1, 2, "accept"), (2, 1, "continue"), (2, 2, "reject")]
    assert [(e["cycle"], e["rounds"], e["rollouts"]) for e in events if e["event"] == "gate_decision"] == [
        (1, 2, 8), (2, 2, 8)]
    # the evolver hears only the verdict and aggregate numbers, never a holdout task or label
    history = evolver_history(engine)
    assert history[1].endswith("rejected by gating (holdout: 2 round(s), mean difference -1.00; 0 task(s) better, "
                               "2 worse, 0 unchanged)")
    assert not any(t.id in line for t in engine.holdout for line in history)
    assert all(e["v"] == 1 for e in events)


def run_cli(*args, **kwargs):
    return subprocess.Popen([sys.executable, "-m", "adaptive_skill", *args], cwd=REPO, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, **kwargs)


def test_sigkill_mid_cycle_then_resume(setup, tmp_path, docker_client):
    run = tmp_path / "runs" / "killed"
    process = run_cli("evolve", "--config", str(setup), "--run-id", "killed")
    deadline = time.monotonic() + 600
    # kill once cycle 2 has finished one attempt of its batch and is busy with the next
    while time.monotonic() < deadline and process.poll() is None:
        done = list((run / "cycles" / "002" / "solve" / "results").glob("*.json"))
        if done:
            break
        time.sleep(0.05)
    assert process.poll() is None, process.communicate()
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    subprocess.run([sys.executable, "-m", "adaptive_skill", "sandbox", "prune"], cwd=REPO, check=True,
                   capture_output=True)
    before = {p: p.stat().st_mtime_ns for p in run.glob("cycles/**/results/*.json")}

    resumed = run_cli("evolve", "--config", str(setup), "--resume", str(run))
    out, err = resumed.communicate(timeout=900)
    assert resumed.returncode == 0, err[-3000:]
    assert "status: max_cycles" in out

    repo = WorkspaceRepo.open(run / "workspace")
    assert [t.name for t in repo.tags()] == ["evo-0", "evo-1"]
    for n in (1, 2, 3):
        results = list((run / "cycles" / f"{n:03d}" / "solve" / "results").glob("*.json"))
        trajectories = list((run / "cycles" / f"{n:03d}" / "solve" / "trajectories").glob("*.json"))
        assert len(results) == 2 and len(trajectories) == 2
    # finished attempts were not run again
    after = {p: p.stat().st_mtime_ns for p in run.glob("cycles/**/results/*.json")}
    assert before and all(after[path] == stamp for path, stamp in before.items())
    events = [json.loads(line)["event"] for line in (run / "events.jsonl").read_text().splitlines()]
    assert "run_resume" in events and events[-1] == "run_end"


def test_replay_a_tag_reproduces_its_gate(setup):
    config = load_config(setup, ["max_cycles=1"])
    engine = AdaptiveSkillEngine.start(config, run_id="replayed")
    assert engine.run() == "max_cycles"
    run = engine.run_dir.root
    recorded = json.loads((run / "cycles" / "001" / "gate.json").read_text())
    result = subprocess.run([sys.executable, "-m", "adaptive_skill", "replay", "--run", str(run), "--tag", "evo-1",
                             "--format", "json"], capture_output=True, text=True, cwd=REPO, timeout=600)
    assert result.returncode == 0, result.stderr[-2000:]
    report = json.loads(result.stdout)
    # the scripted agent behaves the same again: the same rounds, scores and decision
    assert report["cycle"] == 1 and report["stands"] is True
    assert report["replayed"]["verdict"] == report["recorded"]["verdict"] == "accept"
    assert report["replayed"]["round_scores"] == recorded["round_scores"] and report["replayed"]["rounds"] == 2
    assert len(list((run / "replays").glob("evo-1-*/mutated/r1/results/*.json"))) == len(engine.holdout)
    text = subprocess.run([sys.executable, "-m", "adaptive_skill", "replay", "--run", str(run), "--tag", "evo-1"],
                          capture_output=True, text=True, cwd=REPO, timeout=600)
    assert text.returncode == 0 and "the decision stands" in text.stdout
    seed = subprocess.run([sys.executable, "-m", "adaptive_skill", "replay", "--run", str(run), "--tag", "evo-0"],
                          capture_output=True, text=True, cwd=REPO)
    assert seed.returncode == 2 and "evo-0 was never gated" in seed.stderr and "Traceback" not in seed.stderr
    bad = subprocess.run([sys.executable, "-m", "adaptive_skill", "replay", "--run", str(run),
                          "--tag", "evo-7"], capture_output=True, text=True, cwd=REPO)
    assert bad.returncode == 2 and "unknown tag or commit 'evo-7'" in bad.stderr


def test_an_unclear_change_runs_to_the_cap_and_a_wrong_judge_is_flagged(tmp_path, docker_client, base_image):
    """A skill that changes nothing: every round ties, so the gate continues up to max_rounds and
    rejects (ties are not an improvement). The judge here calls every attempt a pass while the
    verifier fails them all: the run warns, and the event and gate.json say so."""
    judge = [{"content": {"score": 9, "category": "file-operations", "outcome": "Looks done.",
                          "failure_reason": None}}]
    evolver = [{"when": r"\[exit code", **submit("added notes")}, bash(skill("plain-notes"))]
    path = scripted_engine_config(tmp_path, {"agent": AGENT, "judge": judge, "evolver": evolver}, max_cycles=1,
                                  gating={"max_rounds": 3, "identical_rounds": 3, "judge_min_attempts": 8})
    logged = []
    engine = AdaptiveSkillEngine.start(load_config(path), run_id="unclear", log=logged.append)
    assert engine.run() == "max_cycles"
    run = engine.run_dir.root
    gate = json.loads((run / "cycles" / "001" / "gate.json").read_text())
    assert gate["verdict"] == "reject" and gate["rounds"] == 3 and gate["reason"].endswith("max_rounds 3")
    assert gate["statistic"]["delta"] == 0.0 and gate["rollouts"] == 12
    assert len(list((run / "cycles" / "001" / "gate-mutated").glob("r*/results/*.json"))) == 6
    events = [json.loads(line) for line in (run / "events.jsonl").read_text().splitlines()]
    assert [e["verdict"] for e in events if e["event"] == "gate_round"] == ["continue", "continue", "reject"]
    assert gate["judge_check"]["n"] == 12 and gate["judge_check"]["agreement"] == 0.0 and gate["judge_check"]["warning"]
    warned = [e for e in events if e["event"] == "judge_disagrees"]
    assert len(warned) == 1 and warned[0]["disagreement"] == 1.0
    assert any(line.startswith("WARNING cycle 1: the judge disagrees") for line in logged)


def test_without_the_judge_check_verified_holdout_attempts_are_not_judged(tmp_path, docker_client, base_image):
    """gating.judge_check false: the gate scores holdout attempts by their tests alone and asks the
    judge nothing about them (the cost journal holds the batch's verdicts only); the decision is the
    same verifier-scored one."""
    judge = [{"content": {"score": 9, "category": "file-operations", "outcome": "Looks done.",
                          "failure_reason": None}}]
    evolver = [{"when": r"\[exit code", **submit("added notes")}, bash(skill("plain-notes"))]
    path = scripted_engine_config(tmp_path, {"agent": AGENT, "judge": judge, "evolver": evolver}, max_cycles=1,
                                  gating={"min_rounds": 2, "max_rounds": 2, "judge_check": False})
    engine = AdaptiveSkillEngine.start(load_config(path), run_id="nocheck")
    judge, asked = engine.roles.judge(), []  # the real judge, its questions recorded on the way through
    judge_many = judge.judge_many
    judge.judge_many = lambda items, **kw: (asked.extend(i.task_id for i in items), judge_many(items, **kw))[1]
    assert engine.run() == "max_cycles"
    run = engine.run_dir.root
    gate = json.loads((run / "cycles" / "001" / "gate.json").read_text())
    assert gate["verdict"] == "reject" and gate["rounds"] == 2 and gate["rollouts"] == 8
    assert gate["judge_check"]["n"] == 0 and gate["judge_check"]["pairs"] == [] and not gate["judge_check"]["warning"]
    solve = json.loads((run / "cycles" / "001" / "solve.json").read_text())
    batch = sorted(r["task_id"] for r in solve["results"])
    assert len(batch) == 2 and sorted(asked) == batch  # the observe phase's verdicts, none on holdout


def tags_of(run: Path) -> list[str]:
    return [t.name for t in WorkspaceRepo.open(run / "workspace").tags()]


def test_stop_file_stops_after_the_unit_and_resume_finishes(setup):
    import threading

    config = load_config(setup)
    engine = AdaptiveSkillEngine.start(config, run_id="stopfile")
    run = engine.run_dir.root

    def stop_after_first_phase():
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and not (run / "cycles" / "001" / "solve.json").exists():
            time.sleep(0.05)
        (run / "STOP").write_text("")

    threading.Thread(target=stop_after_first_phase, daemon=True).start()
    assert engine.run() == "stopped"
    checkpoint = json.loads((run / "checkpoint.json").read_text())
    assert checkpoint["status"] == "stopped" and checkpoint["cycle"] == 1 and "solve" in checkpoint["done"]
    resumed = AdaptiveSkillEngine.resume(load_config(setup), run)
    assert not (run / "STOP").exists()
    assert resumed.run() == "max_cycles" and tags_of(run) == ["evo-0", "evo-1"]


def test_sigterm_finishes_the_current_unit_then_resume(setup, docker_client):
    run = setup.parent / "runs" / "termed"
    process = run_cli("evolve", "--config", str(setup), "--run-id", "termed")
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline and process.poll() is None:
        if list((run / "cycles" / "001" / "solve" / "results").glob("*.json")):
            break
        time.sleep(0.05)
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=300)
    assert process.returncode == 0, err[-2000:]
    assert "status: stopped" in out and "stopping after the current unit" in err
    owner_label = "adaptive-skill.owner"
    mine = [c for c in docker_client.containers.list(all=True, filters={"label": owner_label})
            if c.labels.get(owner_label, "").split(":")[1:2] == [str(process.pid)]]
    assert mine == []  # nothing of the stopped run is left running
    resumed = run_cli("evolve", "--config", str(setup), "--resume", str(run))
    out, err = resumed.communicate(timeout=900)
    assert resumed.returncode == 0 and "status: max_cycles" in out, err[-2000:]
    assert tags_of(run) == ["evo-0", "evo-1"]


def test_run_budget_stops_and_resume_with_more_budget(setup, tmp_path):
    priced = [{**reply, "cost": 0.01} for reply in AGENT]
    script = tmp_path / "priced-agent.yaml"
    script.write_text(yaml.safe_dump(priced))
    overrides = [f"models.agent.model=scripted/{script}", "limits.max_cost_per_run=0.05"]
    engine = AdaptiveSkillEngine.start(load_config(setup, overrides), run_id="budget")
    assert engine.run() == "budget"
    run = engine.run_dir.root
    events = [json.loads(line) for line in (run / "events.jsonl").read_text().splitlines()]
    assert any(e["event"] == "budget_exceeded" for e in events)
    assert events[-1]["event"] == "run_end" and events[-1]["status"] == "budget"
    # an attempt refused by the budget is not recorded as a finished result
    for path in run.glob("cycles/**/results/*.json"):
        assert "budget" not in json.loads(path.read_text())["detail"]
    more = AdaptiveSkillEngine.resume(load_config(setup, [overrides[0], "limits.max_cost_per_run=10"]), run)
    assert more.run() == "max_cycles" and tags_of(run) == ["evo-0", "evo-1"]
    resumed = [e for e in more.run_dir.events() if e["event"] == "run_resume"]
    assert [e["changed"] for e in resumed] == [["limits.max_cost_per_run"]]  # the run says what changed


def test_solver_proposed_drafts_reach_the_evolver_and_never_the_library(setup, tmp_path):
    drafting = [{"when": r"\[exit code 0\]\n*$", **submit("done")},
                {"when": "skill-draft", **bash("mkdir -p /skill-draft && printf -- '---\\nname: draft\\n"
                                               "description: Use when x.\\n---\\nsteps\\n' > /skill-draft/SKILL.md")}]
    agent_script = tmp_path / "drafting-agent.yaml"
    agent_script.write_text(yaml.safe_dump(drafting))
    looking = [{"when": r"\[exit code", **submit("looked at the drafts")},
               bash("ls /workspace/skills/_drafts && cat /workspace/skills/_drafts/*/SKILL.md")]
    evolver_script = tmp_path / "looking-evolver.yaml"
    evolver_script.write_text(yaml.safe_dump(looking))
    config = load_config(setup, ["solver_proposed=true", "max_cycles=1", f"models.agent.model=scripted/{agent_script}",
                                 f"models.evolver.model=scripted/{evolver_script}"])
    engine = AdaptiveSkillEngine.start(config, run_id="drafts")
    assert engine.run() == "max_cycles"
    cycle = engine.run_dir.cycle_dir(1)
    solved = json.loads((cycle / "solve.json").read_text())["tasks"]
    assert sorted(p.name for p in (cycle / "drafts").iterdir()) == sorted(solved)
    evolver = json.loads((cycle / "evolve" / "evolver.json").read_text())
    assert all(task in evolver["steps"][0]["output"] for task in solved)  # the evolver saw every draft
    assert "name: draft" in evolver["steps"][0]["output"]
    assert not json.loads((cycle / "evolve.json").read_text())["mutated"]  # drafts never come back
    assert not (engine.run_dir.workspace / "skills" / "_drafts").exists()


def test_the_log_says_why_the_evolvers_change_was_refused_in_printable_text(tmp_path, docker_client, base_image):
    """Quickstart, 2026-11-27: both cycles ended `no change` and the log did not say why. Now the
    evolver's summary and each refusal or violation follow the cycle's evolve line; the model wrote
    them, so a terminal escape or line break in them reaches the log as a space."""
    agent = [{"when": r"\[exit code", **submit("done")}, bash("jq .x /app/data.json > /app/answer.txt")]
    judge = [{"content": {"score": 2, "category": "file-operations", "outcome": "jq was missing.",
                          "failure_reason": "jq: command not found"}}]
    installing = {"diagnosis": "jq is not installed\x1b[2J\nexit 127 in both tasks.", "action": "add",
                  "name": "jq-missing", "description": "Use when jq says command not found.",
                  "steps": ["apt-get install -y jq", "Run the jq command again."],
                  "verification": ["The answer file is not empty."]}
    path = scripted_engine_config(tmp_path, {"agent": agent, "judge": judge,
                                             "evolver": [{"content": json.dumps(installing)}]},
                                  max_cycles=1, evolver={"mode": "structured"})
    logged = []
    engine = AdaptiveSkillEngine.start(load_config(path), run_id="refused", log=logged.append)
    assert engine.run() == "max_cycles"
    at = logged.index("cycle 1 evolve: no change")
    assert logged[at + 1] == "  evolver: add skill jq-missing (not written): jq is not installed [2J exit 127 in both tasks."
    assert logged[at + 2].startswith("  reply: a step installs or downloads something ('apt-get install -y jq')")
    assert not any("\x1b" in line or "\n" in line for line in logged)


def test_a_hot_attempts_commands_are_distilled_into_a_skill_the_gate_accepts(tmp_path, docker_client, base_image):
    """explore + evolver.mode distill, label-free: the agent fails every task at its usual
    temperature and passes only when sampled hot; the explore phase re-attempts the batch's failed
    tasks at 1.0, the judge passes the hot attempt, the distilling evolver writes its command into a
    skill of the tasks' category, and with that skill in the prompt the agent passes the holdout at
    the gate's temperature: the gate accepts and tags it."""
    fix = "echo 42 > /app/answer.txt && echo GOOD"
    agent = [
        {"when": r"\[exit code", **submit("done")},
        {"when": r"echo 42 > /app/answer\.txt", **bash(fix)},  # the skill, placed in the prompt
        {"min_temperature": 0.9, **bash(fix)},  # a hot sample finds it
        bash("echo PLAIN"),
    ]
    path = scripted_engine_config(tmp_path, {"agent": agent, "judge": JUDGE}, max_cycles=1,
                                  evolver={"mode": "distill"}, explore={"passes": 2, "temperature": 1.0},
                                  skill_in_prompt_tokens=300, gating={"temperature": 0.3})
    logged = []
    engine = AdaptiveSkillEngine.start(load_config(path), run_id="distill", log=logged.append)
    assert engine.run() == "max_cycles"
    run = engine.run_dir.root
    cycle = run / "cycles" / "001"
    solve = json.loads((cycle / "solve.json").read_text())
    assert not any(r["passed"] for r in solve["results"])
    explored = json.loads((cycle / "explore.json").read_text())
    batch = sorted(solve["tasks"])
    assert sorted(explored["tasks"]) == batch
    # one pass found both: the second is not run
    assert [(a["task"], a["attempt"], a["passed"], a["commands"]) for a in sorted(explored["attempts"],
            key=lambda a: a["task"])] == [(t, 1, True, [fix]) for t in batch]
    assert json.loads((cycle / "observations" / batch[0] / "explored.json").read_text())[0]["score"] == 9.0
    record = json.loads((cycle / "evolve" / "distill.json").read_text())
    assert record["status"] == "submitted" and [p["explored"] for p in record["passed"]] == [True, True]
    # the two tasks share one instruction: one entry
    assert record["written"] == {"file-operations-worked-commands": [batch[0]]}
    text = (run / "workspace" / "skills" / "file-operations-worked-commands" / "SKILL.md").read_text()
    assert f"1. Write 42 to /app/answer.txt.\n   `{fix}`" in text
    gate = json.loads((cycle / "gate.json").read_text())
    assert gate["accepted"] and gate["statistic"]["delta"] == 1.0
    assert [t.name for t in WorkspaceRepo.open(run / "workspace").tags()] == ["evo-0", "evo-1"]
    assert any("cycle 1 explore: 2 of 2 unpassed task(s) passed at temperature 1" in line for line in logged)
    from adaptive_skill.report import build, render_html, render_markdown

    report = build(run)
    said = f"explore: 2 of 2 unpassed task(s) passed at temperature 1 (2 attempt(s)): {', '.join(batch)}"
    assert said in render_markdown(report) and said in render_html(report)



def _reflecting_run(tmp_path, told: str, fix: str, mistake: str, *, passes: int, reflect: bool):
    """One labelled distill cycle whose scripted agent runs `fix` only when its first message matches
    `told` (the reflect note), and `mistake` otherwise; the engine after its run."""
    agent = [{"when": r"\[exit code", **submit("done")}, {"when": told, **bash(fix)}, bash(mistake)]
    path = scripted_engine_config(tmp_path, {"agent": agent, "judge": JUDGE}, max_cycles=1, trajectory_only=False,
                                  evolver={"mode": "distill"},
                                  explore={"passes": passes, "temperature": 1.0, "reflect": reflect},
                                  gating={"temperature": 0.3, "min_rounds": 1, "max_rounds": 1})
    engine = AdaptiveSkillEngine.start(load_config(path), run_id="reflect", log=lambda line: None)
    assert engine.run() == "max_cycles"
    return engine


@pytest.mark.parametrize("reflect", [True, False])
def test_a_reflected_explore_attempt_is_told_what_the_attempt_before_did_wrong(tmp_path, docker_client, base_image,
                                                                             reflect):
    """explore.reflect: the agent (scripted) fixes its mistake only when it is shown it. The batch's
    attempt cats a file that is not there; the explore attempt's first message carries that command
    and its error after the instruction, the agent then writes the answer and the tests pass it. The
    trajectory's instruction stays the task's, the note is in its metadata. Without reflect the same
    agent repeats the mistake and nothing passes."""
    fix = "echo 42 > /app/answer.txt"
    engine = _reflecting_run(tmp_path, r"did not succeed(.|\n)*`cat /app/input\.txt` -> cat: /app/input\.txt: No such file",
                             fix, "cat /app/input.txt", passes=2, reflect=reflect)
    cycle = engine.run_dir.root / "cycles" / "001"
    batch = sorted(json.loads((cycle / "solve.json").read_text())["tasks"])
    explored = json.loads((cycle / "explore.json").read_text())
    if not reflect:
        assert sorted((a["task"], a["passed"]) for a in explored["attempts"]) == \
            sorted((t, False) for t in batch for _ in range(2))
        trajectory = json.loads(next((cycle / "explore" / "p2" / "trajectories").glob("*.json")).read_text())
        assert "reflection" not in trajectory["metadata"]
        return
    assert sorted((a["task"], a["attempt"], a["passed"], a["commands"]) for a in explored["attempts"]) == \
        [(t, 1, True, [fix]) for t in batch]
    trajectory = json.loads((cycle / "explore" / "p1" / "trajectories" / f"{batch[0]}.json").read_text())
    note = trajectory["metadata"]["reflection"]
    assert note.startswith("An earlier attempt at this task did not succeed.")
    assert "- `cat /app/input.txt` -> cat: /app/input.txt: No such file or directory" in note
    assert trajectory["instruction"] == "Write 42 to /app/answer.txt."
    assert trajectory["messages"][1]["content"] == f"Write 42 to /app/answer.txt.\n\n{note}"
    record = json.loads((cycle / "evolve" / "distill.json").read_text())
    assert [(p["explored"], p["commands"]) for p in record["passed"]] == [(True, [fix]), (True, [fix])]

def test_a_reflected_note_names_the_missing_program_and_what_the_real_container_has(tmp_path, docker_client,
                                                                                   base_image):
    """The batch's attempt runs jq, which the task's image lacks; the explore attempt's note says so and
    lists the programs the harness's probe found in that container (the test image has perl and sed,
    not jq or python3). The scripted agent writes the answer only when told which programs it has."""
    engine = _reflecting_run(tmp_path, r"under any name: `jq`\. Installed: [a-z0-9, ]*perl", "echo 42 > /app/answer.txt",
                             "jq -r .x /app/input.json > /app/answer.txt", passes=1, reflect=True)
    cycle = engine.run_dir.root / "cycles" / "001"
    solve = json.loads((cycle / "solve.json").read_text())
    assert all("jq" in r["programs"]["missing"] and "perl" in r["programs"]["installed"] for r in solve["results"])
    explored = json.loads((cycle / "explore.json").read_text())
    assert sorted((a["task"], a["passed"]) for a in explored["attempts"]) == [(t, True) for t in sorted(solve["tasks"])]
    trajectory = json.loads(next((cycle / "explore" / "p1" / "trajectories").glob("*.json")).read_text())
    line = next(x for x in trajectory["metadata"]["reflection"].splitlines() if x.startswith("Not installed"))
    installed = line.split("Installed: ", 1)[1].removesuffix(". Do it with one of those.").split(", ")
    assert installed == solve["results"][0]["programs"]["installed"] and "jq" not in installed


def test_labelled_explore_attempts_are_decided_by_their_tests_and_not_judged(tmp_path, docker_client, base_image,
                                                                             capsys):
    """trajectory_only off: a verified explore attempt counts by its tests, so no verdict is asked for
    it (run 19 spent 10 of its 26 explore minutes on verdicts only the report read). Here the judge
    would score the hot attempt 2 (it echoes BAD) and the cold one 9 (GOOD): the tests decide both
    ways, and explored.json holds no score."""
    hot = "echo 42 > /app/answer.txt && echo BAD"
    agent = [
        {"when": r"\[exit code", **submit("done")},
        {"min_temperature": 0.9, **bash(hot)},
        bash("echo 41 > /app/answer.txt && echo GOOD"),
    ]
    path = scripted_engine_config(tmp_path, {"agent": agent, "judge": JUDGE}, max_cycles=1, trajectory_only=False,
                                  evolver={"mode": "distill"}, explore={"passes": 2, "temperature": 1.0},
                                  skill_in_prompt_tokens=300, gating={"temperature": 0.3})
    engine = AdaptiveSkillEngine.start(load_config(path), run_id="labelled", log=lambda line: None)
    assert engine.run() == "max_cycles"
    assert "explore 1/2 at temperature 1: judge" not in capsys.readouterr().err  # no empty judge phase shown
    cycle = engine.run_dir.root / "cycles" / "001"
    solve = json.loads((cycle / "solve.json").read_text())
    batch = sorted(solve["tasks"])
    observed = json.loads((cycle / "observe.json").read_text())
    assert [i["verdict"]["score"] for i in observed["items"]] == [9, 9]  # the batch itself is still judged
    explored = json.loads((cycle / "explore.json").read_text())
    assert sorted(explored["tasks"]) == batch  # failed by their tests, whatever the judge said
    assert sorted((a["task"], a["attempt"], a["score"], a["passed"], a["commands"]) for a in explored["attempts"]) \
        == [(t, 1, None, True, [hot]) for t in batch]
    record = json.loads((cycle / "evolve" / "distill.json").read_text())
    assert [p["explored"] for p in record["passed"]] == [True, True]


def test_label_free_observe_reads_the_final_state(tmp_path, docker_client, base_image):
    """judge.check_state, label-free: the agent writes 41 and prints 42, a record any transcript judge
    would pass. The judge's model writes a check from the instruction (cat the answer file), the check
    runs on a copy of the attempt's state and prints 41, and the judge, shown that, fails the attempt;
    the distiller then keeps nothing. The questions hold no test result; the check's record stays
    beside the state for a resumed run."""
    agent = [{"when": r"\[exit code", **submit("done")}, bash("echo 41 > /app/answer.txt; echo 42")]
    judge = [
        {"when": "You check whether a task", "content": {"checks": ["cat /app/answer.txt", "cat /tests/test.sh"]}},
        {"when": r"\(exit 0\)\n41", "content": {"score": 2, "category": "file-operations",
                                                 "outcome": "The file holds 41.", "failure_reason": "41, not 42"}},
        {"content": {"score": 9, "category": "file-operations", "outcome": "It printed 42.", "failure_reason": None}},
    ]
    path = scripted_engine_config(tmp_path, {"agent": agent, "judge": judge}, max_cycles=1,
                                  evolver={"mode": "distill"}, judge={"check_state": True},
                                  gating={"temperature": 0.3, "min_rounds": 1, "max_rounds": 1})
    engine = AdaptiveSkillEngine.start(load_config(path), run_id="checked", log=lambda line: None)
    assert engine.run() == "max_cycles"
    cycle = engine.run_dir.root / "cycles" / "001"
    observed = json.loads((cycle / "observe.json").read_text())
    assert [item["verdict"]["score"] for item in observed["items"]] == [2.0, 2.0]
    task = observed["items"][0]["task"]
    checked = json.loads((cycle / "solve" / "state" / task / "checks.json").read_text())
    assert [(r["command"], r["output"].strip().splitlines()[-1]) for r in checked["runs"]] == [
        ("look /app/answer.txt", "41"), ("cat /app/answer.txt", "41")]
    assert checked["refused"] and "verifier" in checked["refused"][0]
    record = json.loads((cycle / "evolve" / "distill.json").read_text())
    assert record["passed"] == []
    assert not (cycle / "observations" / task / "tests.json").exists()  # label-free: no test result kept for it


@pytest.mark.parametrize("judge_says", ["pass", "fail"])
def test_label_free_no_phase_reads_a_test_result(tmp_path, docker_client, base_image, judge_says):
    """trajectory_only (the default) with distill, explore and reflect: the agent writes 41 (the tests
    fail it) and looks for the tests, which are not there. What explore retries, the reflect note and
    what the distiller keeps follow the judge's estimate, never the tests: when the judge passes the
    attempts nothing is retried and their commands are distilled; when it fails them both are retried
    with the note. Nothing the evolver and distiller read carries a test result."""
    look = "ls -la /tests /solution /logs/verifier 2>&1; echo 41 > /app/answer.txt"
    agent = [{"when": r"\[exit code", **submit("done")}, bash(look)]
    score = 9 if judge_says == "pass" else 2
    judge = [{"content": {"score": score, "category": "file-operations", "outcome": "Wrote the answer file.",
                          "failure_reason": None if score >= 7 else "unsure"}}]
    path = scripted_engine_config(tmp_path, {"agent": agent, "judge": judge}, max_cycles=1,
                                  evolver={"mode": "distill"},
                                  explore={"passes": 1, "temperature": 1.0, "reflect": True},
                                  gating={"temperature": 0.3, "min_rounds": 1, "max_rounds": 1})
    engine = AdaptiveSkillEngine.start(load_config(path), run_id="labelfree", log=lambda line: None)
    assert engine.run() == "max_cycles"
    cycle = engine.run_dir.root / "cycles" / "001"
    solve = json.loads((cycle / "solve.json").read_text())
    batch = sorted(solve["tasks"])
    assert not any(r["passed"] for r in solve["results"])  # the tests failed every attempt
    trajectory = json.loads((cycle / "solve" / "trajectories" / f"{batch[0]}.json").read_text())
    seen = json.dumps(trajectory["messages"])
    assert "'/tests': No such file" in seen and "'/solution': No such file" in seen and "reward" not in seen
    explored = json.loads((cycle / "explore.json").read_text())
    record = json.loads((cycle / "evolve" / "distill.json").read_text())
    if judge_says == "pass":
        assert explored["tasks"] == [] and explored["attempts"] == []
        assert sorted(p["task"] for p in record["passed"]) == batch  # the estimate chose them, wrongly
    else:
        assert sorted(explored["tasks"]) == batch
        note = json.loads((cycle / "explore" / "p1" / "trajectories" / f"{batch[0]}.json").read_text())
        assert note["metadata"]["reflection"].startswith("An earlier attempt at this task did not succeed")
        assert record["passed"] == []
    for path in (cycle / "observations").rglob("*"):  # every file the evolver and distiller read
        if path.is_file():
            text = path.read_text()
            assert path.name != "tests.json" and "reward" not in text, path  # the tests' file names it
            # nor any other trace of a test result: the harness's failure modes (None exactly when the
            # tests passed, so even "no trajectory (unresolved)" told one bit) and the verifier's lines
            assert not any(word in text for word in ("unresolved", "failure_mode", "RESULT: PASS", "RESULT: FAIL",
                                                     "agent_timeout", "agent_error")), path
            if path.suffix == ".json":
                data = json.loads(text)
                rows = data if isinstance(data, list) else [data]
                assert not any(isinstance(r, dict) and {"passed", "tests_passed"} & set(r)
                               and "score" not in r for r in rows), path
    assert '"reward"' not in json.dumps(record) and "tests" not in json.dumps(record).replace("/tests", "")


@pytest.mark.parametrize("same_files", [True, False, None])
def test_label_free_agreement_counts_a_pass_only_when_two_attempts_left_the_same_files(
        tmp_path, docker_client, base_image, same_files):
    """explore.agree: the judge passes every attempt. When each attempt writes the same answer file,
    the first explore pass confirms the batch's attempts (the vote's attempt 0) and their commands are
    distilled; when each attempt leaves a file of its own (the time in nanoseconds), no two agree in
    two explore passes and nothing is distilled, however sure the judge was; when no attempt changes
    a file (None: it only prints), their untouched files agree with nothing either (run 25 counted
    such pairs). The tests are never read."""
    write = {True: "echo 42 > /app/answer.txt", False: "date +%s%N > /app/answer.txt", None: "echo 42"}[same_files]
    agent = [{"when": r"\[exit code", **submit("done")}, bash(write)]
    judge = [{"content": {"score": 9, "category": "file-operations", "outcome": "Wrote the answer file.",
                          "failure_reason": None}}]
    path = scripted_engine_config(tmp_path, {"agent": agent, "judge": judge}, max_cycles=1,
                                  evolver={"mode": "distill"},
                                  explore={"passes": 2, "temperature": 1.0, "agree": True},
                                  gating={"temperature": 0.3, "min_rounds": 1, "max_rounds": 1})
    engine = AdaptiveSkillEngine.start(load_config(path), run_id="agree", log=lambda line: None)
    assert engine.run() == "max_cycles"
    cycle = engine.run_dir.root / "cycles" / "001"
    batch = json.loads((cycle / "solve.json").read_text())["tasks"]
    explored = json.loads((cycle / "explore.json").read_text())
    assert sorted(explored["tasks"]) == sorted(batch)  # the judge's passes are attempted again too
    record = json.loads((cycle / "evolve" / "distill.json").read_text())
    votes = {t: json.loads((cycle / "observations" / t / "agreed.json").read_text()) for t in batch}
    if same_files:
        assert explored["agreed"] == {t: 0 for t in batch}
        assert [a["attempt"] for a in explored["attempts"]] == [1] * len(batch)  # confirmed in one pass
        assert sorted(p["task"] for p in record["passed"]) == sorted(batch)
        assert all(not p["explored"] for p in record["passed"])  # the batch's own commands
        assert all(v["passed"] and v["commands"] == [write] for v in votes.values())
    else:
        assert explored["agreed"] == {t: None for t in batch}
        assert len(explored["attempts"]) == 2 * len(batch)
        assert record["passed"] == []
        for vote in votes.values():
            digests = [v["digest"] for v in vote["votes"]]
            assert not vote["passed"] and len(digests) == 3 and all(digests)
            if same_files is None:  # three attempts, the same untouched files
                assert set(digests) == {vote["untouched"]}
            else:
                assert len(set(digests)) == 3 and vote["untouched"] not in digests


def test_without_the_judge_in_the_vote_agreement_alone_counts_and_explore_attempts_are_not_judged(
        tmp_path, docker_client, base_image):
    """explore.judge: false: the judge fails every attempt, yet the batch's attempts, which the first
    explore pass repeats file for file, count and are distilled; the judge is asked about the batch's
    attempts only (observe), never about an explore attempt."""
    agent = [{"when": r"\[exit code", **submit("done")}, bash("echo 42 > /app/answer.txt")]
    judge = [{"content": {"score": 2, "category": "file-operations", "outcome": "Unsure.",
                          "failure_reason": "unclear"}}]
    path = scripted_engine_config(tmp_path, {"agent": agent, "judge": judge}, max_cycles=1,
                                  evolver={"mode": "distill"},
                                  explore={"passes": 2, "temperature": 1.0, "agree": True, "judge": False},
                                  gating={"temperature": 0.3, "min_rounds": 1, "max_rounds": 1, "judge_check": False})
    engine = AdaptiveSkillEngine.start(load_config(path), run_id="agree-alone", log=lambda line: None)
    assert engine.run() == "max_cycles"
    cycle = engine.run_dir.root / "cycles" / "001"
    batch = json.loads((cycle / "solve.json").read_text())["tasks"]
    explored = json.loads((cycle / "explore.json").read_text())
    assert explored["agreed"] == {t: 0 for t in batch}
    assert all(a["score"] is None for a in explored["attempts"])  # not judged
    record = json.loads((cycle / "evolve" / "distill.json").read_text())
    assert sorted(p["task"] for p in record["passed"]) == sorted(batch)
    for task in batch:  # the judge failed the batch's attempt; the count stands on the agreement
        votes = json.loads((cycle / "observations" / task / "agreed.json").read_text())["votes"]
        assert [v["score"] for v in votes] == [2.0, None]


@pytest.mark.parametrize("same_as_agent", [True, False])
def test_another_models_attempt_must_confirm_what_the_vote_counted(tmp_path, docker_client, base_image,
                                                                    same_as_agent):
    """explore.confirm_model: the agent's two attempts agree (the same file), the judge passes them,
    and the vote counts every task; each counted task is attempted once more by the other model. Where
    it leaves the same file, the count stands and is distilled; where it leaves another, the count is
    dropped (two attempts of one model that make one mistake agree; another model errs otherwise)."""
    agent = [{"when": r"\[exit code", **submit("done")}, bash("echo 42 > /app/answer.txt")]
    other = [{"when": r"\[exit code", **submit("done")},
             bash("echo 42 > /app/answer.txt" if same_as_agent else "echo 41 > /app/answer.txt")]
    (tmp_path / "other.yaml").write_text(yaml.safe_dump(other))
    judge = [{"content": {"score": 9, "category": "file-operations", "outcome": "Wrote the answer file.",
                          "failure_reason": None}}]
    path = scripted_engine_config(tmp_path, {"agent": agent, "judge": judge}, max_cycles=1,
                                  evolver={"mode": "distill"},
                                  explore={"passes": 1, "temperature": 1.0, "agree": True,
                                           "confirm_model": f"scripted/{tmp_path / 'other.yaml'}"},
                                  gating={"temperature": 0.3, "min_rounds": 1, "max_rounds": 1})
    logged: list[str] = []
    engine = AdaptiveSkillEngine.start(load_config(path), run_id="confirm", log=logged.append)
    assert engine.run() == "max_cycles"
    cycle = engine.run_dir.root / "cycles" / "001"
    batch = json.loads((cycle / "solve.json").read_text())["tasks"]
    explored = json.loads((cycle / "explore.json").read_text())
    record = json.loads((cycle / "evolve" / "distill.json").read_text())
    votes = {t: json.loads((cycle / "observations" / t / "agreed.json").read_text()) for t in batch}
    [folder] = (cycle / "explore" / "confirm").iterdir()  # one folder per confirming model
    assert sorted(p.name for p in (folder / "trajectories").iterdir()) == \
        sorted(f"{t}.json" for t in batch)  # one attempt of the other model per counted task
    assert all(len({v["digest"] for v in votes[t]["votes"]}) == 1 for t in batch)  # the agent's attempts agreed
    assert all(v["confirmed"]["same"] is same_as_agent and v["confirmed"]["digest"] for v in votes.values())
    if same_as_agent:
        assert explored["agreed"] == {t: 0 for t in batch}
        assert sorted(p["task"] for p in record["passed"]) == sorted(batch)
    else:
        assert explored["agreed"] == {t: None for t in batch}
        assert record["passed"] == [] and not any(v["passed"] for v in votes.values())
        assert not any(a["passed"] or a["commands"] for a in explored["attempts"])  # the report counts no pass
    line = next(x for x in logged if "passed with two attempts agreeing" in x)
    assert f"{len(batch) if same_as_agent else 0} of {len(batch)} count(s) confirmed by scripted/" in line


@pytest.mark.parametrize("judge_says", ["pass", "fail"])
def test_label_free_agreement_tells_the_reflect_note_only_where_the_estimate_failed_the_attempt_before(
        tmp_path, docker_client, base_image, judge_says):
    """explore.agree with explore.reflect: every batch task is attempted again, but the note ("an
    earlier attempt at this task did not succeed") goes only to a task whose attempt before the judge
    failed. Run 25 told it to the judge's passes too, and right answers were re-tried "another way".
    Each attempt leaves files of its own, so no two agree and both passes run."""
    agent = [{"when": r"\[exit code", **submit("done")}, bash("date +%s%N > /app/answer.txt")]
    score = 9 if judge_says == "pass" else 2
    judge = [{"content": {"score": score, "category": "file-operations", "outcome": "Wrote the answer file.",
                          "failure_reason": None if score >= 7 else "unsure"}}]
    path = scripted_engine_config(tmp_path, {"agent": agent, "judge": judge}, max_cycles=1,
                                  evolver={"mode": "distill"},
                                  explore={"passes": 2, "temperature": 1.0, "reflect": True, "agree": True},
                                  gating={"temperature": 0.3, "min_rounds": 1, "max_rounds": 1})
    engine = AdaptiveSkillEngine.start(load_config(path), run_id="agree-note", log=lambda line: None)
    assert engine.run() == "max_cycles"
    cycle = engine.run_dir.root / "cycles" / "001"
    batch = json.loads((cycle / "solve.json").read_text())["tasks"]
    for folder in ("p1", "p2"):
        for task in batch:
            metadata = json.loads((cycle / "explore" / folder / "trajectories" / f"{task}.json").read_text())["metadata"]
            if judge_says == "pass":
                assert "reflection" not in metadata, (folder, task)
            else:
                assert metadata["reflection"].startswith("An earlier attempt at this task did not succeed"), (folder, task)

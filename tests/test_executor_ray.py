"""The `ray` executor against a real local Ray instance (2 worker processes) and real Docker: oracle
and scripted-LLM batches, results and trajectories on the driver's disk, resume, and a worker
killed mid-batch whose attempt Ray runs again."""

from __future__ import annotations

import os
import signal
import time
from collections import Counter
from pathlib import Path

import pytest
import yaml
from patience import patience
from taskfactory import make_task

from adaptive_skill.config import EvolveConfig, ExecutorConfig
from adaptive_skill.executors import AttemptJob, make_executor
from adaptive_skill.executors.node import EXECUTOR_LABEL
from adaptive_skill.llm import Accounting
from adaptive_skill.tasks import load_suite

REPO = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.docker


def _unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI is set: the Ray tests must run, not skip)", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="module")
def ray_instance(docker_client, base_image):
    """A private Ray instance on this machine: 2 CPUs, so 2 worker processes run attempts."""
    try:
        import ray
    except ImportError:
        _unavailable("Ray is not installed (pip install -e '.[ray]')")
    if ray.is_initialized():
        ray.shutdown()
    # address "local": a new instance even where this machine already belongs to a cluster
    ray.init(address="local", num_cpus=2, resources={"docker": 2}, include_dashboard=False, log_to_driver=False,
             object_store_memory=128 << 20, namespace="adaptive-skill-tests")
    yield ray
    ray.shutdown()


@pytest.fixture
def config(tmp_path, ray_instance):
    def make(**executor):
        settings = {"kind": "ray", "address": "auto", "node_cache_dir": str(tmp_path / "node-cache"), **executor}
        return EvolveConfig(workers=2, executor=ExecutorConfig(**settings))
    return make


def suite(root: Path, count: int, **kwargs):
    for index in range(count):
        make_task(root / "suite", f"task-{index}", **kwargs)
    return load_suite(root / "suite")


class Seen:
    """Every callback, to check each attempt is reported exactly once."""

    def __init__(self):
        self.started, self.finished = [], []

    def on_start(self, task):
        self.started.append(task.id)

    def on_result(self, result, cached):
        self.finished.append((result.task_id, cached))


def test_oracle_batch_and_resume(tmp_path, config, test_session_labels):
    tasks = suite(tmp_path, 3)
    out = tmp_path / "out" / "results"
    job = AttemptJob(agent="oracle", config=config(), results_dir=out, labels=test_session_labels)
    executor = make_executor(job.config)
    seen = Seen()
    results = executor.run(tasks, job, on_start=seen.on_start, on_result=seen.on_result)
    assert [(r.task_id, r.passed, r.failure_mode) for r in results] == [
        (f"task-{i}", True, None) for i in range(3)], [r.detail for r in results]
    assert sorted(seen.started) == [t.id for t in tasks] and sorted(seen.finished) == [(t.id, False) for t in tasks]
    assert sorted(p.name for p in out.iterdir()) == ["task-0.json", "task-1.json", "task-2.json"]

    # a restarted driver submits only what has no result on its disk
    stamps = {p.name: p.stat().st_mtime_ns for p in out.iterdir()}
    (out / "task-1.json").unlink()
    again = Seen()
    results = executor.run(tasks, job, on_start=again.on_start, on_result=again.on_result)
    assert [r.passed for r in results] == [True, True, True]
    assert again.started == ["task-1"] and sorted(again.finished) == [("task-0", True), ("task-1", False),
                                                                      ("task-2", True)]
    assert all((out / name).stat().st_mtime_ns == stamp for name, stamp in stamps.items() if name != "task-1.json")


DRAFT = ("mkdir -p /skill-draft && printf -- '---\\nname: answer-files\\ndescription: Use when a task wants an "
         "answer file.\\n---\\nWrite it.\\n' > /skill-draft/SKILL.md")
USAGE = {"usage": {"prompt_tokens": 100, "completion_tokens": 10}, "cost": 0.01}
AGENT = [  # rule mode: the same behaviour in every worker process, whatever it ran before
    {"when": r"\[exit code", "tool_calls": [{"name": "submit", "arguments": {"answer": "done"}}], **USAGE},
    {"tool_calls": [{"name": "bash", "arguments": {"command": f"echo 42 > /app/answer.txt && {DRAFT}"}}], **USAGE},
]


def test_scripted_llm_batch_streams_trajectories_and_costs(tmp_path, config, test_session_labels):
    tasks = suite(tmp_path, 3)
    script = tmp_path / "agent.yaml"
    script.write_text(yaml.safe_dump(AGENT))
    settings = config().model_dump()
    settings.update(solver_proposed=True, models={"agent": {"model": f"scripted/{script}"}},
                    limits={"max_steps": 4})
    evolve = EvolveConfig.model_validate(settings)
    out = tmp_path / "run" / "solve"
    job = AttemptJob(agent="llm", config=evolve, results_dir=out / "results", trajectories_dir=out / "trajectories",
                     workspace=REPO / "workspace", drafts_dir=out.parent / "drafts", labels=test_session_labels)
    accounting = Accounting(evolve.limits)
    results = make_executor(evolve, accounting=accounting).run(tasks, job)

    assert [(r.task_id, r.agent, r.passed) for r in results] == [(t.id, "llm", True) for t in tasks], \
        [r.detail for r in results]
    for result in results:  # the trajectory came back: it is a file on this machine, under the run
        path = Path(result.trajectory_path)
        assert path == out / "trajectories" / f"{result.task_id}.json"
        assert "echo 42 > /app/answer.txt" in path.read_text()
        assert "answer-files" in (out.parent / "drafts" / result.task_id / "SKILL.md").read_text()
    # each node's model calls were added to the driver's ledger: 2 calls per attempt
    agent = accounting.totals(role="agent")
    assert (agent.calls, agent.prompt_tokens, agent.completion_tokens) == (6, 600, 60)
    assert agent.cost == pytest.approx(0.06)
    assert accounting.totals(task_id="task-1").calls == 2
    # bundles are named by content: the 3 tasks differ only in their names, so a node holds one task
    # bundle and one of the workspace
    assert len(list((tmp_path / "node-cache" / "bundles").iterdir())) == 2


def test_skill_files_and_memory_travel_to_the_node(tmp_path, config, test_session_labels):
    """The workspace bundle carries memory and skill scripts: on the node the memory entry is in the
    system prompt and the skill's script runs from /skills with its executable bit."""
    import json
    import shutil

    workspace = tmp_path / "ws"
    shutil.copytree(REPO / "workspace", workspace)
    (workspace / "memory" / "notes.jsonl").write_text(json.dumps({"text": "MEMO-RAY-55 answers go to /app"}) + "\n")
    scripts = workspace / "skills" / "probe-app" / "scripts"
    scripts.mkdir(parents=True)
    (scripts.parent / "SKILL.md").write_text("---\nname: probe-app\ndescription: Use when probing /app.\n---\n"
                                             "## Steps\n1. Run it.\n\n## Verification\n- PROBE printed.\n")
    (scripts / "probe.sh").write_text("#!/bin/bash\necho PROBE-ON-NODE\n")
    (scripts / "probe.sh").chmod(0o755)
    script = tmp_path / "agent.yaml"
    script.write_text(yaml.safe_dump([
        {"when": r"\[exit code", "tool_calls": [{"name": "submit", "arguments": {"answer": "done"}}]},
        {"tool_calls": [{"name": "bash", "arguments": {
            "command": "/skills/probe-app/scripts/probe.sh && echo 42 > /app/answer.txt"}}]}]))
    settings = config().model_dump()
    settings.update(models={"agent": {"model": f"scripted/{script}"}}, limits={"max_steps": 4})
    evolve = EvolveConfig.model_validate(settings)
    out = tmp_path / "solve"
    job = AttemptJob(agent="llm", config=evolve, results_dir=out / "results", trajectories_dir=out / "trajectories",
                     workspace=workspace, labels=test_session_labels)
    [result] = make_executor(evolve, accounting=Accounting(evolve.limits)).run(suite(tmp_path, 1), job)
    assert result.passed, result.detail
    saved = json.loads(Path(result.trajectory_path).read_text())
    assert "MEMO-RAY-55" in saved["messages"][0]["content"]
    assert saved["steps"][0]["output"].strip() == "PROBE-ON-NODE"
    assert saved["metadata"]["skill_files"]["files"]["probe-app"] == ["SKILL.md", "scripts/probe.sh"]


def kill_a_worker_mid_attempt(docker_client, labels, batch):
    """SIGKILL the Ray worker process of an attempt whose container is running (the attempt is then
    surely mid-way: its oracle sleeps). Returns (task id, container name)."""
    selector = [f"{key}={value}" for key, value in labels.items()] + [f"{EXECUTOR_LABEL}=ray"]
    deadline = time.monotonic() + patience(300)  # a hang guard, scaled to the load (tests/patience.py)
    while time.monotonic() < deadline and not batch.done():
        for container in docker_client.containers.list(filters={"label": selector, "status": "running"}):
            pid = int(container.labels["adaptive-skill.owner"].split(":")[1])
            try:
                title = Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:
                continue
            if title.startswith(b"ray::attempt:"):  # Ray names the worker after the task it runs
                os.kill(pid, signal.SIGKILL)
                return container.labels["adaptive-skill.task"], container.name
        time.sleep(0.1)
    pytest.fail("no attempt was seen running in a Ray worker")


def run_with_a_kill(tmp_path, config, docker_client, labels, count, **executor):
    from concurrent.futures import ThreadPoolExecutor

    tasks = suite(tmp_path, count, solve="sleep 4; echo 42 > /app/answer.txt\n")
    out = tmp_path / "results"
    job = AttemptJob(agent="oracle", config=config(**executor), results_dir=out, labels=labels)
    seen = Seen()
    with ThreadPoolExecutor(1) as pool:
        batch = pool.submit(make_executor(job.config).run, tasks, job, on_start=seen.on_start,
                            on_result=seen.on_result)
        victim, container = kill_a_worker_mid_attempt(docker_client, labels, batch)
        results = batch.result(timeout=patience(600))
    assert Counter(task_id for task_id, _ in seen.finished) == Counter(t.id for t in tasks)  # exactly once
    assert sorted(p.name for p in out.iterdir()) == sorted(f"{t.id}.json" for t in tasks)
    return {r.task_id: r for r in results}, victim, container


def test_killed_worker_is_retried_and_every_result_lands_once(tmp_path, config, docker_client,
                                                              test_session_labels):
    results, victim, container = run_with_a_kill(tmp_path, config, docker_client, test_session_labels, 4,
                                                 max_retries=2)
    assert all(r.passed for r in results.values()), {t: r.detail for t, r in results.items() if not r.passed}
    # the dead worker could not close its sandbox; the node removed it when the attempt ran again
    assert not docker_client.containers.list(all=True, filters={"name": container})


def test_killed_worker_without_retries_is_a_sandbox_error(tmp_path, config, docker_client, test_session_labels):
    results, victim, _ = run_with_a_kill(tmp_path, config, docker_client, test_session_labels, 2, max_retries=0)
    assert results[victim].failure_mode == "sandbox_error" and "attempt was lost" in results[victim].detail
    assert all(r.passed for task, r in results.items() if task != victim)


def test_engine_cycle_on_ray(tmp_path, config, test_session_labels):
    """One engine cycle with executor.kind ray: solve and both sides of every gate round run on Ray
    workers; the judge reads the trajectories from the run directory and every agent call is in the
    driver's journal."""
    import json

    from adaptive_skill.config import load_config
    from adaptive_skill.engine import AdaptiveSkillEngine

    suite(tmp_path, 5)
    skill = ("mkdir -p /workspace/skills/careful-checks && printf -- '---\\nname: careful-checks\\ndescription: "
             "Use when writing answer files.\\n---\\n## Steps\\n1. Write it.\\n## Verification\\n- cat it\\n' "
             "> /workspace/skills/careful-checks/SKILL.md")
    scripts = {
        "agent": AGENT,
        "judge": [{"content": {"score": 8, "category": "file-operations", "outcome": "Wrote the answer.",
                               "failure_reason": None}}],
        "evolver": [{"when": r"\[exit code", "tool_calls": [{"name": "submit", "arguments": {"answer": "added"}}]},
                    {"tool_calls": [{"name": "bash", "arguments": {"command": skill}}]}],
    }
    models = {}
    for role, script in scripts.items():
        (tmp_path / f"{role}.yaml").write_text(yaml.safe_dump(script))
        models[role] = {"model": f"scripted/{tmp_path / f'{role}.yaml'}"}
    settings = {"batch_size": 2, "holdout_ratio": 0.4, "max_cycles": 1, "workers": 2, "seed": 1,
                "paths": {"workspace": str(REPO / "workspace"), "suite": str(tmp_path / "suite"),
                          "runs_dir": str(tmp_path / "runs")},
                "models": models, "limits": {"max_steps": 4}, "gating": {"max_rounds": 2},
                "executor": config().executor.model_dump(),
                # the scripted single evolver, no explore phase (not the learning setup's defaults)
                "evolver": {"mode": "single"}, "explore": {"passes": 0}, "skill_in_prompt_tokens": 0}
    (tmp_path / "cycle.yaml").write_text(yaml.safe_dump(settings))
    engine = AdaptiveSkillEngine.start(load_config(tmp_path / "cycle.yaml"), run_id="on-ray")
    assert engine.run() == "max_cycles"

    cycle = engine.run_dir.cycle_dir(1)
    solved = json.loads((cycle / "solve.json").read_text())
    assert [r["passed"] for r in solved["results"]] == [True, True]
    assert all(Path(r["trajectory_path"]).parent == cycle / "solve" / "trajectories" for r in solved["results"])
    observed = json.loads((cycle / "observe.json").read_text())
    assert [i["verdict"]["score"] for i in observed["items"]] == [8, 8]  # the judge read what came back
    gate = json.loads((cycle / "gate.json").read_text())
    # Both sides pass every holdout task in both rounds: no evidence of an improvement, so the cap rejects.
    assert gate["gated"] and gate["rounds"] == 2 and not gate["accepted"]
    assert all(pair == [1.0, 1.0] for one in gate["round_scores"] for pair in one.values())
    # 2 solve + 2 rounds x 2 sides x 2 holdout attempts, 2 agent calls each, all in the driver's journal
    journal = [json.loads(line) for line in (engine.run_dir.root / "costs.jsonl").read_text().splitlines()]
    agent = [e for e in journal if e["role"] == "agent"]
    assert len(agent) == 20 and engine.accounting.totals(role="agent").calls == 20
    attempts = [e["attempt"] for e in agent]  # each call tagged with the attempt it paid for
    assert len(set(attempts)) == 10 and all(attempts.count(a) == 2 for a in attempts)
    assert all((engine.run_dir.root / a).is_file() for a in attempts)


def test_budget_spent_on_a_node_stops_the_batch(tmp_path, config, test_session_labels):
    """Two attempts spend $0.02 each; the third is sent once the driver has counted one of them,
    hits the run's budget on its node and stops the batch the way a local attempt does."""
    from adaptive_skill.llm import BudgetExceeded

    tasks = suite(tmp_path, 3)
    script = tmp_path / "agent.yaml"
    script.write_text(yaml.safe_dump(AGENT))
    settings = config(max_in_flight=2).model_dump()
    settings.update(models={"agent": {"model": f"scripted/{script}"}},
                    limits={"max_steps": 4, "max_cost_per_run": 0.015})
    evolve = EvolveConfig.model_validate(settings)
    out = tmp_path / "solve"
    job = AttemptJob(agent="llm", config=evolve, results_dir=out / "results", trajectories_dir=out / "trajectories",
                     workspace=REPO / "workspace", labels=test_session_labels)
    accounting = Accounting(evolve.limits)
    with pytest.raises(BudgetExceeded, match="run cost budget spent"):
        make_executor(evolve, accounting=accounting).run(tasks, job)
    assert not (out / "results" / "task-2.json").exists()  # no result: a resume runs it again
    landed = len(list((out / "results").iterdir()))
    assert landed >= 1 and accounting.totals(role="agent").calls == 2 * landed


def _label_free_run(tmp_path: Path, executor: dict | None) -> dict:
    """One label-free cycle (explore.agree, distill) whose agent writes the same answer every attempt."""
    import json

    from adaptive_skill.config import load_config
    from adaptive_skill.engine import AdaptiveSkillEngine

    root = tmp_path / ("ray" if executor else "local")
    suite(root, 4)
    scripts = {
        "agent": [{"when": r"\[exit code", "tool_calls": [{"name": "submit", "arguments": {"answer": "done"}}]},
                  {"tool_calls": [{"name": "bash", "arguments": {"command": "echo 42 > /app/answer.txt"}}]}],
        "judge": [{"content": {"score": 9, "category": "file-operations", "outcome": "Wrote the answer file.",
                               "failure_reason": None}}],
    }
    models = {}
    for role, script in scripts.items():
        (root / f"{role}.yaml").write_text(yaml.safe_dump(script))
        models[role] = {"model": f"scripted/{root / f'{role}.yaml'}"}
    settings = {"batch_size": 2, "holdout_ratio": 0.5, "max_cycles": 1, "workers": 2, "seed": 1,
                "paths": {"workspace": str(REPO / "workspace"), "suite": str(root / "suite"),
                          "runs_dir": str(root / "runs")},
                "models": models, "limits": {"max_steps": 4}, "gating": {"min_rounds": 1, "max_rounds": 1},
                "evolver": {"mode": "distill"}, "skill_in_prompt_tokens": 300,
                "explore": {"passes": 1, "temperature": 1.0, "agree": True, "reflect": False},
                **({"executor": executor} if executor else {})}
    (root / "cycle.yaml").write_text(yaml.safe_dump(settings))
    engine = AdaptiveSkillEngine.start(load_config(root / "cycle.yaml"), run_id="label-free", log=lambda line: None)
    assert engine.run() == "max_cycles"
    cycle = engine.run_dir.cycle_dir(1)
    return {"explore": json.loads((cycle / "explore.json").read_text()),
            "distill": json.loads((cycle / "evolve" / "distill.json").read_text()),
            "states": sorted(p.name for p in (cycle / "solve" / "state").iterdir())}


def test_the_label_free_setup_counts_on_ray_what_it_counts_locally(tmp_path, config, test_session_labels):
    """Issue 67: attempts on Ray nodes send back their final state as they send their trajectory, so
    explore's vote counts passes on a cluster, the same ones as the local executor on the same seeds
    (before, every digest there was None and a run on a cluster distilled nothing)."""
    local = _label_free_run(tmp_path, None)
    ray = _label_free_run(tmp_path, config().executor.model_dump())
    assert local["explore"]["agreed"] and all(v == 0 for v in local["explore"]["agreed"].values())
    assert ray["explore"]["agreed"] == local["explore"]["agreed"]
    assert ray["states"] == local["states"] and len(ray["states"]) == 2
    assert sorted(p["task"] for p in ray["distill"]["passed"]) == sorted(p["task"] for p in local["distill"]["passed"])
    assert len(ray["distill"]["passed"]) == 2


def test_a_nodes_state_lands_only_as_a_manifest_and_its_tars(tmp_path):
    """What a node sends back is data: names other than the manifest and `<n>.tar` are left out, and so
    is a state over the size an attempt may keep."""
    from adaptive_skill.executors.landing import land_state
    from adaptive_skill.sandbox.state import MANIFEST, STATE_MAX_BYTES

    land_state({MANIFEST: b"{}", "0.tar": b"t", "../escape": b"x", "/etc/passwd": b"x", "x.tar.sh": b"x"},
               tmp_path / "a")
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == ["0.tar", MANIFEST]
    assert not (tmp_path / "escape").exists()
    land_state({MANIFEST: b"{}", "0.tar": b"\0" * (STATE_MAX_BYTES + (2 << 20))}, tmp_path / "b")
    assert list((tmp_path / "b").iterdir()) == []

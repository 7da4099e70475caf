"""`evolve --resume` keeps what the run measures with: a config that differs from the run's stored
config.yaml in its split, models, judge, gate or evolver is refused in one line naming the keys,
before anything of the run is touched; how far and how fast it goes on (max_cycles, the run's
budgets, workers, the executor, a model's retries) may change, and the change is recorded
(config/resume.py)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from adaptive_skill.config import EvolveConfig, load_config
from adaptive_skill.config.resume import resume_changes
from adaptive_skill.errors import ConfigError
from adaptive_skill.runs import RunDir

REPO = Path(__file__).resolve().parents[1]


def _stored(config: EvolveConfig) -> dict:
    return yaml.safe_load(config.to_yaml())  # what RunDir.create wrote


def test_the_same_config_or_a_longer_run_is_no_conflict():
    started = EvolveConfig(seed=2, batch_size=8)
    assert resume_changes(_stored(started), started) == ([], [])
    longer = EvolveConfig(seed=2, batch_size=8, max_cycles=40, workers=1,
                          limits={"max_cost_per_run": 80, "max_wall_time_sec": 3600},
                          executor={"kind": "ray"}, review={"human_verdicts": False},
                          models={"judge": {"max_retries": 9, "timeout_sec": 600}},
                          paths={"workspace": "/elsewhere/workspace"})  # read only when a run starts
    assert resume_changes(_stored(started), longer) == ([], [
        "executor.kind", "limits.max_cost_per_run", "limits.max_wall_time_sec", "max_cycles",
        "models.judge.max_retries", "models.judge.timeout_sec", "paths.workspace", "workers"])


def test_what_the_run_measures_with_may_not_change():
    started = EvolveConfig(seed=2)
    other = EvolveConfig(seed=3, models={"agent": {"model": "local/qwen2.5-coder-0.5b"}},
                         limits={"max_steps": 12}, gating={"max_rounds": 9}, trajectory_only=False)
    # with labels, agreement is off by the defaults table (config/defaults.py): that changes too
    assert resume_changes(_stored(started), other)[0] == [
        "explore.agree", "gating.max_rounds", "limits.max_steps", "models.agent.model", "seed", "trajectory_only"]
    # people's verdicts in place of the judge's from the next batch on: another setup, refused
    verdicts = EvolveConfig(seed=2, review={"human_verdicts": True})
    assert resume_changes(_stored(started), verdicts)[0] == ["review.human_verdicts"]


def test_a_secret_is_not_compared_and_an_older_runs_config_compares_on_its_defaults():
    started = EvolveConfig(models={"agent": {"model": "anthropic/claude", "api_key": "sk-one"}})
    assert _stored(started)["models"]["agent"]["api_key"] == "<redacted>"
    for again in ("sk-two", None):  # another key, or the key left to the provider's environment
        config = EvolveConfig(models={"agent": {"model": "anthropic/claude", "api_key": again}})
        assert resume_changes(_stored(started), config) == ([], [])
    older = _stored(EvolveConfig())
    del older["split_by_family"]  # a run of a version before the key existed
    assert resume_changes(older, EvolveConfig()) == ([], [])
    assert resume_changes(older, EvolveConfig(split_by_family=True))[0] == ["split_by_family"]
    older["a_key_since_removed"] = 1  # this version cannot validate it: compared on the keys both have
    assert resume_changes(older, EvolveConfig(seed=5))[0] == ["seed"]


def _stopped_run(tmp_path: Path, config: EvolveConfig) -> Path:
    """A run directory as a stopped run leaves it, without running anything."""
    run = RunDir.create(tmp_path / "runs", config.to_yaml(), "r1")
    run.save_checkpoint({"cycle": 1, "done": [], "status": "stopped", "accepted_commit": "", "accepted_hash": ""})
    run.event("run_start")
    (run.root / "STOP").write_text("")
    return run.root


def test_the_engine_refuses_before_it_touches_the_run(tmp_path):
    from adaptive_skill.engine import AdaptiveSkillEngine

    config_file = tmp_path / "c.yaml"
    config_file.write_text("seed: 2\nbatch_size: 4\n")
    run = _stopped_run(tmp_path, load_config(config_file))
    with (run / "events.jsonl").open("a") as events:
        events.write('{"v": 1, "event": "torn')  # a kill mid-write: RunDir.open would repair it
    before = {p.name: p.read_bytes() for p in run.iterdir() if p.is_file()}
    with pytest.raises(ConfigError, match=r"config\.yaml: --resume with a config that differs from the run's in "
                                          r"batch_size, seed; only max_cycles, .* may change"):
        AdaptiveSkillEngine.resume(load_config(config_file, ["seed=3", "batch_size=5"]), run)
    assert {p.name: p.read_bytes() for p in run.iterdir() if p.is_file()} == before  # STOP kept, nothing repaired


def test_the_cli_says_it_in_one_line_with_exit_2(tmp_path):
    config_file = tmp_path / "c.yaml"
    config_file.write_text(f"paths: {{suite: {REPO / 'benchmarks' / 'terminal-easy'}, "
                           f"workspace: {REPO / 'workspace'}}}\n")
    run = _stopped_run(tmp_path, load_config(config_file))
    done = subprocess.run([sys.executable, "-m", "adaptive_skill", "evolve", "--config", str(config_file),
                           "--resume", str(run), "--set", "models.judge.model=local/qwen2.5-coder-0.5b"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert "differs from the run's in models.judge.model;" in done.stderr
    assert json.loads((run / "checkpoint.json").read_text())["status"] == "stopped"

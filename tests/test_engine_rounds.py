"""engine.keep_rounds: an accepted candidate's gate rounds become its round cache. The rounds are
host-written, but they hold what the agent printed, so the copy is held to the hostile-input rule:
nothing outside the round is read, followed or copied, whatever links the folder holds."""

from __future__ import annotations

import json
import os
from pathlib import Path

from adaptive_skill.engine import keep_rounds


def _round(root: Path, name: str, task: str = "t1") -> Path:
    results = root / name / "results"
    results.mkdir(parents=True)
    (results / f"{task}.json").write_text(json.dumps({"task_id": task, "passed": True}))
    return root / name


def test_whole_rounds_are_copied_and_existing_ones_are_left(tmp_path):
    gate = tmp_path / "gate-mutated"
    _round(gate, "r0")
    _round(gate, "r1", task="t2")
    (gate / "r2").mkdir(parents=True)  # no results: a round that never ran is not a round
    cache = tmp_path / "cache"
    _round(cache, "r1", task="old")

    keep_rounds(gate, cache)

    assert sorted(p.name for p in cache.iterdir()) == ["r0", "r1"]
    assert json.loads((cache / "r0" / "results" / "t1.json").read_text())["task_id"] == "t1"
    assert [p.name for p in (cache / "r1" / "results").iterdir()] == ["old.json"]


def test_a_stale_partial_copy_is_replaced_on_resume(tmp_path):
    gate = tmp_path / "gate-mutated"
    _round(gate, "r0")
    cache = tmp_path / "cache"
    (cache / ".r0.partial" / "results").mkdir(parents=True)
    (cache / ".r0.partial" / "results" / "half.json").write_text("{")

    keep_rounds(gate, cache)

    assert not (cache / ".r0.partial").exists()
    assert [p.name for p in (cache / "r0" / "results").iterdir()] == ["t1.json"]


def test_links_in_the_rounds_are_never_followed_nor_copied(tmp_path):
    secret = tmp_path / "outside" / "secret.txt"
    secret.parent.mkdir()
    secret.write_text("host secret")
    elsewhere = _round(tmp_path / "outside", "rounds")  # a directory shaped like a round
    gate = tmp_path / "gate-mutated"
    r0 = _round(gate, "r0")
    os.symlink(secret, r0 / "results" / "t9.json")  # a file link among the results
    os.symlink(secret.parent, r0 / "trajectories")  # a directory link
    os.symlink(elsewhere, gate / "r1")  # a whole round that is a link
    r2 = gate / "r2"
    r2.mkdir()
    os.symlink(elsewhere / "results", r2 / "results")  # a round whose results folder is a link
    cache = tmp_path / "cache"

    keep_rounds(gate, cache)

    assert sorted(p.name for p in cache.iterdir()) == ["r0"]
    copied = cache / "r0"
    assert sorted(p.name for p in (copied / "results").iterdir()) == ["t1.json"]
    assert not os.path.lexists(copied / "trajectories")
    assert not any(p.is_symlink() for p in copied.rglob("*"))
    assert "host secret" not in "".join(p.read_text() for p in copied.rglob("*") if p.is_file())


def test_attempts_at_another_temperature_are_sampled_at_it_and_kept_apart(tmp_path, monkeypatch):
    """engine.attempt_tasks(temperature=T): the round's seed, the agent at T, its own folder (a
    round at the gate's temperature is never reused for it, nor it for one)."""
    from types import SimpleNamespace

    from adaptive_skill.config import EvolveConfig
    from adaptive_skill.engine import AdaptiveSkillEngine, gate_seed, holdout

    config = EvolveConfig.model_validate({"seed": 3, "gating": {"temperature": 0.3}})
    calls = []
    monkeypatch.setattr(holdout, "run_attempts",
                        lambda engine, tasks, ws, out, title, config: calls.append((out, config)) or [])
    engine = SimpleNamespace(config=config)

    AdaptiveSkillEngine.attempt_tasks(engine, [], tmp_path / "ws", tmp_path / "out", "gate", 2)
    AdaptiveSkillEngine.attempt_tasks(engine, [], tmp_path / "ws", tmp_path / "out", "hot", 2, temperature=1.0)
    AdaptiveSkillEngine.attempt_tasks(engine, [], tmp_path / "ws", tmp_path / "out", "same", 2, temperature=0.3)

    (gate_out, gate), (hot_out, hot), (same_out, same) = calls
    assert gate_out == same_out == tmp_path / "out" / "r2"
    assert hot_out == tmp_path / "out" / "t1" / "r2"
    assert (gate.models.agent.temperature, hot.models.agent.temperature, same.models.agent.temperature) == (0.3, 1.0, 0.3)
    assert gate.models.agent.seed == hot.models.agent.seed == gate_seed(3, 2)
    assert config.models.agent.temperature == 0.0  # the run's own config is left as it was

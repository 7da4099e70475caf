"""The README's main job: `evolve --config configs/quickstart.yaml` runs two full cycles offline
with the embedded model in Docker. The runs directory is redirected, and every role runs the fast
plumbing model SmolLM2 instead of the default Qwen (test_llm_qwen runs Qwen end to end on one task)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.docker


def test_quickstart_runs_two_cycles_offline(tmp_path, docker_client, base_image, embedded_model):
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    result = subprocess.run([str(Path(sys.executable).parent / "evolve"), "--config", "configs/quickstart.yaml",
                             "--set", f"paths.runs_dir={tmp_path}", "--run-id", "quickstart",
                             *(arg for role in ("agent", "judge", "evolver", "proposer")
                               for arg in ("--set", f"models.{role}.model={embedded_model}")),
                             # the plumbing model writes to its token limit at every step (at temperature
                             # 1.0, explore's, 4096 tokens a step took 12 minutes an attempt on a loaded
                             # machine): a shorter limit, fewer steps and tasks keep the two cycles, with
                             # explore and the gate, within the time
                             "--set", "batch_size=2", "--set", "limits.max_steps=3",
                             "--set", "models.agent.max_tokens=512"],
                            capture_output=True, text=True, cwd=REPO, env=env, timeout=2400)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "status: max_cycles; cycles completed: 2" in result.stdout
    run = tmp_path / "quickstart"
    events = [json.loads(line) for line in (run / "events.jsonl").read_text().splitlines()]
    ends = [(e["cycle"], e["phase"]) for e in events if e["event"] == "phase_end"]
    assert ends == [(c, p) for c in (1, 2)
                    for p in ("solve", "observe", "explore", "evolve", "gate", "commit", "converge")]
    for cycle in ("001", "002"):
        folder = run / "cycles" / cycle
        solved = json.loads((folder / "solve.json").read_text())
        assert len(solved["results"]) == 2
        for result_row in solved["results"]:
            trajectory = json.loads(Path(result_row["trajectory_path"]).read_text())
            assert trajectory["model"] == "local/smollm2-135m" and trajectory["steps"]
        # the learning setup, label-free: every batch task attempted again and voted on, then distilled
        explored = json.loads((folder / "explore.json").read_text())
        assert sorted(explored["tasks"]) == sorted(solved["tasks"]) and set(explored["agreed"]) == set(explored["tasks"])
        for task in explored["tasks"]:
            vote = json.loads((folder / "observations" / task / "agreed.json").read_text())
            assert [v["attempt"] for v in vote["votes"]] == [0, 1]
        record = json.loads((folder / "evolve" / "distill.json").read_text())
        assert {p["task"] for p in record["passed"]} <= {t for t, a in explored["agreed"].items() if a is not None}
    assert "with two attempts agreeing" in result.stderr  # the log; stdout has the final lines

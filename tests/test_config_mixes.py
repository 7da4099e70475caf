"""Settings known not to work together are refused when the config is loaded, in one line naming the
key, with exit code 2 from the CLI; the shipped configs run the learning setup."""

import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from adaptive_skill.config import load_config

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("mix, says", [
    ({"explore": {"passes": 0, "reflect": True}}, "explore.reflect needs explore.passes"),
    ({"evolver": {"mode": "distill"}, "skill_in_prompt_tokens": 0}, "read no skill by themselves"),
    ({"explore": {"passes": 1, "agree": True}, "trajectory_only": False}, "explore.agree needs trajectory_only"),
    # the checks run in a container of the task's image: on the host sandbox they were silently off
    ({"judge": {"check_state": True}, "sandbox": {"kind": "local"}, "explore": {"agree": False}},
     "judge.check_state needs sandbox.kind: docker"),
])
def test_a_mix_known_not_to_work_is_refused_in_one_line(tmp_path, mix, says):
    config = yaml.safe_load((REPO / "configs" / "quickstart.yaml").read_text())
    for key, value in mix.items():
        config[key] = {**config.get(key, {}), **value} if isinstance(value, dict) else value
    path = tmp_path / "mixed.yaml"
    path.write_text(yaml.safe_dump(config))
    cli = Path(sys.executable).parent / "adaptive-skill"
    result = subprocess.run([str(cli), "config", "check", str(path)], capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 2, result.stdout + result.stderr
    assert says in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_an_api_agent_may_leave_skills_to_its_own_reading(tmp_path):
    config = yaml.safe_load((REPO / "configs" / "cycle.yaml").read_text())
    config["skill_in_prompt_tokens"] = 0
    path = tmp_path / "api.yaml"
    path.write_text(yaml.safe_dump(config))
    assert load_config(path).evolver.mode == "distill"  # not refused: an API model can read_skill


@pytest.mark.parametrize("name", ["cycle.yaml", "quickstart.yaml"])
def test_the_shipped_configs_run_the_learning_setup_label_free(name):
    config = load_config(REPO / "configs" / name)
    assert config.trajectory_only and config.evolver.mode == "distill"
    assert config.explore.passes >= 1 and config.explore.reflect and config.explore.agree
    assert config.skill_in_prompt_tokens == 300


def test_no_shipped_config_uses_an_evolver_mode_the_docs_call_no_help():
    for path in sorted((REPO / "configs").glob("*.yaml")):
        data = yaml.safe_load(path.read_text()) or {}
        assert (data.get("evolver") or {}).get("mode") != "structured", path

"""The LLM agent in real Docker containers: scripted through the harness, and the embedded
local model end to end through `adaptive-skill solve`, offline."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from taskfactory import make_task

from adaptive_skill.config import load_config
from adaptive_skill.harness.agents import build_agent
from adaptive_skill.harness.attempt import run_attempt
from adaptive_skill.harness.providers import DockerProvider
from adaptive_skill.tasks import load_task
from adaptive_skill.workspace import Workspace

REPO = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.docker


def test_scripted_agent_solves_a_task_in_docker(tmp_path, docker_client, base_image):
    script = tmp_path / "script.yaml"
    script.write_text(json.dumps([
        {"tool_calls": [{"name": "bash", "arguments": {"command": "cd /app && echo 42 > answer.txt"}}]},
        {"tool_calls": [{"name": "bash", "arguments": {"command": "cat answer.txt; cat /etc/os-release | head -1"}}]},
        {"tool_calls": [{"name": "submit", "arguments": {"answer": "wrote 42"}}]},
    ]))
    config = load_config(None, [f"models.agent.model=scripted/{script}"])
    agent = build_agent("llm", config, workspace=Workspace(REPO / "workspace"),
                        trajectories_dir=tmp_path / "trajectories")
    task = load_task(make_task(tmp_path / "suite", "answer"))
    result = run_attempt(task, agent, DockerProvider(config.sandbox, client=docker_client))
    assert result.passed and result.failure_mode is None, result.detail
    saved = json.loads(Path(result.trajectory_path).read_text())
    assert saved["status"] == "submitted" and saved["steps"][1]["output"].startswith("42\nPRETTY_NAME=\"Debian")


def test_solve_with_embedded_model_offline(tmp_path, docker_client, base_image, embedded_model):
    out = tmp_path / "solve"
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    result = subprocess.run(
        [sys.executable, "-m", "adaptive_skill", "solve", "--task-dir", "benchmarks/terminal-core/find-large-files",
         "--model", embedded_model, "--out", str(out), "--set", "limits.max_steps=4", "--set", "models.agent.max_tokens=96",
         "--format", "json"],
        capture_output=True, text=True, cwd=REPO, env=env, timeout=900)
    assert result.returncode == 0, result.stderr[-3000:]
    outcome = json.loads(result.stdout)
    saved = json.loads(Path(outcome["trajectory_path"]).read_text())
    assert saved["model"] == "local/smollm2-135m" and saved["metadata"]["protocol"] == "text"
    assert saved["status"] in {"submitted", "step_limit", "error", "timeout"}
    assert saved["steps"] and saved["usage"]["completion_tokens"] > 0
    assert [m["role"] for m in saved["messages"][:3]] == ["system", "user", "assistant"]
    # the tiny model is not expected to solve the task; the verifier decided either way
    assert isinstance(outcome["passed"], bool) and (outcome["passed"] or outcome["failure_mode"])


def _enriched_workspace(tmp_path: Path) -> Workspace:
    """The seed workspace plus a memory entry and a skill with an executable script, as an evolver
    would leave them."""
    import shutil

    root = tmp_path / "ws-enriched"
    shutil.copytree(REPO / "workspace", root)
    (root / "memory" / "notes.jsonl").write_text(json.dumps(
        {"text": "MEMO-7731: answers to 'write 42' tasks go to /app/answer.txt", "tags": ["files"],
         "source": "test", "created": "2026-11-23T00:00:00Z"}) + "\n")
    skill = root / "skills" / "probe-app"
    (skill / "scripts").mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: probe-app\ndescription: Use when you need to look at /app.\n---\n"
                                    "## Steps\n1. Run scripts/probe.sh.\n\n## Verification\n- It printed PROBE.\n")
    (skill / "scripts" / "probe.sh").write_text("#!/bin/bash\necho \"PROBE $(id -u) $(ls /app | wc -l)\"\n")
    (skill / "scripts" / "probe.sh").chmod(0o755)
    return Workspace(root)


def test_memory_and_skill_scripts_reach_the_agent_and_leave_the_verifier_alone(tmp_path, docker_client,
                                                                                base_image):
    """The system prompt holds the memory entry; read_skill gives the script's path in the container
    and the script runs there by that path (its executable bit kept); the verifier's reward is the
    same with and without the memory and the skill."""
    replies = [
        {"tool_calls": [{"name": "read_skill", "arguments": {"name": "probe-app"}}]},
        {"tool_calls": [{"name": "bash", "arguments": {"command": "/skills/probe-app/scripts/probe.sh; "
                                                                   "ls -ld /skills/probe-app/scripts/probe.sh"}}]},
        {"tool_calls": [{"name": "bash", "arguments": {"command": "echo 42 > /app/answer.txt"}}]},
        {"tool_calls": [{"name": "submit", "arguments": {"answer": "wrote 42"}}]},
    ]
    script = tmp_path / "script.yaml"
    script.write_text(json.dumps(replies))
    config = load_config(None, [f"models.agent.model=scripted/{script}"])
    task = load_task(make_task(tmp_path / "suite", "answer"))
    provider = DockerProvider(config.sandbox, client=docker_client)
    results = {}
    for label, workspace in (("with", _enriched_workspace(tmp_path)), ("without", Workspace(REPO / "workspace"))):
        agent = build_agent("llm", config, workspace=workspace,
                            trajectories_dir=tmp_path / f"trajectories-{label}")
        results[label] = run_attempt(task, agent, provider)
    enriched = json.loads(Path(results["with"].trajectory_path).read_text())
    plain = json.loads(Path(results["without"].trajectory_path).read_text())
    assert "MEMO-7731" in enriched["messages"][0]["content"] and "MEMO-7731" not in plain["messages"][0]["content"]
    assert enriched["metadata"]["memory"]["shown"] == 1 and enriched["metadata"]["memory"]["ranking"].startswith(
        "embedder")
    assert "- /skills/probe-app/scripts/probe.sh (executable)" in enriched["steps"][0]["output"]
    probe = enriched["steps"][1]["output"]
    assert probe.startswith("PROBE 0 0\n") and "-r-xr-xr-x" in probe, probe  # ran in the container, read-only
    assert "no skill named 'probe-app'" in plain["steps"][0]["error"] and plain["steps"][1]["exit_code"] != 0
    for result in results.values():
        assert result.passed and result.reward == 1.0, result.detail
    # the copy does not help a do-nothing agent past the verifier either
    nop_replies = tmp_path / "nop.yaml"
    nop_replies.write_text(json.dumps([{"tool_calls": [{"name": "submit", "arguments": {"answer": "nothing"}}]}]))
    nop_config = load_config(None, [f"models.agent.model=scripted/{nop_replies}"])
    nop = run_attempt(task, build_agent("llm", nop_config, workspace=_enriched_workspace(tmp_path / "again"),
                                        trajectories_dir=tmp_path / "trajectories-nop"), provider)
    assert not nop.passed and nop.reward == 0.0


def test_a_task_attempt_refuses_a_submit_before_any_command(tmp_path, docker_client, base_image):
    from adaptive_skill.agent.loop import EARLY_SUBMIT

    script = tmp_path / "script.yaml"
    script.write_text(json.dumps([
        {"tool_calls": [{"name": "submit", "arguments": {"answer": "done already"}}]},
        {"tool_calls": [{"name": "bash", "arguments": {"command": "cd /app && echo 42 > answer.txt"}}]},
        {"tool_calls": [{"name": "submit", "arguments": {"answer": "wrote 42"}}]},
    ]))
    config = load_config(None, [f"models.agent.model=scripted/{script}"])
    agent = build_agent("llm", config, workspace=Workspace(REPO / "workspace"),
                        trajectories_dir=tmp_path / "trajectories")
    result = run_attempt(load_task(make_task(tmp_path / "suite", "answer")), agent,
                         DockerProvider(config.sandbox, client=docker_client))
    saved = json.loads(Path(result.trajectory_path).read_text())
    assert result.passed, result.detail
    assert [s["tool"] for s in saved["steps"]] == ["submit", "bash", "submit"]
    assert saved["steps"][0]["error"] == EARLY_SUBMIT and saved["submission"] == "wrote 42"

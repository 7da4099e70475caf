"""The embedded default, Qwen2.5-Coder-1.5B: assembled from its 22 packages, its agent replies held
to the text protocol (its profile) or, asked for, to one native tool call in its chat template's own
format, its judge replies within their bounds, and one terminal-easy task end to end (agent,
verifier, judge) in Docker through the CLI. Real model
throughout: skips only where the [local] extra is missing and CI is unset (tests/conftest.py
embedded_qwen15); under CI it fails instead."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from adaptive_skill.agent.loop import render_system_prompt
from adaptive_skill.agent.protocol import TEXT_PROTOCOL_DEMO_VERSION, TOOL_NAMES, tool_specs, with_demo
from adaptive_skill.config import ModelConfig
from adaptive_skill.llm.accounting import Accounting
from adaptive_skill.llm.factory import make_llm
from adaptive_skill.workspace import Workspace

REPO = Path(__file__).resolve().parents[1]
NAME = "qwen2.5-coder-1.5b"
TASK = REPO / "benchmarks" / "terminal-easy" / "replace-hostname"


def test_the_assembled_file_is_the_published_model(embedded_qwen15):
    from adaptive_skill.llm import local

    path = local.model_file(NAME)
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(1 << 22):
            digest.update(chunk)
    assert path.stat().st_size == 1_117_320_768
    assert digest.hexdigest() == "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"


def test_its_profile_is_the_text_protocol_and_every_reply_parses(embedded_qwen15):
    """The 1.5B's profile: the text protocol with its worked example (measured, docs/llm.md); every
    sampled reply under the grammar is one usable block."""
    from adaptive_skill.agent.protocol import parse_text, text_protocol_grammar

    workspace = Workspace(REPO / "workspace")
    llm = make_llm(ModelConfig(model=embedded_qwen15, max_tokens=4096, temperature=1.0), Accounting(), "agent")
    assert not llm.supports_tools and llm.protocol_demo and llm.supports_grammar
    instruction = TASK.joinpath("instruction.md").read_text()
    messages = with_demo([{"role": "system", "content": render_system_prompt(workspace, False, instruction=instruction)},
                          {"role": "user", "content": instruction}])  # as the agent sends them
    grammar = text_protocol_grammar(max_tokens=4096, skills=workspace.skill_names())
    for seed in (1, 2):
        llm.config = llm.config.model_copy(update={"seed": seed})
        reply = llm.complete(messages, grammar=grammar)
        assert reply.finish_reason == "stop", reply
        assert parse_text(reply.content).tool in TOOL_NAMES, reply.content


def test_asked_for_tool_calls_its_replies_are_one_native_call_of_the_offered_tools(embedded_qwen15):
    """models.agent.protocol: tools gives the 1.5B native tool calls in its template's own format; every
    sampled reply, after an earlier call and its result rendered by the template, is one call of one
    offered tool, and read_skill names only a skill that exists."""
    workspace = Workspace(REPO / "workspace")
    llm = make_llm(ModelConfig(model=embedded_qwen15, max_tokens=2048, temperature=1.0, protocol="tools"),
                   Accounting(), "agent")
    assert llm.supports_tools  # its profile's worked example is for text replies: the agent sends it to no native-tools model
    tools = tool_specs(skills=workspace.skill_names())
    instruction = TASK.joinpath("instruction.md").read_text()
    history = [
        {"role": "system", "content": render_system_prompt(workspace, True, instruction=instruction)},
        {"role": "user", "content": instruction},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "call_0", "type": "function", "function": {
            "name": "bash", "arguments": json.dumps({"command": "cat /app/config/app.conf"})}}]},
        {"role": "tool", "tool_call_id": "call_0", "content": "host = localhost\nport = 5432\n[exit code 0]"}]
    for seed in (1, 2):
        llm.config = llm.config.model_copy(update={"seed": seed})
        reply = llm.complete(history, tools=tools)
        assert len(reply.tool_calls) == 1, reply
        call = reply.tool_calls[0]
        arguments = json.loads(call.arguments)
        assert call.name in TOOL_NAMES and reply.finish_reason == "tool_calls"
        if call.name == "read_skill":
            assert arguments["name"] in workspace.skill_names()


def test_its_judge_reply_is_reasoned_then_scored_and_never_cut(embedded_qwen15):
    from adaptive_skill.observe.judge import Judge, reply_max_chars

    accounting = Accounting()
    judge = Judge(make_llm(ModelConfig(model=embedded_qwen15, max_tokens=1024), accounting, "judge"))
    assert reply_max_chars(judge.config.categories) <= 1024
    trajectory = {"messages": [
        {"role": "user", "content": "Write 42 to /app/answer.txt."},
        {"role": "assistant", "content": "```bash\necho 42 > /app/answer.txt\n```"},
        {"role": "user", "content": "Observation (bash):\n\n[exit code 0]"},
        {"role": "assistant", "content": "```bash\ncat /app/answer.txt\n```"},
        {"role": "user", "content": "Observation (bash):\n42\n[exit code 0]"},
        {"role": "assistant", "content": "```submit\nwrote 42\n```"}]}
    result = judge.judge("Write 42 to /app/answer.txt.", trajectory, task_id="t")
    assert result.status == "ok", result
    assert result.score >= judge.config.pass_threshold, result  # done and checked: the outcome says so
    assert accounting.totals().failed_calls == 0


@pytest.mark.docker
def test_one_terminal_easy_task_end_to_end(tmp_path, docker_client, base_image, embedded_qwen15):
    """Agent, verifier and judge, all the 1.5B, on a shipped terminal-easy task, through the CLI as a
    user runs them. The model is not required to solve it; it is required to produce usable replies
    (no malformed one) and a judge verdict."""
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    started = time.monotonic()
    solved = subprocess.run(
        [sys.executable, "-m", "adaptive_skill", "solve", "--task-dir", str(TASK), "--model", embedded_qwen15,
         "--out", str(tmp_path / "solve"), "--set", "limits.max_steps=5", "--set", "models.agent.max_tokens=4096",
         "--format", "json"], capture_output=True, text=True, cwd=REPO, env=env, timeout=1800)
    assert solved.returncode == 0, solved.stderr[-3000:]
    outcome = json.loads(solved.stdout)
    trajectory = json.loads(Path(outcome["trajectory_path"]).read_text())
    assert trajectory["model"] == embedded_qwen15 and trajectory["metadata"]["protocol"] == "text"
    assert trajectory["metadata"]["protocol_demo"] == TEXT_PROTOCOL_DEMO_VERSION  # the 1.5B's example
    assert trajectory["status"] in {"submitted", "step_limit", "timeout", "halted"}
    assert not [step for step in trajectory["steps"] if (step.get("error") or "").startswith("format")]
    assert isinstance(outcome["passed"], bool) and (outcome["passed"] or outcome["failure_mode"] != "agent_error")
    judged = subprocess.run(
        [sys.executable, "-m", "adaptive_skill", "judge", outcome["trajectory_path"], "--task-dir", str(TASK),
         "--model", embedded_qwen15, "--set", "models.judge.max_tokens=1024", "--format", "json"],
        capture_output=True, text=True, cwd=REPO, env=env, timeout=900)
    assert judged.returncode == 0, judged.stdout[-2000:] + judged.stderr[-2000:]
    verdict = json.loads(judged.stdout)
    assert verdict.get("status") != "judge_error" and 0 <= verdict["score"] <= 10
    print(f"qwen 1.5B end to end: passed={outcome['passed']} steps={len(trajectory['steps'])} "
          f"judge score={verdict['score']} outcome={verdict['outcome']!r} wall={time.monotonic() - started:.1f}s")

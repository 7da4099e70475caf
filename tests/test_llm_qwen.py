"""The embedded Qwen2.5-Coder-0.5B: assembled from its six packages, its agent replies held to the
text protocol by a grammar, prefix reuse across a conversation, and one task end to end (agent,
verifier, judge) in Docker. Real model throughout: skips only where the [local] extra is missing
and CI is unset (tests/conftest.py embedded_qwen); under CI it fails instead."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from taskfactory import make_task

from adaptive_skill.agent.loop import render_system_prompt
from adaptive_skill.agent.protocol import parse_text, text_protocol_grammar
from adaptive_skill.config import ModelConfig
from adaptive_skill.llm.accounting import Accounting
from adaptive_skill.llm.factory import make_llm
from adaptive_skill.workspace import Workspace

REPO = Path(__file__).resolve().parents[1]
NAME = "qwen2.5-coder-0.5b"
INSTRUCTIONS = [
    "Write the line `hello world` to /app/hello.txt.",
    "Count the lines of /app/data.csv and write only the number to /app/count.txt.",
    "Extract /app/backup.tar.gz into /app/restored.",
    "Replace every `foo` with `bar` in /app/config.ini.",
]


def test_the_assembled_file_is_the_published_model(embedded_qwen):
    from adaptive_skill.llm import local

    path = local.model_file(NAME)
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(1 << 22):
            digest.update(chunk)
    assert path.stat().st_size == 491_400_064
    assert digest.hexdigest() == "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32"
    with open(path, "rb") as handle:
        assert handle.read(4) == b"GGUF"


def test_every_sampled_reply_under_the_grammar_parses(embedded_qwen):
    """Temperature 1.0, three seeds, two instructions, the agent's and the evolver's tool sets
    (alternating): the parser accepts every one of the 6 replies (kept small: ~20 s a reply on a
    loaded 2-core machine)."""
    import litellm

    from adaptive_skill.llm import local

    local.local_provider()
    system = render_system_prompt(Workspace(REPO / "workspace"), native_tools=False)
    tool_sets = [("bash", "read_skill", "submit"), ("bash", "submit")]
    replies = []
    for seed in (1, 2, 3):
        for index, instruction in enumerate(INSTRUCTIONS[seed % 2::2]):
            tools = tool_sets[(seed + index) % 2]
            grammar = text_protocol_grammar(tools, max_tokens=384)
            response = litellm.completion(
                model=embedded_qwen, messages=[{"role": "system", "content": system},
                                               {"role": "user", "content": instruction}],
                temperature=1.0, seed=seed, max_tokens=384, grammar=grammar)
            replies.append((response.choices[0].message.content, response.choices[0].finish_reason, tools))
    for content, finish, tools in replies:
        assert finish == "stop", content
        action = parse_text(content)
        assert action.tool in tools, content
    assert len({content for content, _, _ in replies}) > 2  # sampling did vary the replies


def test_a_reply_fits_its_token_limit_even_when_the_command_wants_more(embedded_qwen):
    """The grammar's bounds follow max_tokens: asked for a command longer than the limit (digits are
    one token each in Qwen's tokenizer), the model still closes its block before the limit. Before,
    such replies were cut inside the block and came back malformed (4 in a row on list-large-files)."""
    import litellm

    from adaptive_skill.llm import local

    local.local_provider()
    system = render_system_prompt(Workspace(REPO / "workspace"), native_tools=False)
    instruction = "Write the numbers 1000000 to 1000200, one per line, into /app/numbers.txt with one echo command."
    for seed in (1, 2):
        response = litellm.completion(
            model=embedded_qwen, messages=[{"role": "system", "content": system}, {"role": "user", "content": instruction}],
            temperature=1.0, seed=seed, max_tokens=96, grammar=text_protocol_grammar(max_tokens=96))
        content = response.choices[0].message.content
        assert response.choices[0].finish_reason == "stop", content
        assert parse_text(content).tool in ("bash", "read_skill", "submit"), content


def test_the_judge_schema_binds_qwen_too(embedded_qwen):
    from adaptive_skill.observe.judge import Judge

    accounting = Accounting()
    judge = Judge(make_llm(ModelConfig(model=embedded_qwen, max_tokens=256), accounting, "judge"))
    trajectory = {"messages": [
        {"role": "user", "content": "Write 42 to /app/answer.txt."},
        {"role": "assistant", "content": "```bash\necho 42 > /app/answer.txt\n```"},
        {"role": "user", "content": "(exit code 0, no output)"},
        {"role": "assistant", "content": "```submit\nwrote 42\n```"}]}
    result = judge.judge("Write 42 to /app/answer.txt.", trajectory, task_id="t")
    assert result.status != "judge_error", result
    # The grammar makes the reply valid JSON of the schema's shape; rules JSON schema cannot say to
    # llama-cpp (a failure_reason when the score is low) may still take the one repair round.
    assert accounting.totals().calls <= 2 and accounting.totals().failed_calls == 0


def _conversation(turns: int) -> list[dict[str, str]]:
    messages = [{"role": "system", "content": render_system_prompt(Workspace(REPO / "workspace"), False)},
                {"role": "user", "content": INSTRUCTIONS[0]}]
    for index in range(turns):
        messages += [{"role": "assistant", "content": f"Step {index}.\n```bash\nls -la /app\n```"},
                     {"role": "user", "content": f"total {index}\n-rw-r--r-- 1 root root 3 data.csv\n" * 3}]
    return messages


def test_a_growing_conversation_evaluates_only_its_new_tokens(embedded_qwen, monkeypatch):
    from adaptive_skill.llm import local

    monkeypatch.delenv(local.EXACT_ENV, raising=False)
    llm = make_llm(ModelConfig(model=embedded_qwen, max_tokens=8), Accounting(), "agent")
    stats = local.local_provider().stats.setdefault(NAME, local.PromptStats())
    llm.complete(_conversation(1))
    first = stats.last_prompt_tokens
    llm.complete(_conversation(2))
    assert stats.last_prompt_tokens > first and stats.last_evaluated < stats.last_prompt_tokens - first + 40
    llm.complete(_conversation(3))
    assert stats.last_evaluated < stats.last_prompt_tokens / 3
    # bit-exact mode: the whole prompt again
    monkeypatch.setenv(local.EXACT_ENV, "1")
    llm.complete(_conversation(3))
    assert stats.last_evaluated == stats.last_prompt_tokens


def test_exact_mode_decodes_a_prompt_the_same_whatever_came_before(embedded_qwen, monkeypatch):
    from adaptive_skill.llm import local

    monkeypatch.setenv(local.EXACT_ENV, "1")
    llm = make_llm(ModelConfig(model=embedded_qwen, max_tokens=48, temperature=0.0), Accounting(), "agent")
    llm.complete(_conversation(1))
    after_one = llm.complete(_conversation(2)).content
    llm.complete([{"role": "user", "content": "Say hello."}])
    after_other = llm.complete(_conversation(2)).content
    assert after_one == after_other


@pytest.mark.docker
def test_one_easy_task_end_to_end_with_qwen(tmp_path, docker_client, base_image, embedded_qwen):
    """Agent, verifier and judge, all Qwen, through the CLI as a user runs them. The model is not
    required to solve the task; it is required to produce usable replies and a judge verdict."""
    task = make_task(tmp_path / "suite", "write-42", agent_timeout=900)  # a loaded CI machine is slow
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    started = time.monotonic()
    solved = subprocess.run(
        [sys.executable, "-m", "adaptive_skill", "solve", "--task-dir", str(task), "--model", embedded_qwen,
         "--out", str(tmp_path / "solve"), "--set", "limits.max_steps=4", "--set", "models.agent.max_tokens=384",
         "--format", "json"], capture_output=True, text=True, cwd=REPO, env=env, timeout=1200)
    assert solved.returncode == 0, solved.stderr[-3000:]
    outcome = json.loads(solved.stdout)
    trajectory = json.loads(Path(outcome["trajectory_path"]).read_text())
    assert trajectory["model"] == embedded_qwen and trajectory["status"] in {"submitted", "step_limit", "timeout"}
    assert not [step for step in trajectory["steps"] if (step.get("error") or "").startswith("format")]
    # a real outcome: passed, or failed for a reason other than broken replies
    assert isinstance(outcome["passed"], bool) and (outcome["passed"] or outcome["failure_mode"] != "agent_error")
    judged = subprocess.run(
        [sys.executable, "-m", "adaptive_skill", "judge", outcome["trajectory_path"], "--task-dir", str(task),
         "--model", embedded_qwen, "--set", "models.judge.max_tokens=256", "--format", "json"],
        capture_output=True, text=True, cwd=REPO, env=env, timeout=600)
    assert judged.returncode == 0, judged.stdout[-2000:] + judged.stderr[-2000:]
    verdict = json.loads(judged.stdout)
    assert verdict.get("status") != "judge_error" and 0 <= verdict["score"] <= 10
    print(f"qwen end to end: passed={outcome['passed']} steps={len(trajectory['steps'])} "
          f"judge score={verdict['score']} outcome={verdict['outcome']!r} "
          f"wall={time.monotonic() - started:.1f}s")

"""A model behind a real OpenAI-compatible server on 127.0.0.1 (llama-cpp-python's own server, serving
the embedded SmolLM2-135M file, issue 67): the judge's structured reply is negotiated against it (the
server refuses the OpenAI json_schema format and takes a json_object with its schema), and
`adaptive-skill run --estimate` gets a verdict for every attempt through it, where before it got none.
SmolLM2's verdicts mean nothing; that they are verdicts of the schema is what is tested."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import yaml
from taskfactory import make_task

REPO = Path(__file__).resolve().parents[1]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    try:
        import llama_cpp.server.app  # noqa: F401
    except ImportError as exc:
        if os.environ.get("CI") == "true":
            raise
        pytest.skip(f"llama-cpp-python's server is not installed ({exc}): pip install -e '.[local]'")
    from adaptive_skill.llm.local import model_file

    port = _free_port()
    log_path = tmp_path_factory.mktemp("server") / "server.log"
    with open(log_path, "w") as log:
        process = subprocess.Popen([sys.executable, "-m", "llama_cpp.server", "--model", str(model_file("smollm2-135m")),
                                    "--host", "127.0.0.1", "--port", str(port), "--n_threads", "2", "--n_ctx", "4096",
                                    "--model_alias", "smollm2"], stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}/v1"
    deadline = time.monotonic() + 120
    try:
        while True:
            try:
                with urllib.request.urlopen(base + "/models", timeout=2):
                    break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"the server did not come up: {log_path.read_text()[-2000:]}")
                time.sleep(0.5)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()


def test_the_judges_reply_is_negotiated_with_the_server(server):
    from adaptive_skill.config import JudgeConfig, ModelConfig
    from adaptive_skill.llm.accounting import Accounting
    from adaptive_skill.llm.client import LLMClient
    from adaptive_skill.observe.judge import reply_schema

    judge = JudgeConfig()
    llm = LLMClient(ModelConfig(model="openai/smollm2", api_base=server, api_key="none", max_tokens=300, free=True),
                    Accounting(), role="judge")
    found = llm.negotiate(reply_schema(judge.categories, judge.pass_threshold))
    assert found.probed and found.tried[0].way == "json_schema", found.tried
    assert found.tried[0].outcome.startswith("refused"), found.tried  # llama-cpp-python's server: a 500
    assert found.way == "json_object_schema", found.line()


@pytest.mark.docker
def test_run_estimate_gets_a_verdict_for_every_attempt_through_the_server(server, tmp_path, docker_client,
                                                                         base_image):
    suite = tmp_path / "suite"
    for index in range(3):
        make_task(suite, f"task-{index}")
    served = {"model": "openai/smollm2", "api_base": server, "api_key": "none", "free": True}
    config = {"paths": {"workspace": str(REPO / "workspace"), "suite": str(suite), "runs_dir": str(tmp_path / "runs")},
              "models": {"agent": {**served, "max_tokens": 200, "protocol": "text"},
                         "judge": {**served, "max_tokens": 400}},
              "limits": {"max_steps": 2}, "evolver": {"mode": "single"}, "skill_in_prompt_tokens": 0,
              "explore": {"passes": 0, "reflect": False, "agree": False}}
    (tmp_path / "served.yaml").write_text(yaml.safe_dump(config))
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "-m", "adaptive_skill", "run", "--suite", str(suite), "--agent", "llm",
                           "--estimate", "--config", str(tmp_path / "served.yaml"), "--out", str(out), "--format",
                           "json", "-q", "--workers", "1"], capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    estimates = [json.loads(p.read_text()) for p in sorted((out / "estimates").glob("*.json"))]
    assert len(estimates) == 3
    assert all(e["score"] is not None and e.get("error") is None for e in estimates), estimates
    assert "no price known" not in done.stderr  # declared free


def test_the_agents_grammar_is_negotiated_with_the_server_and_holds_its_reply(server):
    """Issue 67, item 2: llama-cpp-python's server applies a GBNF grammar given in the body's `grammar`;
    the probe finds it, and the text protocol's grammar then holds a served reply to one fenced block."""
    from adaptive_skill.config import ModelConfig
    from adaptive_skill.llm.accounting import Accounting
    from adaptive_skill.llm.client import LLMClient
    from adaptive_skill.trajectory.textproto import parse_text, text_protocol_grammar

    model = ModelConfig(model="openai/smollm2", api_base=server, api_key="none", max_tokens=120, free=True,
                        protocol="text")
    llm = LLMClient(model, Accounting(), role="agent")
    found = llm.negotiate_grammar()
    assert found.way == "grammar" and found.tried[0].outcome == "ok", found.tried
    grammar = text_protocol_grammar(("bash", "submit"))
    reply = llm.complete([{"role": "user", "content": "List the files in /tmp, then tell me about your day."}],
                         grammar=grammar)
    assert parse_text(reply.content) is not None, reply.content  # one block: a FormatProblem otherwise

"""The harness against real Docker: oracle/nop, failure modes, forged rewards, batches that resume."""

import json
from pathlib import Path

import pytest
from taskfactory import make_task

from adaptive_skill.config import SandboxConfig
from adaptive_skill.harness.agents import NopAgent, OracleAgent
from adaptive_skill.harness.attempt import run_attempt
from adaptive_skill.harness.batch import run_batch
from adaptive_skill.harness.providers import DockerProvider
from adaptive_skill.tasks import load_suite, load_task

pytestmark = pytest.mark.docker


@pytest.fixture
def provider(docker_client, base_image):
    provider = DockerProvider(SandboxConfig(), client=docker_client)
    yield provider
    provider.close_all()


def test_oracle_passes_and_nop_fails(tmp_path, provider):
    task = load_task(make_task(tmp_path, "answer"))
    oracle = run_attempt(task, OracleAgent(), provider)
    assert (oracle.passed, oracle.reward, oracle.failure_mode) == (True, 1.0, None), oracle.detail
    # probed before the agent (sandbox/programs.py): the minimal Debian base has perl and sed, not python3 or jq
    assert {"perl", "sed"} <= set(oracle.programs["installed"]) and {"python3", "jq"} <= set(oracle.programs["missing"])
    nop = run_attempt(task, NopAgent(), provider)
    assert (nop.passed, nop.reward, nop.failure_mode) == (False, 0.0, "unresolved")


FORGER = r"""
set -x
# 1. write the reward files the verifier reads
mkdir -p /logs/verifier && echo 1 > /logs/verifier/reward.txt && echo '{"reward": 1}' > /logs/verifier/reward.json
# 2. plant a test script that always passes
mkdir -p /tests && printf '#!/bin/bash\necho 1 > /logs/verifier/reward.txt\n' > /tests/test.sh
# 3. try to make them immutable (no CAP_LINUX_IMMUTABLE in the container, but try anyway)
chattr +i /logs/verifier/reward.txt /tests/test.sh 2>&1 || true
# 4. leave a process behind that keeps rewriting the reward, detached from the shell
nohup setsid bash -c 'while true; do mkdir -p /logs/verifier; echo 1 > /logs/verifier/reward.txt; sleep 0.01; done' >/dev/null 2>&1 &
# 5. make /logs a symlink farm pointing at a directory the agent controls
mkdir -p /forged && echo 1 > /forged/reward.txt
echo 41 > /app/answer.txt
sleep 0.5
"""


def test_forged_reward_does_not_pass(tmp_path, provider):
    task = load_task(make_task(tmp_path, "forged", solve=FORGER))
    result = run_attempt(task, OracleAgent(), provider)
    assert result.passed is False and result.reward == 0.0 and result.failure_mode == "unresolved", result.detail


def test_symlinked_logs_do_not_pass(tmp_path, provider):
    solve = "rm -rf /logs && mkdir -p /elsewhere/verifier && echo 1 > /elsewhere/verifier/reward.txt " \
            "&& ln -s /elsewhere /logs\n"
    result = run_attempt(load_task(make_task(tmp_path, "symlinked", solve=solve)), OracleAgent(), provider)
    assert result.passed is False and result.failure_mode == "unresolved", result.detail


@pytest.mark.parametrize("name,kwargs,mode", [
    ("broken-build", {"dockerfile": "FROM debian:bookworm-slim\nRUN exit 3\n"}, "build_error"),
    ("slow-agent", {"solve": "sleep 30\n", "agent_timeout": 2}, "agent_timeout"),
    ("slow-tests", {"test": "sleep 30\n", "verifier_timeout": 2}, "verifier_timeout"),
    ("no-reward", {"test": "echo forgot the reward\n"}, "verifier_error"),
    ("bad-reward", {"test": "echo yes > /logs/verifier/reward.txt\n"}, "verifier_error"),
])
def test_failure_modes(tmp_path, provider, name, kwargs, mode):
    result = run_attempt(load_task(make_task(tmp_path, name, **kwargs)), OracleAgent(), provider)
    assert result.passed is False and result.failure_mode == mode, result.detail


def test_agent_timeout_still_verifies(tmp_path, provider):
    solve = "echo 42 > /app/answer.txt; sleep 30\n"
    result = run_attempt(load_task(make_task(tmp_path, "late", solve=solve, agent_timeout=2)), OracleAgent(),
                         provider)
    assert result.passed is True, result.detail  # the work was done before time ran out


def test_batch_writes_results_and_resumes(tmp_path, provider):
    suite = tmp_path / "suite"
    for name in ("a-task", "b-task", "c-task"):
        make_task(suite, name)
    tasks = load_suite(suite)
    out = tmp_path / "out"
    seen = []
    results = run_batch(tasks, OracleAgent(), provider, out, workers=2, on_result=lambda r, c: seen.append(c))
    assert [r.passed for r in results] == [True, True, True] and seen == [False, False, False]
    assert sorted(p.name for p in out.iterdir()) == ["a-task.json", "b-task.json", "c-task.json"]
    (out / "b-task.json").unlink()
    (out / "c-task.json").write_text("{ torn write")  # an unreadable result is redone
    seen.clear()
    again = run_batch(tasks, OracleAgent(), provider, out, workers=2, on_result=lambda r, c: seen.append(c))
    assert [r.passed for r in again] == [True, True, True] and sorted(seen) == [False, False, True]
    assert json.loads((out / "c-task.json").read_text())["passed"] is True


def test_legacy_layout_suite(provider):
    tasks = load_suite(Path(__file__).parent / "fixtures" / "legacy-suite")
    for task in tasks:
        assert run_attempt(task, OracleAgent(), provider).passed
        nop = run_attempt(task, NopAgent(), provider)
        assert nop.passed is False and nop.failure_mode == "unresolved"

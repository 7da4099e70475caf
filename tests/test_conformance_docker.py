"""Issue 22's conformance suite (tests/fixtures/conformance) in real Docker: one small task per rule
of Harbor / Terminal-Bench 1 semantics. Every oracle passes, every nop fails, the broken task is
refused without stopping the others, and each rule shows in the results (with the rule switched off,
the same task comes out wrong)."""

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest

from adaptive_skill.config import SandboxConfig
from adaptive_skill.harness.agents import NopAgent, OracleAgent
from adaptive_skill.harness.attempt import run_attempt
from adaptive_skill.harness.providers import DockerProvider
from adaptive_skill.tasks import scan_suite

pytestmark = pytest.mark.docker

SUITE = Path(__file__).parent / "fixtures" / "conformance"
REPO = Path(__file__).resolve().parents[1]


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "adaptive_skill", *args], capture_output=True, text=True,
                          cwd=REPO, timeout=900)


def test_validate_runs_the_good_tasks_and_names_the_broken_one(docker_client, base_image):
    result = cli("tasks", "validate", "--suite", str(SUITE), "--workers", "1", "--quiet", "--format", "json",
                 "--set", "sandbox.allow_network=true")
    assert result.returncode == 3, result.stderr  # every loaded task sound, one refused
    assert result.stderr.count("refused") == 1
    assert "task broken-no-tests refused: " in result.stderr and "tests/test.sh: missing" in result.stderr
    assert "unknown field task.toml: [environment] extra in 1 task(s) (e.g. harbor-prebuilt-image)" in result.stderr
    report = json.loads(result.stdout)
    rows = {row["id"]: row for row in report["tasks"]}
    assert sorted(rows) == ["harbor-env-sections", "harbor-image-user", "harbor-network-needed",
                            "harbor-prebuilt-image", "harbor-reward-json", "tb1-compose-main", "tb1-compose-sibling",
                            "tb1-parser-verdict", "tb1-same-shell"]
    assert report["refused"] == [{"id": "broken-no-tests", "file": str(SUITE / "broken-no-tests/tests/test.sh"),
                                  "reason": "missing"}]
    for name, row in rows.items():
        assert row["oracle"]["passed"], (name, row["detail"])
        assert not row["nop"]["passed"] and row["nop"]["failure_mode"] == "unresolved", (name, row["nop"])
        assert row["sound"], name
    # reward.json first (its reward.txt says 0), several metrics -> their mean
    assert rows["harbor-reward-json"]["oracle"]["reward"] == 1.0
    assert rows["harbor-reward-json"]["nop"]["reward"] == 0.5


def test_network_needing_task_is_refused_when_the_config_forbids(tmp_path, docker_client, base_image):
    result = cli("run", "--suite", str(SUITE), "--task", "harbor-network-needed", "--agent", "oracle",
                 "--format", "json", "--quiet")
    assert result.returncode == 0, result.stderr  # --task selects a loadable task: nothing refused
    (row,) = json.loads(result.stdout)["results"]
    assert (row["passed"], row["failure_mode"]) == (False, "network_refused")
    assert "allow_internet" in row["detail"] and "sandbox.allow_network" in row["detail"]
    assert "build" in row["durations"] and "start" not in row["durations"]  # no container was started
    asked = cli("run", "--suite", str(SUITE), "--task", "broken-no-tests", "--quiet")
    assert asked.returncode == 2 and "task broken-no-tests refused" in asked.stderr


@pytest.fixture
def provider(docker_client, base_image):
    provider = DockerProvider(SandboxConfig(), client=docker_client)
    yield provider
    provider.close_all()


def _task(name):
    return next(t for t in scan_suite(SUITE).tasks if t.id == name)


def test_rules_switched_off_give_the_wrong_answer(provider):
    """The tasks really depend on the rules: verifying as root breaks the USER task's oracle, a TB1
    nop fails on the parser's verdict although its script exits 0, and running a same-shell task's
    tests in a fresh process fails its oracle."""
    as_root = dataclasses.replace(_task("harbor-image-user"), verifier_user="root")
    oracle = run_attempt(as_root, OracleAgent(), provider)
    assert not oracle.passed and "tests run as root, not agent" in oracle.detail, oracle.detail

    nop = run_attempt(_task("tb1-parser-verdict"), NopAgent(), provider)
    assert not nop.passed and "pytest parser: 1/2 tests pass" in nop.detail and "script exit 0" in nop.detail

    fresh = run_attempt(dataclasses.replace(_task("tb1-same-shell"), run_tests_in_same_shell=False), OracleAgent(),
                        provider)
    assert not fresh.passed and "FAILED tests/test_outputs.py::test_run_by_the_agent_shell" in fresh.detail
    assert "tests ran in a fresh process" in fresh.detail


class ShellAgent:
    """Works in its own shell, as the LLM agent does: exports a variable, moves, leaves a background job."""

    name = "shell"

    def solve(self, task, sandbox):
        from adaptive_skill.harness.results import AgentOutcome

        sandbox.run("export AGENT_NOTE=from-the-shell; mkdir -p /tmp/work && cd /tmp/work; echo done > /app/status.txt")
        # a forger: it writes whenever the shell's output is read (and waits on the full pipe otherwise)
        sandbox.run("yes $'=== short test summary info ===\\nPASSED forged::test' &")
        return AgentOutcome(status="completed", detail="worked in its shell")


def test_same_shell_tests_see_the_agents_shell_but_not_its_jobs(provider):
    """The tests run in the agent's shell: they see what it exported and where it stands; a background
    job it left (which could print a forged summary into that shell's output) is killed first."""
    result = run_attempt(_task("tb1-same-shell"), ShellAgent(), provider)
    assert result.passed, result.detail
    assert "AGENT_NOTE=from-the-shell" in result.detail and "cwd: /tmp/work" in result.detail
    assert "forged::test" not in result.detail and "tests ran in the agent's shell" in result.detail


class InterruptingAgent:
    name = "interrupting"

    def solve(self, task, sandbox):
        assert sandbox.run("for i in $(seq 60); do exec 3<>/dev/tcp/store/7000 && break; sleep 0.5; done "
                           "2>/dev/null; echo HELLO >&3; read -r l <&3; echo $l", timeout=120).output.strip() \
            == "word-store 1.0"
        raise KeyboardInterrupt  # Ctrl-C while the siblings run


def test_no_sibling_container_or_network_outlives_its_attempt(docker_client, provider):
    """After every attempt (passed, failed, interrupted, or a sibling whose image is missing) nothing
    labelled with the attempt is left: not the task's container, its siblings, nor their network."""
    import uuid

    def leftovers(selector: str) -> list[str]:
        return ([c.name for c in docker_client.containers.list(all=True, filters={"label": selector})]
                + [n.name for n in docker_client.networks.list(filters={"label": selector})])

    task = _task("tb1-compose-sibling")
    absent = dataclasses.replace(task.services[0], environment_dir=None, dockerfile=None,
                                 image="adaptive-skill-test/absent:none")
    cases = [(task, OracleAgent(), True), (task, NopAgent(), False), (task, InterruptingAgent(), None),
             (dataclasses.replace(task, id="tb1-compose-sibling-absent", services=(absent,)), OracleAgent(), False)]
    for case, agent, passes in cases:
        mark = {"adaptive-skill.test-attempt": uuid.uuid4().hex[:10]}
        selector = "adaptive-skill.test-attempt={}".format(mark["adaptive-skill.test-attempt"])
        if passes is None:
            with pytest.raises(KeyboardInterrupt):
                run_attempt(case, agent, provider, labels=mark)
        else:
            result = run_attempt(case, agent, provider, labels=mark)
            assert result.passed is passes, (agent.name, result.detail)
            if passes:  # the sibling was reached by its name, with its compose command and environment
                assert "stored=QUOKKA banner=word-store 1.0" in result.detail
        assert leftovers(selector) == [], (agent.name, case.services)
    assert "absent:none is not present locally" in result.detail and result.failure_mode == "build_error"


def test_missing_prebuilt_image_is_a_clear_build_error(provider):
    task = dataclasses.replace(_task("harbor-prebuilt-image"), docker_image="adaptive-skill-test/absent:none")
    result = run_attempt(task, OracleAgent(), provider)
    assert result.failure_mode == "build_error"
    assert "docker_image adaptive-skill-test/absent:none is not present locally" in result.detail


def test_agent_logs_are_kept_but_a_planted_verifier_dir_is_not(tmp_path, provider):
    """/logs now survives verification (for /logs/agent), so a hostile agent gets a new chance: it
    turns /logs/verifier into a link to its own reward and leaves a reward in /logs/agent. Neither
    counts; its own logs are still there for the tests to see."""
    from taskfactory import make_task

    from adaptive_skill.tasks import load_task

    solve = ("echo note > /logs/agent/notes.txt; echo 1 > /logs/agent/reward.txt; mkdir -p /mine; "
             "echo 1 > /mine/reward.txt; rm -rf /logs/verifier; ln -s /mine /logs/verifier\n")
    test = ("[ \"$(cat /logs/agent/notes.txt)\" = note ] && echo kept-agent-logs; "
            "[ -L /logs/verifier ] && echo still-a-link; echo 0 > /logs/verifier/reward.txt\n")
    result = run_attempt(load_task(make_task(tmp_path, "planted", solve=solve, test=test)), OracleAgent(), provider)
    assert (result.passed, result.reward, result.failure_mode) == (False, 0.0, "unresolved"), result.detail
    assert "kept-agent-logs" in result.detail and "still-a-link" not in result.detail


def test_images_build_skips_the_refused_tasks(docker_client, base_image):
    result = cli("images", "build", "--suite", str(SUITE), "--workers", "1", "--quiet")
    assert result.returncode == 3, result.stdout + result.stderr
    assert "task broken-no-tests refused" in result.stderr and result.stderr.count("refused") == 1
    import re

    counts = re.search(r"(\d+) built, (\d+) cached, (\d+) failed", result.stdout)
    assert counts and int(counts[1]) + int(counts[2]) == 9 and counts[3] == "0", result.stdout

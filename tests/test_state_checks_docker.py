"""Checks of the final state with real Docker: what an attempt left is kept as the engine tars it,
unpacked only in a fresh container of the task's image, and read there by commands written from the
instruction alone. A hostile agent cannot steer them and a hostile check changes nothing kept."""

import hashlib
import json
import shutil
from pathlib import Path

import pytest
from taskfactory import make_task

from adaptive_skill.config import SandboxConfig
from adaptive_skill.harness.agents import NopAgent, OracleAgent
from adaptive_skill.harness.attempt import run_attempt
from adaptive_skill.harness.providers import DockerProvider
from adaptive_skill.observe.checks import CheckedState, Checker, run_checks
from adaptive_skill.sandbox.state import capture_state, load_state
from adaptive_skill.tasks import load_task

pytestmark = pytest.mark.docker
REPO = Path(__file__).resolve().parents[1]

@pytest.fixture
def provider(docker_client, base_image):
    provider = DockerProvider(SandboxConfig(), client=docker_client)
    yield provider
    provider.close_all()


def easy_task(tmp_path, name: str, solve: str):
    """A copy of a terminal-easy task (its image has git, sqlite3, python3) with `solve` as its solution."""
    task_dir = tmp_path / name
    shutil.copytree(REPO / "benchmarks" / "terminal-easy" / name, task_dir)
    (task_dir / "solution" / "solve.sh").write_text(solve)
    return load_task(task_dir)


def _tree_hash(folder):
    return hashlib.sha256(b"".join(p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file())).hexdigest()


def test_an_honest_attempt_and_a_nop_are_told_apart_by_the_checks(tmp_path, provider):
    task = load_task(make_task(tmp_path, "answer"))
    solved = run_attempt(task, OracleAgent(), provider, state_dir=tmp_path / "solved")
    idle = run_attempt(task, NopAgent(), provider, state_dir=tmp_path / "idle")
    assert solved.passed and not idle.passed
    state = load_state(tmp_path / "solved")
    assert [r.path for r in state.roots] == ["/app"] and state.digest and state.error is None
    assert "state" in solved.durations
    assert load_state(tmp_path / "idle").digest != state.digest
    done = run_checks(provider, task, tmp_path / "solved", ["cat /app/answer.txt"])
    none = run_checks(provider, task, tmp_path / "idle", ["cat /app/answer.txt"])
    assert done.error is None and done.runs[0].output.strip() == "42" and done.runs[0].exit_code == 0
    assert none.runs[0].exit_code != 0 and "No such file" in none.runs[0].output
    assert done.fingerprint() != none.fingerprint()
    assert "$ cat /app/answer.txt\n(exit 0)\n42" in done.evidence()


HOSTILE = r"""
echo 41 > /app/answer.txt
# programs and shells of its own container, rigged to print the right answer
printf '#!/bin/sh\necho 42\n' > /usr/local/bin/cat; chmod +x /usr/local/bin/cat
cp /usr/local/bin/cat /bin/cat
echo "alias cat='echo 42'" >> /root/.bashrc; echo "cat() { echo 42; }; export -f cat" >> /etc/profile
printf 'cat() { echo 42; }\n' > /app/.bashrc
printf '#!/bin/sh\necho 42\n' > /app/cat; chmod +x /app/cat
echo PASSED > /app/PASSED; echo 'all tests PASSED' > /app/test-results.txt
# a repository whose config runs its own commands
mkdir -p /app/repo && cd /app/repo && git init -q 2>/dev/null
printf '[core]\n\tpager = echo PAGER-RAN\n\tfsmonitor = echo FSMONITOR-RAN >&2; false\n[alias]\n\tlog = !echo ALIAS-RAN\n' >> /app/repo/.git/config 2>/dev/null
# links out of the state, a fifo, and a look for the tests (they are not there yet)
ln -s /etc/shadow /app/shadow-link; ln -s / /app/root-link; mkfifo /app/pipe
ls -la /tests /solution /logs/verifier > /app/seen.txt 2>&1
true
"""


def test_what_a_hostile_agent_left_does_not_steer_the_checks(tmp_path, provider):
    task = load_task(make_task(tmp_path, "hostile", solve=HOSTILE))
    result = run_attempt(task, OracleAgent(), provider, state_dir=tmp_path / "state")
    assert not result.passed
    state = load_state(tmp_path / "state")
    assert [r.path for r in state.roots] == ["/app"] and state.error is None  # /bin, /root, /etc are not kept
    checked = run_checks(provider, task, tmp_path / "state",
                         ["cat /app/answer.txt", "cd /app && cat answer.txt", "cat /app/seen.txt",
                          "ls -l /app/shadow-link /app/root-link"])
    outputs = [r.output for r in checked.runs]
    assert checked.error is None, checked.error
    assert outputs[0].strip() == "41" and outputs[1].strip() == "41", outputs  # the image's cat, no alias
    assert "No such file" in outputs[2]  # the agent looked for the tests and found nothing
    assert "/etc/shadow" in outputs[3]  # links stay links: listed, never followed on the host
    assert not any(p.is_symlink() for p in (tmp_path / "state").rglob("*"))  # nothing extracted here


def test_git_configuration_of_the_agent_runs_nothing(tmp_path, provider):
    """A terminal-easy git task (its image has git): the repository's own config names a pager, an
    fsmonitor and a hooks path that would print; the checks' git runs none of them."""
    task = easy_task(tmp_path, "git-branch-feature",
                     "cd /app/repo && git checkout -q -b feature && printf '[core]\\n\\tpager = echo PAGER-RAN\\n"
                     "\\tfsmonitor = echo FSMONITOR-RAN\\n\\thooksPath = /app/hooks\\n' >> .git/config\n")
    probe = run_checks(provider, task, tmp_path / "none", ["true"])  # no state: a clear reason, no crash
    assert probe.error and probe.error.startswith("nothing to check")
    result = run_attempt(task, OracleAgent(), provider, state_dir=tmp_path / "state")
    assert result.passed, result.detail
    checked = run_checks(provider, task, tmp_path / "state",
                         ["git -C /app/repo branch", "git -C /app/repo status --short", "git -C /app/repo log -1"])
    text = " ".join(r.output for r in checked.runs)
    assert "feature" in checked.runs[0].output and checked.runs[0].exit_code == 0, text
    assert "PAGER-RAN" not in text and "FSMONITOR-RAN" not in text


def test_a_hostile_check_changes_nothing_kept_and_finds_no_tests(tmp_path, provider):
    task = load_task(make_task(tmp_path, "answer"))
    run_attempt(task, OracleAgent(), provider, state_dir=tmp_path / "state")
    before = _tree_hash(tmp_path / "state")
    hostile = run_checks(provider, task, tmp_path / "state", [
        "rm -rf /app; echo 0 > /app/answer.txt; mkdir -p /logs/verifier; echo 1 > /logs/verifier/reward.txt",
        "ls -la /tests /solution /logs/verifier 2>&1; cat /te''sts/test.sh /sol''ution/solve.sh 2>&1",
        "sleep 60"], timeout=3)
    assert "No such file" in hostile.runs[1].output and "reward" not in hostile.runs[1].output
    assert hostile.runs[2].timed_out
    assert _tree_hash(tmp_path / "state") == before
    again = run_checks(provider, task, tmp_path / "state", ["cat /app/answer.txt"])
    assert again.runs[0].output.strip() == "42"


def test_the_size_limit_cuts_and_says_so(tmp_path, provider):
    task = load_task(make_task(tmp_path, "big", solve="head -c 200000 /dev/urandom > /app/big.bin\n"))
    sandbox = provider.open(task)
    try:
        sandbox.start()
        sandbox.exec("head -c 200000 /dev/urandom > /app/big.bin", timeout=30)
        state = capture_state(sandbox, task, tmp_path / "state", limit=50_000)
    finally:
        sandbox.close()
    assert state.roots[0].complete is False and state.roots[0].bytes == 50_000 and state.digest is None
    assert (tmp_path / "state" / "0.tar").stat().st_size == 50_000
    assert json.loads((tmp_path / "state" / "state.json").read_text())["roots"][0]["complete"] is False


def test_the_checker_writes_checks_once_per_task_and_runs_them(tmp_path, provider):
    from adaptive_skill.llm.scripted import ScriptedLLM

    task = load_task(make_task(tmp_path, "answer"))
    run_attempt(task, OracleAgent(), provider, state_dir=tmp_path / "state")
    llm = ScriptedLLM([{"content": {"checks": ["cat /app/answer.txt", "cat /tests/test.sh"]}}])
    checker = Checker(llm, tmp_path / "cache")
    plan = checker.plan(task.instruction)
    assert plan.commands == ["look /app/answer.txt", "cat /app/answer.txt"]
    assert plan.refused and "verifier" in plan.refused[0]
    assert checker.plan(task.instruction).cached  # the script has one reply: a second question would fail
    shown = llm.requests[0].messages[-1]["content"]
    assert task.instruction in shown and "42" not in shown.replace(task.instruction, "")
    checked = checker.run(provider, task, tmp_path / "state", plan.commands)
    assert checked.runs[0].output.splitlines()[1:] == ["1 lines:", "42"] and checked.runs[1].output.strip() == "42"
    assert CheckedState.from_dict(checked.to_dict()).fingerprint() == checked.fingerprint()


def test_run_estimate_puts_the_label_free_estimate_beside_the_tests(tmp_path, docker_client, base_image):
    """`adaptive-skill run --agent llm --estimate` with judge.check_state: one task solved, one that
    prints the answer and writes another; the estimate (scripted judge over the checks' output) is
    written beside each result with the tests' verdict, and its precision against them is printed."""
    import subprocess
    import sys

    import yaml

    suite = tmp_path / "suite"
    make_task(suite, "right")
    make_task(suite, "wrong")
    (suite / "wrong" / "instruction.md").write_text("Write 42 to /app/answer.txt (the wrong one).")
    bash = lambda command: {"tool_calls": [{"name": "bash", "arguments": {"command": command}}]}  # noqa: E731
    scripts = {
        "agent": [{"when": r"\[exit code", "tool_calls": [{"name": "submit", "arguments": {"answer": "done"}}]},
                  {"when": "wrong one", **bash("echo 41 > /app/answer.txt; echo 42")},
                  bash("echo 42 > /app/answer.txt; echo 42")],
        "judge": [{"when": "You check whether a task", "content": {"checks": ["cat /app/answer.txt"]}},
                  {"when": r"\(exit 0\)\n41", "content": {"score": 2, "category": "file-operations",
                                                           "outcome": "41", "failure_reason": "41, not 42"}},
                  {"content": {"score": 9, "category": "file-operations", "outcome": "42", "failure_reason": None}}]}
    sets = []
    for role, script in scripts.items():
        (tmp_path / f"{role}.yaml").write_text(yaml.safe_dump(script))
        sets += ["--set", f"models.{role}.model=scripted/{tmp_path / f'{role}.yaml'}"]
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "-m", "adaptive_skill", "run", "--suite", str(suite), "--agent", "llm",
                           "--estimate", "--out", str(out), "--format", "json", "--quiet", "--workers", "1",
                           "--set", "judge.check_state=true", *sets], capture_output=True, text=True, cwd=REPO)
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout)
    estimates = report["estimates"]
    assert (estimates["right"]["score"], estimates["right"]["tests_passed"]) == (9.0, True)
    assert (estimates["wrong"]["score"], estimates["wrong"]["tests_passed"]) == (2.0, False)
    assert estimates["wrong"]["checked"] and estimates["wrong"]["checks"]["runs"][-1]["output"].strip() == "41"
    assert report["summary"]["estimate"] == {"compared": 2, "likely_solved": 1, "tests_passed": 1, "both": 1,
                                            "precision": 1.0, "recall": 1.0, "checked": 2}
    assert json.loads((out / "estimates" / "wrong.json").read_text())["tests_passed"] is False
    refused = subprocess.run([sys.executable, "-m", "adaptive_skill", "run", "--suite", str(suite), "--estimate"],
                             capture_output=True, text=True, cwd=REPO)
    assert refused.returncode == 2 and refused.stderr.strip().splitlines()[-1].endswith(
        "--estimate needs --agent llm: only the LLM agent leaves a record to estimate")


def test_look_shows_what_each_kind_of_path_holds(tmp_path, provider):
    """`look PATH` on a file, a directory, a missing path, a link, an archive and a database, as an
    unprivileged user over a copy of the state (the sqlite task image has sqlite3 and python3)."""
    task = easy_task(tmp_path, "sqlite-count-rows",
                     "mkdir -p /app/d && echo hi > /app/d/x.txt && ln -s /etc/hostname /app/link && "
                     "tar -cf /app/d.tar -C /app d && printf 'a\\nb\\n' > /app/two.txt\n")
    run_attempt(task, OracleAgent(), provider, state_dir=tmp_path / "state")
    checked = run_checks(provider, task, tmp_path / "state",
                         ["look /app/two.txt", "look /app/d", "look /app/none", "look /app/link", "look /app/d.tar",
                          "look /app/shop.db"])
    out = [r.output for r in checked.runs]
    assert out[0].splitlines()[1:] == ["2 lines:", "a", "b"], out[0]
    assert "x.txt" in out[1] and "no such file or directory" in out[2] and checked.runs[2].exit_code == 1
    assert "/app/link is a link to /etc/hostname" in out[3] and "d/x.txt" in out[4]
    assert "table " in out[5] and "rows:" in out[5], out[5]  # the image's setup made /app/shop.db

"""`adaptive-skill trajectory signals|compress` and `adaptive-skill judge`, run as a user runs them."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from taskfactory import make_task

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures" / "observe"
SAMPLE = FIXTURES / "sample_trajectory.json"
MESSAGES = FIXTURES / "sample_messages_text.json"


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "adaptive_skill", *map(str, args)], capture_output=True,
                          text=True, cwd=REPO, timeout=120)


def test_help_lists_the_commands():
    out = cli("--help").stdout
    assert "trajectory" in out and "judge" in out


def test_signals_of_a_saved_trajectory_and_of_bare_messages():
    result = cli("trajectory", "signals", SAMPLE, "--format", "json")
    assert result.returncode == 0, result.stderr
    signals = json.loads(result.stdout)
    assert (signals["n_errors"], signals["n_timeouts"], signals["spiral_events"]["count"]) == (5, 1, 3)
    bare = json.loads(cli("trajectory", "signals", MESSAGES, "--format", "json").stdout)
    assert bare["n_errors"] == 5 and bare["steps_source"] == "rebuilt from messages"


def test_signals_as_text_by_default():
    """A person reads a few lines and each error's output; --format json is for programs."""
    result = cli("trajectory", "signals", SAMPLE)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "status submitted; 11 turns, 10 tool calls, 5 errors, 1 timeout"
    assert lines[1] == 'submitted: "Fixed the include path in the Makefile."'
    assert "repeated commands: `make test` 3 times (steps 8, 9, 10)" in lines
    assert "spiral monitor: 3 interventions (nudge 2, restart 1; strongest restart) at steps 9, 10, 10" in lines
    assert "step 4 (exit, exit code 2): `make`" in lines
    assert "    make: *** [Makefile:9: build/main.o] Error 1" in lines
    assert result.stdout.count("\nstep ") == 5  # one paragraph per error


def test_compress_with_budget_and_stats():
    result = cli("trajectory", "compress", SAMPLE, "--budget", "300", "--stats")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Trajectory: status submitted; 11 turns, 10 tool calls, 5 errors")
    assert "## Errors (5)" in result.stdout
    stats = result.stderr.strip()
    assert stats.startswith("tokens: ") and "budget 300" in stats and "of 5 errors shown" in stats
    assert int(stats.split()[1]) <= 300
    default = cli("trajectory", "compress", MESSAGES)
    assert default.returncode == 0 and "## Submission\nFixed the include path" in default.stdout
    assert cli("trajectory", "compress", SAMPLE, "--budget", "0").returncode == 2  # argparse refuses it


@pytest.mark.parametrize("content, message", [
    (None, "no such trajectory file"), ("[1, 2", "not JSON"), ('{"steps": []}', "expected a list of chat messages"),
])
def test_bad_trajectory_files_end_in_one_line(tmp_path, content, message):
    path = tmp_path / "traj.json"
    if content is not None:
        path.write_text(content)
    for args in (("trajectory", "signals", path), ("trajectory", "compress", path),
                 ("judge", path, "--task-dir", make_task(tmp_path, "t"),
                  "--model", f"scripted/{FIXTURES / 'judge_reply.yaml'}")):
        result = cli(*args)
        assert result.returncode == 2 and result.stdout == "", args
        assert result.stderr.startswith(f"error: {path}") and message in result.stderr
        assert len(result.stderr.splitlines()) == 1 and "Traceback" not in result.stderr


def test_judge_prints_a_verdict(tmp_path):
    task = make_task(tmp_path, "calc-repair")
    result = cli("judge", SAMPLE, "--task-dir", task, "--model", f"scripted/{FIXTURES / 'judge_reply.yaml'}",
                 "--format", "json")
    assert result.returncode == 0, result.stderr
    verdict = json.loads(result.stdout)
    assert verdict["status"] == "ok" and verdict["score"] == 4.0 and verdict["category"] == "build"
    assert verdict["task_id"] == "calc-repair" and verdict["failure_reason"].startswith("make test was not run")
    text = cli("judge", SAMPLE, "--task-dir", task, "--model", f"scripted/{FIXTURES / 'judge_reply.yaml'}")
    assert text.returncode == 0 and text.stdout.splitlines() == [
        "calc-repair: score 4/10, likely not solved (pass threshold 7); category build",
        f"outcome: {verdict['outcome']}",
        f"failure reason: {verdict['failure_reason']}"]


def test_judge_cache_answers_a_second_run_without_the_model(tmp_path):
    task, cache, script = make_task(tmp_path, "calc-repair"), tmp_path / "cache", tmp_path / "judge.yaml"
    script.write_text((FIXTURES / "judge_reply.yaml").read_text())
    first = cli("judge", SAMPLE, "--task-dir", task, "--cache", cache, "--model", f"scripted/{script}", "--format", "json")
    assert first.returncode == 0 and json.loads(first.stdout)["cached"] is False
    # The same model now only gives broken replies: the answer must come from the cache.
    script.write_text((FIXTURES / "judge_broken.yaml").read_text())
    second = cli("judge", SAMPLE, "--task-dir", task, "--cache", cache, "--model", f"scripted/{script}",
                 "--format", "json")
    assert second.returncode == 0, second.stdout
    assert json.loads(second.stdout)["cached"] is True
    assert json.loads(second.stdout)["score"] == json.loads(first.stdout)["score"]
    without_cache = cli("judge", SAMPLE, "--task-dir", task, "--model", f"scripted/{script}")
    assert without_cache.returncode == 1  # the cache, not luck, answered


def test_judge_error_is_printed_and_exits_1(tmp_path):
    task = make_task(tmp_path, "calc-repair")
    result = cli("judge", SAMPLE, "--task-dir", task, "--model", f"scripted/{FIXTURES / 'judge_broken.yaml'}",
                 "--format", "json")
    assert result.returncode == 1
    failure = json.loads(result.stdout)
    assert failure["status"] == "judge_error" and "after one repair" in failure["reason"]
    text = cli("judge", SAMPLE, "--task-dir", task, "--model", f"scripted/{FIXTURES / 'judge_broken.yaml'}")
    assert text.returncode == 1 and text.stdout.startswith("calc-repair: judge error: invalid reply after repair")


def test_judge_with_a_missing_task_or_script(tmp_path):
    result = cli("judge", SAMPLE, "--task-dir", tmp_path / "nope", "--model", f"scripted/{FIXTURES / 'judge_reply.yaml'}")
    assert result.returncode == 2 and "nope" in result.stderr and len(result.stderr.splitlines()) == 1
    result = cli("judge", SAMPLE, "--task-dir", make_task(tmp_path, "t"), "--model", "scripted/missing.yaml")
    assert result.returncode == 2 and "missing.yaml" in result.stderr

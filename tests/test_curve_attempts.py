"""A curve's compact attempt record (curve/attempts.py, issue 66): one line per attempt with its
commands, exit codes and clipped outputs, read through the trajectory kernel; links never followed."""

import json
import os

from adaptive_skill.curve.attempts import FILE, OUTPUT_CHARS, read_attempts, write_attempts


def _attempt(folder, task, passed, commands):
    (folder / "results").mkdir(parents=True, exist_ok=True)
    (folder / "trajectories").mkdir(parents=True, exist_ok=True)
    (folder / "results" / f"{task}.json").write_text(json.dumps(
        {"task_id": task, "agent": "llm", "passed": passed, "reward": float(passed),
         "failure_mode": None if passed else "unresolved"}))
    messages = [{"role": "user", "content": "do it"}]
    for index, (command, output) in enumerate(commands):
        messages.append({"role": "assistant", "content": None, "tool_calls": [
            {"id": f"c{index}", "type": "function", "function": {"name": "bash",
                                                                 "arguments": json.dumps({"command": command})}}]})
        messages.append({"role": "tool", "tool_call_id": f"c{index}", "content": output})
    (folder / "trajectories" / f"{task}.json").write_text(json.dumps(messages))


def test_every_attempt_in_one_compact_line(tmp_path):
    _attempt(tmp_path / "runs" / "evolve" / "cycles" / "001" / "solve", "count", True,
             [("wc -l < /app/a > /app/n", "[exit code 0]"), ("cat /app/n", "12\n" + "x" * 5000)])
    _attempt(tmp_path / "baselines" / "h" / "gate-k" / "r0", "count", False, [("wc -l /app/a > /app/n", "")])
    (tmp_path / "baselines" / "h" / "gate-k" / "r0" / "results" / "broken.json").write_text("{not json")
    assert write_attempts(tmp_path) == 2
    rows = read_attempts(tmp_path)
    assert [(r["where"], r["task"], r["passed"]) for r in rows] == [
        ("baselines/h/gate-k/r0", "count", False), ("runs/evolve/cycles/001/solve", "count", True)]
    solve = rows[1]["steps"]
    assert [s[1] for s in solve] == ["wc -l < /app/a > /app/n", "cat /app/n"]
    assert len(solve[1][3]) == OUTPUT_CHARS
    assert (tmp_path / FILE).is_file() and not (tmp_path / (FILE + ".partial")).exists()


def test_a_linked_folder_or_trajectory_is_not_followed(tmp_path):
    outside = tmp_path / "outside"
    _attempt(outside, "secret", True, [("cat /etc/shadow", "root:x")])
    root = tmp_path / "curve"
    root.mkdir()
    os.symlink(outside, root / "linked")  # a folder of results elsewhere
    _attempt(root / "r0", "count", True, [("true", "")])
    os.unlink(root / "r0" / "trajectories" / "count.json")
    os.symlink(outside / "trajectories" / "secret.json", root / "r0" / "trajectories" / "count.json")
    _attempt(root / "r1", "secret", True, [("true", "")])
    (root / "r1" / "trajectories" / "secret.json").unlink()
    (root / "r1" / "trajectories").rmdir()
    os.symlink(outside / "trajectories", root / "r1" / "trajectories")  # a linked folder holding secret.json
    write_attempts(root)
    rows = read_attempts(root)
    assert [r["task"] for r in rows] == ["count", "secret"] and rows[0]["steps"] == rows[1]["steps"] == []


def test_an_attempt_kept_in_two_places_is_one_line(tmp_path):
    """An accepted candidate's gate rounds are copied as its tag's rounds (engine/holdout.py keep_rounds):
    the copy adds its place to `copies`; a different attempt of the same task stays its own line."""
    import shutil

    gate = tmp_path / "runs" / "evolve" / "cycles" / "001" / "gate-mutated" / "r0"
    _attempt(gate, "count", True, [("wc -l < /app/a > /app/n", "[exit code 0]")])
    shutil.copytree(gate, tmp_path / "runs" / "evolve" / "baselines" / "h" / "gate-k" / "r0")
    _attempt(tmp_path / "runs" / "evolve" / "baselines" / "h" / "gate-k" / "r2", "count", True, [("true", "")])
    assert write_attempts(tmp_path) == 2
    rows = read_attempts(tmp_path)
    # the gate's own folder is where the attempt ran; the round cache holds the copy
    assert [(r["where"], r.get("copies")) for r in rows] == [
        ("runs/evolve/cycles/001/gate-mutated/r0", ["runs/evolve/baselines/h/gate-k/r0"]),
        ("runs/evolve/baselines/h/gate-k/r2", None)]

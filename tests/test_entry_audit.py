"""benchmarks/evolution/entry_audit.py: each distilled entry run on its own task against its tests
(a real container per entry), so a library's wrong commands are counted, not guessed."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from taskfactory import make_task

from adaptive_skill.evolve.distill import Entry, write_skill

REPO = Path(__file__).resolve().parents[1]
TOOL = REPO / "benchmarks" / "evolution" / "entry_audit.py"


@pytest.mark.docker
def test_an_entry_that_does_its_task_is_right_one_that_misses_its_trap_is_wrong(tmp_path, docker_client, base_image):
    suite = tmp_path / "suite"
    for name, instruction in [("answer", "Write 42 to /app/answer.txt."),
                              ("count", "Write the number 42, just the digits, to /app/answer.txt.")]:
        make_task(suite, name)
        (suite / name / "instruction.md").write_text(instruction)
    ws = tmp_path / "ws"
    entries = [Entry("Write 42 to /app/answer.txt.", ["echo 42 > /app/answer.txt"], instruction="Write 42 to /app/answer.txt."),
               # the trap: the count comes with the file's name, as `wc -l FILE > OUT` writes it
               Entry("Write the number 42, just the digits, to /app/answer.txt.", ["echo '42 answer.txt' > /app/answer.txt"],
                     instruction="Write the number 42, just the digits, to /app/answer.txt."),
               Entry("Do something no task asks.", ["touch /app/x"], instruction="Do something no task asks.")]
    write_skill(ws / "skills" / "file-operations-worked-commands", "file-operations-worked-commands", "file-operations",
                entries)
    (ws / "skills" / "hand-written").mkdir()
    (ws / "skills" / "hand-written" / "SKILL.md").write_text("---\nname: hand-written\ndescription: d\n---\nRun `rm -rf /`.\n")
    out = tmp_path / "audit.json"
    done = subprocess.run([sys.executable, str(TOOL), str(ws), "--suite", str(suite), "--out", str(out)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    record = json.loads(out.read_text())
    assert record["summary"] == {"entries": 3, "right": 1, "wrong": 1, "no task": 1, "error": 0}
    verdicts = {row["task"]: row["verdict"] for row in record["entries"]}
    assert verdicts == {"answer": "right", "count": "wrong", None: "no task"}
    assert "1 wrong" in done.stdout and "answer.txt' > /app/answer.txt" in done.stdout


def test_a_folder_that_is_no_workspace_is_one_line_and_exit_2(tmp_path):
    done = subprocess.run([sys.executable, str(TOOL), str(tmp_path), "--suite", str(tmp_path)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1 and "no skills/" in done.stderr

"""The shipped suites are sound: every task builds offline, passes with its reference solution
and fails when nothing is done. This runs `tasks validate --format json` exactly as a user would."""

import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from adaptive_skill.tasks.loader import load_suite

REPO = Path(__file__).resolve().parents[1]
EASY = "benchmarks/terminal-easy"
# One task per category of terminal-easy, each exercising a different kind of check (a user made in
# setup, an exact number, a missing tool, JSON types, fixed commit ids, a schema, running the agent's
# script as nobody). Validating all of them builds one image per task first: measured 28.5 min for the
# 56 tasks it then had, on the shared 2-core development machine (24 min of it image builds, load
# average 11-18; 4.6 min once the images exist), far beyond a few minutes of CI time, so the whole
# suite is the opt-in test below.
EASY_SAMPLE = ["chown-data-dir", "count-log-lines", "zip-docs-without-zip", "csv-to-json", "git-commit-one-file",
               "sqlite-create-table", "greet-script"]
SLOW_ENV = "ADAPTIVE_SKILL_SLOW"


def _validate(suite, tasks=()):
    command = [sys.executable, "-m", "adaptive_skill", "tasks", "validate", "--suite", suite, "--format", "json",
               "--workers", "2", "--quiet"]
    for task in tasks:
        command += ["--task", task]
    result = subprocess.run(command, capture_output=True, text=True, cwd=REPO, timeout=3600)
    report = json.loads(result.stdout)
    unsound = {row["id"]: (row["oracle"], row["nop"], row["detail"][-800:])
               for row in report["tasks"] if not row["sound"]}
    assert not unsound, unsound
    assert result.returncode == 0, result.stderr[-2000:]
    return report


@pytest.mark.docker
@pytest.mark.parametrize("suite,minimum", [("benchmarks/terminal-core", 30), ("tests/fixtures/legacy-suite", 2)])
def test_suite_validates(docker_client, base_image, suite, minimum):
    report = _validate(suite)
    assert report["summary"]["tasks"] >= minimum
    if minimum >= 30:
        categories = {row["category"] for row in report["tasks"]}
        assert len(categories) >= 6, categories
        assert {row["difficulty"] for row in report["tasks"]} >= {"easy", "medium", "hard"}


def test_terminal_easy_shape():
    """At least 40 easy tasks in at least 6 categories, each with a reference solution; the CI sample
    names real tasks and covers every category; answers.toml names real tasks, each answer once."""
    tasks = {task.id: task for task in load_suite(REPO / EASY)}
    assert len(tasks) >= 40
    assert {task.difficulty for task in tasks.values()} == {"easy"}
    assert all(task.solution_script is not None for task in tasks.values())
    categories = {task.category for task in tasks.values()}
    assert len(categories) >= 6, categories
    assert set(EASY_SAMPLE) <= set(tasks)
    assert {tasks[name].category for name in EASY_SAMPLE} == categories
    answers = tomllib.loads((REPO / EASY / "answers.toml").read_text())["answer"]
    assert {answer["task"] for answer in answers} <= set(tasks)
    assert len({(answer["task"], answer["label"]) for answer in answers}) == len(answers)


def test_terminal_easy_tiers_match_its_readme():
    """The warm-up tier (tier = "warm-up" in [metadata], a `# catches: nothing (warm-up: ...)` comment)
    has at least three tasks in every category, and the README's table states the real counts."""
    rows = {}
    for task in load_suite(REPO / EASY):
        text = (task.path / "task.toml").read_text()
        warm = tomllib.loads(text)["metadata"].get("tier") == "warm-up"
        assert warm == ("# catches: nothing (warm-up: " in text), task.id
        total, warmups = rows.get(task.category, (0, 0))
        rows[task.category] = (total + 1, warmups + warm)
    assert all(warmups >= 3 for _, warmups in rows.values()), rows
    readme = (REPO / EASY / "README.md").read_text()
    table = {}
    for line in readme.splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if line.startswith("| `") and len(cells) >= 3:
            table[cells[0].strip("`")] = (int(cells[1]), int(cells[2]))
    assert table == rows
    total, warmups = sum(t for t, _ in rows.values()), sum(w for _, w in rows.values())
    assert readme.startswith(f"# terminal-easy\n\n{total} small terminal tasks")
    assert f"{warmups} **warm-ups**" in readme and f"the {total - warmups} original tasks" in readme


@pytest.mark.docker
def test_terminal_easy_sample_validates(docker_client, base_image):
    report = _validate(EASY, EASY_SAMPLE)
    assert sorted(row["id"] for row in report["tasks"]) == sorted(EASY_SAMPLE)


@pytest.mark.docker
@pytest.mark.skipif(not os.environ.get(SLOW_ENV), reason=f"opt-in: validating all of {EASY} builds one image per "
                    f"task (28.5 min on a shared 2-core machine); set {SLOW_ENV}=1 to run it")
def test_terminal_easy_validates_in_full(docker_client, base_image):
    report = _validate(EASY)
    assert report["summary"]["tasks"] == len(load_suite(REPO / EASY))


@pytest.mark.docker
@pytest.mark.skipif(not os.environ.get(SLOW_ENV), reason=f"opt-in: builds an image per answer in {EASY}/answers.toml "
                    f"(4.5 min here with the images built, 11 min without); set {SLOW_ENV}=1 to run it")
def test_terminal_easy_catches_typical_slips(docker_client, base_image, tmp_path):
    """Each answer in answers.toml, run as the reference solution of a copy of its task: the slips a
    small model typically makes fail, the acceptable alternatives pass."""
    answers = tomllib.loads((REPO / EASY / "answers.toml").read_text())["answer"]
    expected = {}
    for answer in answers:
        copy = tmp_path / f"{answer['task']}--{answer['label']}"
        shutil.copytree(REPO / EASY / answer["task"], copy)
        (copy / "solution" / "solve.sh").write_text("#!/bin/bash\n" + answer["script"] + "\n")
        expected[copy.name] = answer["passes"]
    result = subprocess.run([sys.executable, "-m", "adaptive_skill", "tasks", "validate", "--suite", str(tmp_path),
                             "--format", "json", "--workers", "2", "--quiet"],
                            capture_output=True, text=True, cwd=REPO, timeout=3600)
    report = json.loads(result.stdout)
    got = {row["id"]: row["oracle"]["passed"] for row in report["tasks"]}
    wrong = {name: (want, got.get(name)) for name, want in expected.items() if got.get(name) is not want}
    assert not wrong, wrong
    assert not any(row["nop"]["passed"] for row in report["tasks"])

"""Task loading (both layouts), clear errors naming task and file, splits and rotating batches."""

from collections import Counter
from pathlib import Path

import pytest

from adaptive_skill.tasks import Task, TaskError, batch_for_cycle, load_suite, load_task, split_suite

REPO = Path(__file__).resolve().parents[1]

TOML = """version = "1.0"
[metadata]
difficulty = "medium"
category = "git"
tags = ["reflog"]
[agent]
timeout_sec = 120
[verifier]
timeout_sec = 30
[environment]
cpus = 2
memory_mb = 512
allow_internet = false
build_timeout_sec = 100
"""


def harbor(root: Path, name: str = "t1", toml: str = TOML, skip: str = "") -> Path:
    task = root / name
    files = {"instruction.md": "Do it.", "task.toml": toml, "environment/Dockerfile": "FROM debian:bookworm-slim\n",
             "tests/test.sh": "echo 1 > /logs/verifier/reward.txt\n", "solution/solve.sh": "true\n"}
    for rel, text in files.items():
        if rel == skip:
            continue
        (task / rel).parent.mkdir(parents=True, exist_ok=True)
        (task / rel).write_text(text)
    return task


def legacy(root: Path, name: str = "old1", yaml_text: str | None = None) -> Path:
    task = root / name
    (task / "tests").mkdir(parents=True)
    (task / "task.yaml").write_text(yaml_text if yaml_text is not None else
                                    "instruction: Sort it.\ndifficulty: easy\ncategory: text\ntags: [sort]\n"
                                    "max_agent_timeout_sec: 50\nmax_test_timeout_sec: 20\n")
    (task / "Dockerfile").write_text("FROM debian:bookworm-slim\n")
    (task / "run-tests.sh").write_text("true\n")
    (task / "solution.sh").write_text("true\n")
    return task


def test_harbor_task(tmp_path):
    task = load_task(harbor(tmp_path))
    assert (task.layout, task.category, task.difficulty, task.tags) == ("harbor", "git", "medium", ("reflog",))
    assert (task.agent_timeout_sec, task.verifier_timeout_sec, task.build_timeout_sec) == (120, 30, 100)
    assert (task.cpus, task.memory_mb, task.allow_internet) == (2, 512, False)
    assert task.dockerfile == tmp_path / "t1/environment/Dockerfile"
    assert task.solution_script == tmp_path / "t1/solution/solve.sh"


def test_harbor_memory_as_size_string(tmp_path):
    task = load_task(harbor(tmp_path, toml=TOML.replace("memory_mb = 512", 'memory = "2G"')))
    assert task.memory_mb == 2048


def test_terminal_bench_task(tmp_path):
    task = load_task(legacy(tmp_path))
    assert (task.layout, task.instruction, task.category, task.agent_timeout_sec) == (
        "terminal-bench", "Sort it.", "text", 50)
    assert task.test_script == "run-tests.sh" and task.solution_script.name == "solution.sh"


@pytest.mark.parametrize("missing", ["instruction.md", "environment/Dockerfile", "tests/test.sh"])
def test_missing_file_names_task_and_file(tmp_path, missing):
    with pytest.raises(TaskError) as err:
        load_task(harbor(tmp_path, skip=missing))
    assert str(err.value) == f"task t1: missing {tmp_path / 't1' / missing}"


@pytest.mark.parametrize("toml,fragment", [
    ("[metadata\n", "malformed TOML"),
    (TOML.replace("timeout_sec = 120", 'timeout_sec = "soon"'), "timeout_sec must be a positive number"),
    (TOML.replace("cpus = 2", "cpus = -1"), "cpus must be a positive number"),
    (TOML.replace('tags = ["reflog"]', "tags = 3"), "tags must be a list of strings"),
    (TOML.replace("allow_internet = false", 'allow_internet = "no"'), "allow_internet must be true or false"),
    (TOML.replace("memory_mb = 512", 'memory = "lots"'), "is not a size"),
])
def test_malformed_task_toml(tmp_path, toml, fragment):
    with pytest.raises(TaskError) as err:
        load_task(harbor(tmp_path, toml=toml))
    assert str(err.value).startswith(f"task t1: {tmp_path / 't1' / 'task.toml'}") and fragment in str(err.value)


def test_malformed_task_yaml(tmp_path):
    with pytest.raises(TaskError, match="malformed YAML"):
        load_task(legacy(tmp_path, yaml_text="instruction: [unclosed\n"))
    with pytest.raises(TaskError, match="'instruction' is missing"):
        load_task(legacy(tmp_path, name="old2", yaml_text="difficulty: easy\n"))


def test_unknown_layout(tmp_path):
    (tmp_path / "x").mkdir()
    with pytest.raises(TaskError, match="neither task.toml"):
        load_task(tmp_path / "x")


def test_suite_lists_every_broken_task(tmp_path):
    harbor(tmp_path, "good")
    harbor(tmp_path, "bad-a", skip="tests/test.sh")
    harbor(tmp_path, "bad-b", toml="[x\n")
    with pytest.raises(TaskError) as err:
        load_suite(tmp_path)
    lines = str(err.value).splitlines()
    assert len(lines) == 2 and lines[0].startswith("task bad-a") and lines[1].startswith("task bad-b")


def test_suite_errors(tmp_path):
    with pytest.raises(TaskError, match="no such directory"):
        load_suite(tmp_path / "nope")
    with pytest.raises(TaskError, match="no task directories"):
        load_suite(tmp_path)


def test_shipped_suites_load():
    tasks = load_suite(REPO / "benchmarks" / "terminal-core")
    assert all(t.layout == "harbor" and t.solution_script for t in tasks)
    old = load_suite(REPO / "tests" / "fixtures" / "legacy-suite")
    assert old and all(t.layout == "terminal-bench" for t in old)


# -- splits and batches ------------------------------------------------------------------------


def fake_tasks(counts: dict[str, int]) -> list[Task]:
    return [Task(id=f"{c}-{i}", path=Path("."), layout="harbor", instruction="x", category=c)
            for c, n in counts.items() for i in range(n)]


def test_split_is_stratified_seeded_and_disjoint():
    tasks = fake_tasks({"git": 10, "text": 5, "data": 5})
    train, holdout = split_suite(tasks, 0.2, seed=1)
    assert len(holdout) == 4 and len(train) == 16
    assert not {t.id for t in train} & {t.id for t in holdout}
    assert Counter(t.category for t in holdout) == {"git": 2, "text": 1, "data": 1}
    assert split_suite(tasks, 0.2, seed=1) == (train, holdout)
    assert split_suite(tasks, 0.2, seed=2)[1] != holdout


def test_split_edges():
    tasks = fake_tasks({"a": 1, "b": 1, "c": 1})
    train, holdout = split_suite(tasks, 0.2, seed=0)
    assert len(holdout) == 1 and len(train) == 2  # at least one held out, at least one to train on
    assert split_suite(tasks, 0.0, seed=0) == (sorted(tasks, key=lambda t: t.id), [])
    with pytest.raises(ValueError):
        split_suite(tasks, 1.0, seed=0)


def test_batches_rotate_without_replacement():
    pool = fake_tasks({"a": 7})
    first_epoch = [t.id for cycle in range(7) for t in batch_for_cycle(pool, 1, 3, cycle)]
    assert sorted(first_epoch) == sorted(t.id for t in pool)
    batches = [batch_for_cycle(pool, 3, 3, cycle) for cycle in range(10)]
    for batch in batches:
        assert len(batch) == 3 and len({t.id for t in batch}) == 3
    counts = Counter(t.id for batch in batches for t in batch)
    assert max(counts.values()) - min(counts.values()) <= 1  # 30 slots over 7 tasks: even use
    assert batch_for_cycle(pool, 3, 3, 4) == batches[4]  # a pure function of the cycle: resumable
    assert len(batch_for_cycle(pool, 50, 3, 0)) == 7
    assert batch_for_cycle([], 3, 3, 0) == []

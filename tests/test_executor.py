"""Executor pieces without a cluster: bundles, task rebasing, the node's ledger and what the driver
does with an outcome, the job and config checks; the local executor against real Docker."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest
from taskfactory import make_task

from adaptive_skill.config import EvolveConfig, ExecutorConfig, load_config
from adaptive_skill.errors import ConfigError, UserError
from adaptive_skill.executors import AttemptJob, LocalExecutor, make_executor
from adaptive_skill.executors.bundles import Bundle, pack, unpack
from adaptive_skill.executors.landing import land
from adaptive_skill.executors.node import CollectingAccounting, NodeOutcome, rebase_task
from adaptive_skill.harness.results import AttemptResult
from adaptive_skill.llm import Accounting, BudgetExceeded, Usage
from adaptive_skill.sandbox.images import task_image_tag
from adaptive_skill.tasks import load_task


def tree(root: Path) -> Path:
    (root / "sub").mkdir(parents=True)
    (root / "a.txt").write_text("a\n")
    (root / "sub" / "run.sh").write_text("#!/bin/sh\n")
    (root / "sub" / "run.sh").chmod(0o755)
    (root / "link").symlink_to("sub/run.sh")
    (root / ".git").mkdir()
    (root / ".git" / "HEAD").write_text("ref: x\n")
    return root


def test_bundle_is_named_by_content_and_unpacks_once(tmp_path):
    source = tree(tmp_path / "src")
    first = pack(source)
    os.utime(source / "a.txt", (1, 1))  # times do not matter, content does
    assert pack(source).digest == first.digest
    (source / "a.txt").write_text("b\n")
    assert pack(source).digest != first.digest

    cache = tmp_path / "cache"
    target = unpack(first, cache)
    assert target == cache / first.digest and (target / "a.txt").read_text() == "a\n"
    assert os.access(target / "sub" / "run.sh", os.X_OK) and os.readlink(target / "link") == "sub/run.sh"
    assert not (target / ".git").exists()  # history never travels
    (target / "marker").write_text("kept")
    assert unpack(first, cache) == target and (target / "marker").exists()  # reused, not unpacked again
    assert [p.name for p in cache.iterdir()] == [first.digest]  # no staging directory left behind


def crafted(*entries) -> Bundle:
    """A tar by hand: (name, kind, link target) with kind 'file', 'dir' or 'sym'."""
    import io
    import tarfile

    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for name, kind, target in entries:
            info = tarfile.TarInfo(name)
            if kind == "sym":
                info.type, info.linkname = tarfile.SYMTYPE, target
            elif kind == "dir":
                info.type = tarfile.DIRTYPE
            tar.addfile(info, io.BytesIO(b"") if kind == "file" else None)
    return Bundle(hashlib.sha256(buffer.getvalue()).hexdigest(), buffer.getvalue())


@pytest.mark.parametrize("entries", [
    [("../escape", "file", "")],
    [("/etc/escape", "file", "")],
    [("link", "sym", "/etc"), ("link/passwd", "file", "")],  # writing through a link
])
def test_a_bundle_cannot_write_outside_its_directory(tmp_path, entries):
    with pytest.raises(ValueError):
        unpack(crafted(*entries), tmp_path / "cache")
    assert not (tmp_path / "escape").exists() and not list((tmp_path / "cache").iterdir())


def test_an_absolute_symlink_travels_as_a_link(tmp_path):
    target = unpack(crafted(("python", "sym", "/usr/bin/python3")), tmp_path / "cache")
    assert os.readlink(target / "python") == "/usr/bin/python3"


def test_task_image_tag_is_the_same_on_a_node(tmp_path):
    task = load_task(make_task(tmp_path / "suite", "answer"))
    (task.environment_dir / "shared.txt").write_text("group-writable\n")
    (task.environment_dir / "shared.txt").chmod(0o664)  # permission bits are part of the tag
    on_node = rebase_task(task, unpack(pack(task.path), tmp_path / "node"))
    assert on_node.path != task.path and on_node.dockerfile.is_file() and on_node.solution_script.is_file()
    assert task_image_tag(on_node) == task_image_tag(task)  # so each node's image cache hits


def test_a_task_file_outside_its_directory_is_refused(tmp_path):
    task = load_task(make_task(tmp_path / "suite", "answer"))
    import dataclasses

    moved = dataclasses.replace(task, tests_dir=tmp_path / "elsewhere")
    with pytest.raises(UserError, match="outside its directory"):
        rebase_task(moved, tmp_path / "node")


def result(task_id="t", **kwargs):
    return AttemptResult(task_id=task_id, agent="llm", passed=True, reward=1.0, failure_mode=None, **kwargs)


def test_node_calls_are_charged_to_the_driver(tmp_path):
    driver = Accounting()
    driver.record(role="judge", model="m", task_id=None, usage=Usage(5, 5), cost=0.5)
    node = CollectingAccounting(driver.limits, driver.snapshot())
    node.record(role="agent", model="m", task_id="t", usage=Usage(100, 10), cost=0.01, duration_sec=1.0)
    node.record_failure(role="agent", model="m", task_id="t")
    assert node.totals().cost == pytest.approx(0.51)  # the node's budgets see what the driver had spent

    job = AttemptJob(agent="llm", config=EvolveConfig(), results_dir=tmp_path / "results",
                     trajectories_dir=tmp_path / "trajectories", workspace=tmp_path, drafts_dir=tmp_path / "drafts")
    outcome = NodeOutcome(result(trajectory_path="/scratch/t.json"), trajectory=b'{"messages": []}',
                          draft=b"---\nname: x\n---\n", calls=node.calls, failed_calls=node.failed_calls)
    landed = land(outcome, job, driver)
    assert landed.trajectory_path == str(tmp_path / "trajectories" / "t.json")
    assert Path(landed.trajectory_path).read_bytes() == b'{"messages": []}'
    assert (tmp_path / "drafts" / "t" / "SKILL.md").read_bytes() == b"---\nname: x\n---\n"
    agent = driver.totals(role="agent")
    assert (agent.calls, agent.failed_calls, agent.total_tokens) == (1, 1, 110)
    assert driver.totals().cost == pytest.approx(0.51) and driver.totals(task_id="t").calls == 1


def test_a_budget_stop_on_a_node_is_charged_then_raised(tmp_path):
    driver = Accounting()
    node = CollectingAccounting(driver.limits)
    node.record(role="agent", model="m", task_id="t", usage=Usage(1, 1), cost=2.0)
    job = AttemptJob(agent="oracle", config=EvolveConfig(), results_dir=None)
    with pytest.raises(BudgetExceeded, match="run cost budget"):
        land(NodeOutcome(None, calls=node.calls, budget_exceeded="run cost budget spent"), job, driver)
    assert driver.totals().cost == 2.0


def test_no_trajectory_means_no_path(tmp_path):
    job = AttemptJob(agent="oracle", config=EvolveConfig(), results_dir=None)
    assert land(NodeOutcome(result(trajectory_path="/scratch/t.json")), job).trajectory_path is None


def test_job_checks():
    with pytest.raises(ValueError, match="unknown agent"):
        AttemptJob(agent="wizard", config=EvolveConfig(), results_dir=None)
    with pytest.raises(ValueError, match="workspace"):
        AttemptJob(agent="llm", config=EvolveConfig(), results_dir=None)


def test_every_name_a_job_accepts_is_one_the_builder_builds(tmp_path):
    """The job checks names against harness/names.py without importing the agents; the names and
    the builder's agents must be the same set, or a job would travel and fail where it lands."""
    from adaptive_skill.harness.agents import SUITE_AGENTS, build_agent
    from adaptive_skill.harness.names import AGENT_NAMES

    assert set(AGENT_NAMES) == {"llm", *SUITE_AGENTS}
    for name in SUITE_AGENTS:
        assert build_agent(name, EvolveConfig()).name == name


def test_executor_config(tmp_path):
    path = tmp_path / "cycle.yaml"
    path.write_text("executor:\n  kind: ray\n  address: ray://head:10001\n  max_in_flight: 8\n"
                    "  forward_env: [ANTHROPIC_API_KEY]\n")
    config = load_config(path)
    assert (config.executor.kind, config.executor.address, config.executor.max_in_flight) == \
        ("ray", "ray://head:10001", 8)
    assert make_executor(config).kind == "ray"
    assert load_config(None).executor.kind == "local"
    path.write_text("executor:\n  kind: ray\n  address: somewhere else\n")
    with pytest.raises(ConfigError, match=r"cycle.yaml:3: executor.address: expected auto, local"):
        load_config(path)


def test_unreachable_cluster_is_one_line():
    from adaptive_skill.executors.ray_cluster import _probe

    with pytest.raises(UserError, match="127.0.0.1:1: nothing answers there"):
        _probe("ray://127.0.0.1:1")  # checked before ray.init, which would retry for minutes



def test_a_forwarded_name_this_machine_does_not_set_is_refused_before_any_attempt(tmp_path, monkeypatch):
    """forward_env names a variable the attempts get from the driver; one the driver lacks would reach
    no attempt (the key silently missing on every node): the batch stops before connecting."""
    from adaptive_skill.executors.base import AttemptJob
    from adaptive_skill.executors.ray_cluster import RayExecutor

    monkeypatch.delenv("ADAPTIVE_SKILL_TEST_NO_SUCH_KEY", raising=False)
    monkeypatch.setenv("ADAPTIVE_SKILL_TEST_KEY", "x")
    settings = ExecutorConfig(kind="ray", address="ray://127.0.0.1:1",
                              forward_env=["ADAPTIVE_SKILL_TEST_KEY", "ADAPTIVE_SKILL_TEST_NO_SUCH_KEY"])
    task = make_task(tmp_path / "suite", "t1")
    job = AttemptJob(agent="nop", config=EvolveConfig(executor=settings), results_dir=tmp_path / "results")
    with pytest.raises(UserError, match=r"^executor.forward_env: ADAPTIVE_SKILL_TEST_NO_SUCH_KEY not set in this "
                                        r"machine's environment"):
        RayExecutor(settings).run([load_task(task)], job)
    assert not (tmp_path / "results").exists() or not any((tmp_path / "results").iterdir())


@pytest.mark.parametrize("api_base, nodes, refused", [
    ("http://127.0.0.1:8080/v1", ["10.0.0.1", "10.0.0.2"], True),   # another node finds its own loopback
    ("http://localhost:8080/v1", ["10.0.0.1", "10.0.0.2"], True),
    ("http://[::1]:8080/v1", ["10.0.0.1", "10.0.0.2"], True),
    ("http://127.3.2.1:8080", ["10.0.0.1", "10.0.0.2"], True),
    ("http://127.0.0.1:8080/v1", ["10.0.0.1"], False),              # a cluster of this machine alone
    ("http://127.0.0.1:8080/v1", ["10.0.0.1", "10.0.0.1"], False),  # two nodes, one machine
    ("http://10.0.0.1:8080/v1", ["10.0.0.1", "10.0.0.2"], False),   # an address the nodes reach
    ("http://models.internal:8080/v1", ["10.0.0.1", "10.0.0.2"], False),
    (None, ["10.0.0.1", "10.0.0.2"], False),                        # a hosted provider
    ("http://[not an address", ["10.0.0.1", "10.0.0.2"], False),    # unreadable: the client says so
])
def test_an_agent_served_on_the_loopback_is_refused_on_a_cluster_of_other_machines(api_base, nodes, refused):
    from adaptive_skill.executors.ray_cluster import check_reachable

    if refused:
        with pytest.raises(UserError, match=r"^models.agent.api_base .*: this machine's loopback, which Ray nodes "
                                            r"10.0.0.2 cannot reach"):
            check_reachable(api_base, nodes, "10.0.0.1")
    else:
        check_reachable(api_base, nodes, "10.0.0.1")
    if api_base and "127.0.0.1" in api_base:  # where this machine's address is unknown, every node is another
        with pytest.raises(UserError):
            check_reachable(api_base, nodes, None)


@pytest.mark.docker
def test_local_executor_runs_the_harness_batch(tmp_path, docker_client, base_image, test_session_labels):
    from adaptive_skill.config import SandboxConfig
    from adaptive_skill.harness.providers import DockerProvider
    from adaptive_skill.tasks import load_suite

    for name in ("a-task", "b-task"):
        make_task(tmp_path / "suite", name)
    tasks = load_suite(tmp_path / "suite")
    provider = DockerProvider(SandboxConfig(), client=docker_client)
    executor = LocalExecutor(provider, workers=2, llm=lambda: pytest.fail("an oracle batch needs no model"))
    job = AttemptJob(agent="oracle", config=EvolveConfig(), results_dir=tmp_path / "out", labels=test_session_labels)
    seen = []
    assert [r.passed for r in executor.run(tasks, job, on_result=lambda r, c: seen.append(c))] == [True, True]
    assert [r.passed for r in executor.run(tasks, job, on_result=lambda r, c: seen.append(c))] == [True, True]
    assert seen == [False, False, True, True]  # the second run loaded both from disk

"""One attempt on a cluster node: what a Ray worker runs, in plain Python (no Ray import here).

The node unpacks the task and the workspace from their bundles, builds the task's image with its own
Docker engine (cached by content hash, one build per task at a time on the node), builds the agent
and its model client from the config it was sent, runs the attempt in a scratch directory, and
sends back the result, the trajectory's bytes, a skill draft and every model call it paid for.
"""

from __future__ import annotations

import dataclasses
import fcntl
import socket
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from adaptive_skill.config import LimitsConfig
from adaptive_skill.errors import UserError
from adaptive_skill.executors.base import AttemptJob, infrastructure_failure
from adaptive_skill.executors.bundles import Bundle, unpack
from adaptive_skill.harness.agents import build_agent
from adaptive_skill.harness.attempt import run_attempt
from adaptive_skill.harness.providers import SandboxProvider, make_provider
from adaptive_skill.harness.results import AttemptResult
from adaptive_skill.llm.accounting import Accounting, CallRecord
from adaptive_skill.llm.base import BudgetExceeded
from adaptive_skill.protocols import Sandbox
from adaptive_skill.tasks.model import Service, Task

EXECUTOR_LABEL = "adaptive-skill.executor"  # on containers started by cluster nodes: their orphans get pruned


@dataclass
class NodeOutcome:
    result: AttemptResult | None  # None when the budget ran out: no result, the attempt is redone on resume
    trajectory: bytes | None = None  # the trajectory file as the agent wrote it
    draft: bytes | None = None  # solver_proposed: the SKILL.md the agent left
    state: dict[str, bytes] | None = None  # job.state_dir: the attempt's kept state, file name -> bytes
    calls: list[CallRecord] = field(default_factory=list)
    failed_calls: list[tuple[str, str, str | None]] = field(default_factory=list)  # (role, model, task)
    node: str = ""
    budget_exceeded: str | None = None  # why the run's or task's budget stopped the attempt


class CollectingAccounting(Accounting):
    """The node's ledger for one attempt. It starts from what the driver had spent when the attempt
    was sent, so run and task budgets hold here too, and keeps every call for the driver to add."""

    def __init__(self, limits: LimitsConfig, spent: dict | None = None):
        super().__init__(limits, on_call=self._keep)
        if spent:
            self.restore(spent)
        self.calls: list[CallRecord] = []
        self.failed_calls: list[tuple[str, str, str | None]] = []

    def _keep(self, call: CallRecord) -> None:
        self.calls.append(call)

    def record_failure(self, *, role: str, model: str, task_id: str | None) -> None:
        super().record_failure(role=role, model=model, task_id=task_id)
        self.failed_calls.append((role, model, task_id))


def attempt_on_node(task: Task, task_bundle: Bundle, workspace_bundle: Bundle | None, job: AttemptJob,
                    spent: dict | None = None) -> NodeOutcome:
    """Run one attempt here. `task` carries the driver's paths; `spent` is the driver's accounting."""
    cache = Path(job.config.executor.node_cache_dir).expanduser()
    local_task = rebase_task(task, unpack(task_bundle, cache / "bundles"))
    workspace = unpack(workspace_bundle, cache / "bundles") if workspace_bundle is not None else None
    accounting = CollectingAccounting(job.config.limits, spent)
    with tempfile.TemporaryDirectory(prefix="adaptive-skill-attempt-") as scratch_dir:
        scratch = Path(scratch_dir)
        agent = build_agent(job.agent, job.config, accounting=accounting, workspace=workspace,
                            trajectories_dir=scratch / "trajectories",
                            drafts_dir=scratch / "drafts" if job.drafts_dir is not None else None,
                            notes=job.notes)
        labels = {**job.labels, "adaptive-skill.agent": agent.name, EXECUTOR_LABEL: "ray"}
        state_dir = scratch / "state" / task.id if job.state_dir is not None else None
        try:
            result = _run(local_task, agent, job, labels, cache / "locks", state_dir)
        except BudgetExceeded as exc:  # the calls made so far must still reach the driver's ledger
            return NodeOutcome(None, calls=accounting.calls, failed_calls=accounting.failed_calls,
                               node=socket.gethostname(), budget_exceeded=str(exc))
        result.trajectory_path = None  # a scratch path on this node; the driver sets its own
        return NodeOutcome(result, trajectory=_read(scratch / "trajectories" / f"{task.id}.json"),
                           draft=_read(scratch / "drafts" / task.id / "SKILL.md"), state=_state(state_dir),
                           calls=accounting.calls, failed_calls=accounting.failed_calls, node=socket.gethostname())


def rebase_task(task: Task, root: Path) -> Task:
    """The same task with every path moved from task.path to `root`. Raises UserError for a file
    outside the task directory: a node only ever gets the task directory."""

    def move(path: Path) -> Path:
        try:
            return root / path.relative_to(task.path)
        except ValueError:
            raise UserError(f"task {task.id}: {path} lies outside its directory {task.path}; "
                            "cluster nodes receive only the task directory") from None

    def moved(service: Service) -> Service:
        if service.environment_dir is None:  # a prebuilt image: nothing to move
            return service
        return dataclasses.replace(service, environment_dir=move(service.environment_dir),
                                   dockerfile=move(service.dockerfile))

    return dataclasses.replace(
        task, path=root, environment_dir=move(task.environment_dir), dockerfile=move(task.dockerfile),
        tests_dir=move(task.tests_dir), files_in=tuple((move(source), target) for source, target in task.files_in),
        solution_script=move(task.solution_script) if task.solution_script is not None else None,
        services=tuple(moved(service) for service in task.services))


def _run(task: Task, agent, job: AttemptJob, labels: dict[str, str], locks: Path,
         state_dir: Path | None = None) -> AttemptResult:
    try:
        provider = _NodeProvider(make_provider(job.config.sandbox), locks)
    except UserError as exc:  # this node's Docker engine does not answer
        return infrastructure_failure(task, agent.name, f"node {socket.gethostname()}: {exc}")
    try:
        provider.prune_orphans()
        return run_attempt(task, agent, provider, labels, state_dir=state_dir)
    finally:
        provider.close_all()


class _NodeProvider:
    """The node's own sandbox provider. Worker processes on one node share its Docker engine, so
    builds of one task are serialised by a file lock (the second finds the image cached)."""

    def __init__(self, inner: SandboxProvider, locks: Path):
        self.inner, self.locks = inner, locks
        self.kind = inner.kind

    def prepare(self, task: Task) -> None:
        with _file_lock(self.locks / f"build-{task.id}.lock"):
            self.inner.prepare(task)

    def open(self, task: Task, labels: dict[str, str] | None = None, *, offline: bool = False) -> Sandbox:
        return self.inner.open(task, labels, offline=offline)

    def prune_orphans(self) -> None:
        """Remove containers of attempts whose worker process died on this node (a killed worker
        cannot close its sandbox; Ray runs the attempt again elsewhere)."""
        client = getattr(self.inner, "client", None)
        if client is None:
            return
        from adaptive_skill.sandbox.prune import prune_sandboxes

        try:
            prune_sandboxes(client, label=f"{EXECUTOR_LABEL}=ray")
        except Exception:  # housekeeping: a hiccup here must not cost the attempt; the next one retries
            pass

    def close_all(self) -> None:
        self.inner.close_all()
        client = getattr(self.inner, "client", None)
        if client is not None:
            client.close()


@contextmanager
def _file_lock(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _state(state_dir: Path | None) -> dict[str, bytes] | None:
    """The files of an attempt's kept state (the manifest and its tars, sandbox/state.py), to send
    back as the trajectory is; None when none was kept."""
    if state_dir is None or not state_dir.is_dir():
        return None
    return {path.name: path.read_bytes() for path in sorted(state_dir.iterdir())
            if path.is_file() and not path.is_symlink()}


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None

"""The `ray` executor: each attempt a Ray task on a node with a Docker engine.

The driver keeps at most `max_in_flight` attempts submitted, each asking the scheduler for the
task's cpus and memory (task.toml) plus a share of the node resource that marks Docker nodes. As
each attempt finishes its trajectory, draft and result are written to the driver's run directory
and its model calls charged to the driver's Accounting. Ray re-runs an attempt whose worker
process or node died (`max_retries`); only the driver writes results, so each lands exactly once,
and a restarted driver submits only the attempts without a result file.
"""

from __future__ import annotations

import os
import socket
from collections import deque
from collections.abc import Callable, Sequence
from contextlib import suppress

from adaptive_skill.config import ExecutorConfig
from adaptive_skill.errors import UserError
from adaptive_skill.executors.base import AttemptJob, infrastructure_failure
from adaptive_skill.executors.bundles import pack
from adaptive_skill.executors.landing import land
from adaptive_skill.executors.node import attempt_on_node, rebase_task
from adaptive_skill.files import write_json_atomic
from adaptive_skill.harness.batch import split_finished
from adaptive_skill.harness.results import AttemptResult
from adaptive_skill.protocols import ResultCallback, StartCallback
from adaptive_skill.sandbox.engine import one_line
from adaptive_skill.tasks.model import Task

NODE_RESOURCE_SHARE = 0.001  # of the Docker marker per attempt: it selects nodes, cpus and memory limit them
LOCAL_OBJECT_STORE = 256 << 20  # bundles and outcomes are small; Ray's default takes 30% of memory
MB = 1 << 20


class RayExecutor:
    kind = "ray"

    def __init__(self, settings: ExecutorConfig, accounting=None, local_cpus: int = 2):
        """`local_cpus`: the size of the Ray instance started here for address `local`."""
        self.settings, self.accounting, self.local_cpus = settings, accounting, local_cpus

    def run(self, tasks: Sequence[Task], job: AttemptJob, *, on_start: StartCallback | None = None,
            on_result: ResultCallback | None = None,
            should_stop: Callable[[], bool] | None = None) -> list[AttemptResult]:
        results, pending = split_finished(tasks, job.results_dir, job.agent, on_result)
        if pending:
            check_forwarded(self.settings)
            ray = connect(self.settings, self.local_cpus)
            self._check_feasible(ray, pending)
            if job.agent == "llm":
                check_reachable(job.config.models.agent.api_base, _node_addresses(ray), _this_address(ray))
            self._run(ray, pending, job, results, on_start, on_result, should_stop)
        return [results[task.id] for task in tasks if task.id in results]

    def _run(self, ray, pending: list[Task], job: AttemptJob, results: dict[str, AttemptResult],
             on_start, on_result, should_stop) -> None:
        remote = ray.remote(attempt_on_node)
        workspace = ray.put(pack(job.workspace)) if job.agent == "llm" else None
        limit = self.settings.max_in_flight or max(1, int(ray.cluster_resources().get("CPU", 1)))
        queue, in_flight = deque(pending), {}
        try:
            while queue or in_flight:
                while queue and len(in_flight) < limit and not (should_stop and should_stop()):
                    task = queue.popleft()
                    if on_start:
                        on_start(task)
                    in_flight[self._submit(ray, remote, task, workspace, job)] = task
                if should_stop and should_stop():
                    queue.clear()  # running attempts finish; the rest wait for a resume
                if not in_flight:
                    break
                done, _ = ray.wait(list(in_flight), num_returns=1, timeout=1.0)  # wakes for Ctrl-C
                for ref in done:
                    task = in_flight.pop(ref)
                    result = self._collect(ray, ref, task, job)
                    if job.results_dir is not None:
                        write_json_atomic(job.results_dir / f"{task.id}.json", result.to_dict())
                    results[task.id] = result
                    if on_result:
                        on_result(result, False)
        except BaseException:
            # Ctrl-C or a crash: a cancelled attempt gets KeyboardInterrupt on its node and closes its
            # sandbox; finished results are already on disk.
            for ref in in_flight:
                with suppress(Exception):  # one that finished meanwhile must not hide the original error
                    ray.cancel(ref)
            raise

    def _submit(self, ray, remote, task: Task, workspace, job: AttemptJob):
        rebase_task(task, task.path)  # a file outside the task directory fails here, not on a node
        spent = self.accounting.snapshot() if self.accounting is not None else None
        return remote.options(**self._options(task)).remote(task, ray.put(pack(task.path)), workspace, job, spent)

    def _collect(self, ray, ref, task: Task, job: AttemptJob) -> AttemptResult:
        from ray.exceptions import RayError, RayTaskError

        try:
            outcome = ray.get(ref)
        except RayTaskError as exc:  # our own code failed on the node (a bad config, a bug): the batch stops
            if isinstance(exc.cause, Exception):
                raise exc.cause from exc  # as itself, so a UserError still ends in one clear line
            raise
        except RayError as exc:  # the worker or node died more often than max_retries allows
            return infrastructure_failure(task, job.agent, f"ray: the attempt was lost: {one_line(exc, 1000)}")
        return land(outcome, job, self.accounting, task.id)

    def _options(self, task: Task) -> dict:
        options = {"name": f"attempt:{task.id}", "num_cpus": task.cpus, "memory": task.memory_mb * MB,
                   "max_retries": self.settings.max_retries, "retry_exceptions": False}
        if self.settings.node_resource:
            options["resources"] = {self.settings.node_resource: NODE_RESOURCE_SHARE}
        if env := forwarded_env(self.settings):
            options["runtime_env"] = {"env_vars": env}
        return options

    def _check_feasible(self, ray, tasks: list[Task]) -> None:
        """A request no node can meet would wait forever: say which task and what the nodes have."""
        nodes = [node["Resources"] for node in ray.nodes() if node.get("Alive")]
        marker = self.settings.node_resource
        for task in tasks:
            if not any(r.get("CPU", 0) >= task.cpus and r.get("memory", 0) >= task.memory_mb * MB
                       and (not marker or r.get(marker, 0) >= NODE_RESOURCE_SHARE) for r in nodes):
                have = "; ".join(f"{r.get('CPU', 0):g} CPUs, {r.get('memory', 0) / MB:.0f} MB, "
                                 f"{marker}={r.get(marker, 0) if marker else '-'}" for r in nodes) or "no live node"
                raise UserError(f"task {task.id}: no Ray node offers {task.cpus:g} CPUs, {task.memory_mb} MB"
                                f"{f' and the {marker} resource' if marker else ''} (nodes: {have}); "
                                "see docs/ray.md")


def check_forwarded(settings: ExecutorConfig) -> None:
    """A name in forward_env that this machine does not set would reach no attempt: refused before any."""
    missing = [name for name in settings.forward_env if name not in os.environ]
    if missing:
        raise UserError(f"executor.forward_env: {', '.join(missing)} not set in this machine's environment, "
                        "so no attempt would get it; set it here or drop it from the list")


LOOPBACK = ("localhost", "ip6-localhost")


def check_reachable(api_base: str | None, nodes: list[str], here: str | None) -> None:
    """An agent model served on this machine's loopback (api_base http://127.0.0.1:...) cannot be
    reached from another node, which would find its own loopback: refused when the cluster holds a node
    that is not this machine (a cluster of this machine alone, or address `local`, is fine)."""
    if not api_base:
        return
    from ipaddress import ip_address
    from urllib.parse import urlsplit

    try:
        host = urlsplit(api_base if "//" in api_base else f"//{api_base}").hostname or ""
    except ValueError:
        return  # not a URL this check can read; the model client says what is wrong with it
    try:
        loopback = ip_address(host).is_loopback
    except ValueError:
        loopback = host.lower() in LOOPBACK
    others = sorted({node for node in nodes if node != here})
    if loopback and others:
        raise UserError(f"models.agent.api_base {api_base}: this machine's loopback, which Ray nodes "
                        f"{', '.join(others[:3])}{' ...' if len(others) > 3 else ''} cannot reach (each finds "
                        "its own); serve the model on an address the nodes reach (docs/ray.md)")


def _node_addresses(ray) -> list[str]:
    return [node.get("NodeManagerAddress", "") for node in ray.nodes() if node.get("Alive")]


def _this_address(ray) -> str | None:
    try:
        return ray.util.get_node_ip_address()
    except Exception:  # noqa: BLE001 - where it cannot say, every node counts as another machine
        return None


def forwarded_env(settings: ExecutorConfig) -> dict[str, str]:
    return {name: os.environ[name] for name in settings.forward_env if name in os.environ}


def connect(settings: ExecutorConfig, local_cpus: int):
    """The `ray` module, connected: an existing connection is reused (one per process)."""
    try:
        import ray
    except ImportError:
        raise UserError("executor.kind ray needs Ray: pip install 'adaptive-skill[ray]'") from None
    if ray.is_initialized():
        return ray
    common = {"log_to_driver": False, "namespace": "adaptive-skill"}  # worker logs stay in the node's ray logs
    if settings.address == "local":
        resources = {settings.node_resource: float(local_cpus)} if settings.node_resource else None
        # address "local" always starts a new instance, even beside a cluster this machine belongs to.
        ray.init(address="local", num_cpus=local_cpus, resources=resources, include_dashboard=False,
                 object_store_memory=LOCAL_OBJECT_STORE, **common)
        return ray
    _probe(settings.address)
    try:
        ray.init(address=settings.address, **common)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        raise UserError(f"executor.address {settings.address}: no Ray cluster answers ({one_line(exc)}); "
                        "start one with `ray start --head` (docs/ray.md)") from None
    return ray


def _probe(address: str) -> None:
    """Fail in one line when nothing listens at host:port: Ray itself retries for minutes."""
    if address == "auto":
        return
    host, _, port = address.removeprefix("ray://").rpartition(":")
    try:
        socket.create_connection((host, int(port)), timeout=10).close()
    except (OSError, ValueError) as exc:
        raise UserError(f"executor.address {address}: nothing answers there ({one_line(exc)}); "
                        "start the head node with `ray start --head` (docs/ray.md)") from None

"""The same batch on the `local` and the `ray` executor on one machine: Ray's overhead per attempt.

    .venv/bin/python benchmarks/perf/bench_executors.py [--tasks 8] [--rounds 3] [--workers 2] [--json out.json]

Makes --tasks tiny Docker tasks (debian:bookworm-slim, the oracle writes one file), builds their
images once, then runs the whole batch with the oracle agent --rounds times on each executor, both
`workers` wide: the local thread pool, and a private Ray instance started here with `workers` CPUs
(what `executor.address: local` does). Each round writes fresh result files, so nothing is skipped.
Prints the start of Ray, the first Ray batch (worker processes start, bundles unpack), the median
batch of each executor, and the difference per attempt. The load average is printed before and
after: other work on the machine moves these figures. It is not a timed test.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

TEST_SH = ('#!/bin/bash\nif [ "$(cat /app/answer.txt 2>/dev/null)" = "42" ]; then echo 1 > /logs/verifier/reward.txt;'
           ' else echo 0 > /logs/verifier/reward.txt; fi\n')


def make_tasks(root: Path, count: int) -> None:
    for index in range(count):
        task = root / f"bench-{index}"
        files = {"instruction.md": "Write 42 to /app/answer.txt.",
                 "task.toml": "[agent]\ntimeout_sec = 60\n[verifier]\ntimeout_sec = 30\n"
                              "[environment]\nmemory_mb = 256\n",
                 "environment/Dockerfile": "FROM debian:bookworm-slim\nWORKDIR /app\n",
                 "tests/test.sh": TEST_SH, "solution/solve.sh": "echo 42 > /app/answer.txt\n"}
        for rel, text in files.items():
            (task / rel).parent.mkdir(parents=True, exist_ok=True)
            (task / rel).write_text(text)


def timed_batch(executor, tasks, job) -> float:
    started = time.perf_counter()
    results = executor.run(tasks, job)
    seconds = time.perf_counter() - started
    failed = [r.task_id for r in results if not r.passed]
    if failed or len(results) != len(tasks):
        raise SystemExit(f"batch failed: {failed or 'results missing'}")
    return seconds


def main() -> None:
    from adaptive_skill.config import EvolveConfig, ExecutorConfig
    from adaptive_skill.executors import AttemptJob, LocalExecutor
    from adaptive_skill.executors.ray_cluster import RayExecutor, connect
    from adaptive_skill.harness.providers import DockerProvider
    from adaptive_skill.sandbox.debian_base import ensure_base_images
    from adaptive_skill.sandbox.engine import connect as docker_connect
    from adaptive_skill.sandbox.images import build_task_image
    from adaptive_skill.tasks import load_suite

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", metavar="PATH")
    args = parser.parse_args()

    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="bench-executors-") as scratch:
        root = Path(scratch)
        make_tasks(root / "suite", args.tasks)
        tasks = load_suite(root / "suite")
        client = docker_connect()
        ensure_base_images(client)
        for task in tasks:  # images exist before either executor runs: builds are not what is compared
            build_task_image(task, client)

        settings = ExecutorConfig(kind="ray", address="local", node_cache_dir=str(root / "node-cache"))
        config = EvolveConfig(workers=args.workers, executor=settings)
        local = LocalExecutor(DockerProvider(config.sandbox, client=client),
                              args.workers)
        remote = RayExecutor(settings, local_cpus=args.workers)

        def job(name: str) -> AttemptJob:
            return AttemptJob(agent="oracle", config=config, results_dir=root / "runs" / name)

        started = time.perf_counter()
        connect(settings, args.workers)
        ray_start = time.perf_counter() - started
        ray_first = timed_batch(remote, tasks, job("ray-first"))
        local_runs, ray_runs = [], []
        for round_ in range(args.rounds):  # interleaved, so a change in load hits both alike
            local_runs.append(timed_batch(local, tasks, job(f"local-{round_}")))
            ray_runs.append(timed_batch(remote, tasks, job(f"ray-{round_}")))

    local_median, ray_median = statistics.median(local_runs), statistics.median(ray_runs)
    figures = {
        "tasks": args.tasks, "workers": args.workers, "rounds": args.rounds, "cpus": os.cpu_count(),
        "load_before": [round(x, 2) for x in load_before], "load_after": [round(x, 2) for x in os.getloadavg()],
        "ray_start_sec": round(ray_start, 2), "ray_first_batch_sec": round(ray_first, 2),
        "local_batch_sec": [round(x, 2) for x in local_runs], "ray_batch_sec": [round(x, 2) for x in ray_runs],
        "local_median_sec": round(local_median, 2), "ray_median_sec": round(ray_median, 2),
        "local_per_attempt_sec": round(local_median / args.tasks * args.workers, 3),
        "ray_per_attempt_sec": round(ray_median / args.tasks * args.workers, 3),
        "ray_overhead_per_attempt_sec": round((ray_median - local_median) / args.tasks * args.workers, 3),
    }
    print(f"{args.tasks} oracle attempts, {args.workers} at a time, {os.cpu_count()} CPUs; "
          f"load average before {figures['load_before']}, after {figures['load_after']}")
    print(f"ray start (private instance): {ray_start:.2f} s; first ray batch: {ray_first:.2f} s")
    print(f"local batch: median {local_median:.2f} s of {figures['local_batch_sec']}")
    print(f"ray batch:   median {ray_median:.2f} s of {figures['ray_batch_sec']}")
    print(f"per attempt (wall x workers / tasks): local {figures['local_per_attempt_sec']:.3f} s, "
          f"ray {figures['ray_per_attempt_sec']:.3f} s, overhead {figures['ray_overhead_per_attempt_sec']:+.3f} s")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()

"""Sandbox latency: our persistent shell vs a `docker exec` per command, and container start.

    .venv/bin/python benchmarks/perf/bench_sandbox.py [--runs 200] [--image debian:bookworm-slim] [--json out.json]

Per command (median and p95 over --runs): `true`, `echo hi`, and 100 KB of output, through
DockerSandbox.run (one bash behind one exec's attach socket) and through the SDK's exec_run (a
new exec per command, what mini-swe-agent's DockerEnvironment does via the CLI). Then container
start to the first command's result. Prints figures; it is not a timed test.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

COMMANDS = {
    "true": "true",
    "echo hi": "echo hi",
    "100 KB output": "head -c 102400 /dev/zero | tr '\\0' x",
}


def summarize(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {"median_ms": round(statistics.median(ordered) * 1000, 3),
            "p95_ms": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] * 1000, 3),
            "runs": len(ordered)}


def timed(fn, runs: int) -> dict[str, float]:
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - started)
    return summarize(samples)


def main() -> None:
    from adaptive_skill.sandbox.debian_base import ensure_base_images
    from adaptive_skill.sandbox.docker_sandbox import DockerSandbox
    from adaptive_skill.sandbox.engine import connect

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--starts", type=int, default=10, help="container starts to time (default 10)")
    parser.add_argument("--image", default="debian:bookworm-slim")
    parser.add_argument("--json", metavar="PATH")
    args = parser.parse_args()

    client = connect()
    ensure_base_images(client)
    results: dict[str, dict] = {"persistent shell": {}, "docker exec per command": {}}
    with DockerSandbox(args.image, client=client) as sandbox:
        container = client.containers.get(sandbox.name)
        for label, command in COMMANDS.items():
            expected = len(sandbox.run(command).output)
            sandbox.run(command)  # warm up
            results["persistent shell"][label] = timed(lambda c=command: sandbox.run(c), args.runs)
            out = container.exec_run(["bash", "-c", command]).output
            assert len(out) == expected, (label, len(out), expected)
            results["docker exec per command"][label] = timed(
                lambda c=command: container.exec_run(["bash", "-c", c]), args.runs)

    def start_and_first_command(persistent: bool) -> None:
        if persistent:
            with DockerSandbox(args.image, client=client) as sandbox:
                sandbox.run("true")
                started_at.append(time.perf_counter())
        else:
            container = client.containers.run(args.image, ["sleep", "infinity"], init=True, detach=True,
                                               network_mode="none", labels={"adaptive-skill.sandbox": "1"})
            try:
                container.exec_run(["bash", "-c", "true"])
                started_at.append(time.perf_counter())
            finally:
                container.remove(force=True)

    # Start time only: the removal after the first command is not counted.
    for label, persistent in (("start + first command: DockerSandbox", True),
                              ("start + first command: SDK run + exec_run", False)):
        samples = []
        for _ in range(args.starts):
            started_at: list[float] = []
            began = time.perf_counter()
            start_and_first_command(persistent)
            samples.append(started_at[0] - began)
        results[label] = summarize(samples)

    for group, figures in results.items():
        if "median_ms" in figures:
            print(f"{group:<46} median {figures['median_ms']:8.2f} ms   p95 {figures['p95_ms']:8.2f} ms"
                  f"   (n={figures['runs']})")
            continue
        print(group)
        for label, f in figures.items():
            print(f"  {label:<44} median {f['median_ms']:8.3f} ms   p95 {f['p95_ms']:8.3f} ms   (n={f['runs']})")
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(results, handle, indent=2)


if __name__ == "__main__":
    main()

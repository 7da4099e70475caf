"""What the programs probe costs each attempt: the harness asks a started container which of 26
common programs it has before the agent starts (harness/attempt.probe_programs, sandbox/programs.py).

    .venv/bin/python benchmarks/perf/bench_probe.py [--runs 30] [--image debian:bookworm-slim] [--json out.json]

One DockerSandbox on the image (the project's local Debian base by default, built on first use),
the probe run --runs times back to back; prints the median, p90, min and max in milliseconds, with
the load average. Prints figures; it is not a timed test.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from _common import REPO, load_average, machine, write_json

sys.path.insert(0, str(REPO))


def main(argv: list[str] | None = None) -> int:
    import docker

    from adaptive_skill.harness.attempt import probe_programs
    from adaptive_skill.sandbox.debian_base import ensure_base_images
    from adaptive_skill.sandbox.docker_sandbox import DockerSandbox

    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--runs", type=int, default=30)
    p.add_argument("--image", default="debian:bookworm-slim")
    p.add_argument("--json")
    args = p.parse_args(argv)
    client = docker.from_env()
    if args.image == "debian:bookworm-slim":
        ensure_base_images(client)
    box = DockerSandbox(args.image, client=client)
    box.start()
    try:
        times, found = [], None
        for _ in range(args.runs):
            started = time.perf_counter()
            found = probe_programs(box)
            times.append((time.perf_counter() - started) * 1000)
    finally:
        box.close()
    times.sort()
    figures = {"image": args.image, "runs": args.runs, "median_ms": round(statistics.median(times), 1),
               "p90_ms": round(times[int(0.9 * (len(times) - 1))], 1), "min_ms": round(times[0], 1),
               "max_ms": round(times[-1], 1), "installed": list(found.installed) if found else None,
               "load": load_average(), "machine": machine()}
    print(f"programs probe on {args.image}, {args.runs} runs: median {figures['median_ms']} ms, p90 "
          f"{figures['p90_ms']} ms (min {figures['min_ms']}, max {figures['max_ms']}); load {figures['load']}")
    print(f"installed: {', '.join(figures['installed'] or ['(the probe did not run)'])}")
    write_json(args.json, figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())

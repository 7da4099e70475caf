"""Our DockerSandbox vs mini-swe-agent's DockerEnvironment: same run, same image, alternately.

    .venv/bin/python benchmarks/perf/bench_vs_mini.py [--runs 200] [--starts 10] [--json out.json]

1. Per command in a running container (median and p95 over --runs): `true`, `echo hi`, 100 KB of
   output, and the same 100 KB command with its output sent to /dev/null. Ours is one persistent
   bash behind one exec's attach socket; mini-swe-agent runs `docker exec ... bash -lc CMD`
   through the docker CLI for every command.
2. Container start to the first command's result (--starts each). Removal is not counted.

mini-swe-agent is installed from PyPI (pinned, --mini-version) into its own venv under
~/.cache/adaptive-skill/bench/ on first use, never into the project's; --mini-python brings an
interpreter that already has it. It runs in a worker process (_mini_worker.py) that times each
call itself, so the pipe between the processes counts for neither side. The two sides take turns
run by run, and who goes first alternates, so load from other processes hits both alike. Prints
figures; it is not a timed test.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from _common import load_average, write_json
from bench_sandbox import COMMANDS, summarize

MINI_VERSION = "2.4.6"  # the version the design notes measured; pinned so reruns compare alike
WORKER = Path(__file__).with_name("_mini_worker.py")
# The 100 KB command with its output discarded: what the command itself costs (two processes in the
# container), so the 100 KB row can be read as command + transport.
COMMANDS = {**COMMANDS, "100 KB to /dev/null": COMMANDS["100 KB output"] + " > /dev/null"}


def mini_python(version: str) -> Path:
    """The interpreter of a venv holding mini-swe-agent `version`; created on first use."""
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    root = cache / "adaptive-skill" / "bench" / f"mini-swe-agent-{version}"
    python, marker = root / "bin" / "python", root / ".installed"
    if python.exists() and marker.exists():
        return python
    print(f"installing mini-swe-agent {version} from PyPI into {root} (once, about a minute)", file=sys.stderr)
    subprocess.run([sys.executable, "-m", "venv", "--clear", str(root)], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                    f"mini-swe-agent=={version}"], check=True)
    marker.write_text(version + "\n")
    return python


class MiniWorker:
    """mini-swe-agent's DockerEnvironment in its own interpreter, one JSON line each way."""

    def __init__(self, python: Path):
        config_dir = python.parent.parent / "mini-config"  # keeps it away from the user's ~/.config .env
        env = {**os.environ, "MSWEA_SILENT_STARTUP": "1", "MSWEA_GLOBAL_CONFIG_DIR": str(config_dir)}
        self.process = subprocess.Popen([str(python), str(WORKER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, env=env)
        self.version = self._read()["version"]

    def call(self, op: str, **fields) -> dict:
        self.process.stdin.write(json.dumps({"op": op, **fields}) + "\n")
        self.process.stdin.flush()
        return self._read()

    def _read(self) -> dict:
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"the mini-swe-agent worker exited ({self.process.wait()}); see its stderr above")
        reply = json.loads(line)
        if "error" in reply:
            raise RuntimeError(f"mini-swe-agent worker: {reply['error']}")
        return reply

    def close(self) -> None:
        self.process.stdin.close()  # end of input: the worker removes its container and exits
        self.process.wait(timeout=120)


def main() -> None:
    from adaptive_skill.sandbox.debian_base import ensure_base_images
    from adaptive_skill.sandbox.docker_sandbox import DockerSandbox
    from adaptive_skill.sandbox.engine import connect

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--starts", type=int, default=10, help="container starts per variant (default 10)")
    parser.add_argument("--image", default="debian:bookworm-slim")
    parser.add_argument("--mini-version", default=MINI_VERSION)
    parser.add_argument("--mini-python", type=Path, help="an interpreter that has mini-swe-agent installed")
    parser.add_argument("--json", metavar="PATH")
    args = parser.parse_args()

    client = connect()
    ensure_base_images(client)
    mini = MiniWorker(args.mini_python or mini_python(args.mini_version))
    results: dict = {"image": args.image, "mini_swe_agent": mini.version, "load_before": load_average()}
    try:
        results["per_command"] = per_command(DockerSandbox, client, mini, args.image, args.runs)
        results["load_mid"] = load_average()
        results["start_to_first_command"] = starts(DockerSandbox, client, mini, args.image, args.starts)
    finally:
        mini.close()
    results["load_after"] = load_average()
    report(results)
    write_json(args.json, results)


def per_command(DockerSandbox, client, mini: MiniWorker, image: str, runs: int) -> dict:
    samples: dict[str, dict[str, list[float]]] = {label: {"ours": [], "mini": []} for label in COMMANDS}
    with DockerSandbox(image, client=client) as sandbox:
        mini.call("start", image=image)

        def ours(command: str) -> float:
            started = time.perf_counter()
            sandbox.run(command)
            return time.perf_counter() - started

        def theirs(command: str) -> float:
            return mini.call("run", command=command)["seconds"]

        for label, command in COMMANDS.items():  # same output on both sides, and a warm-up
            mine, their = sandbox.run(command), mini.call("run", command=command)
            assert (len(mine.output), mine.exit_code) == (their["chars"], their["returncode"]), (label, their)
        for index in range(runs):
            for label, command in COMMANDS.items():
                order = (("ours", ours), ("mini", theirs))
                for side, run in order if index % 2 == 0 else reversed(order):
                    samples[label][side].append(run(command))
        mini.call("close")
    figures = {}
    for label, sides in samples.items():
        ours_f, mini_f = summarize(sides["ours"]), summarize(sides["mini"])
        figures[label] = {"ours": ours_f, "mini-swe-agent": mini_f,
                          "ratio_median": round(mini_f["median_ms"] / ours_f["median_ms"], 1)}
    return figures


def starts(DockerSandbox, client, mini: MiniWorker, image: str, count: int) -> dict:
    def ours() -> float:
        sandbox = DockerSandbox(image, client=client)
        try:
            started = time.perf_counter()
            sandbox.start()
            sandbox.run("true")
            return time.perf_counter() - started
        finally:
            sandbox.close()

    def theirs(run_args: list[str]) -> float:
        seconds = mini.call("start", image=image, run_args=run_args)["seconds"]
        mini.call("close")
        return seconds

    # Ours runs with --network none, init and resource limits; mini-swe-agent's default is the
    # bridge network (which costs a veth pair per start), so it is measured both ways.
    variants = {"ours (DockerSandbox)": ours,
                "mini-swe-agent (default: bridge network)": lambda: theirs(["--rm"]),
                "mini-swe-agent --network none": lambda: theirs(["--rm", "--network", "none"])}
    samples: dict[str, list[float]] = {name: [] for name in variants}
    names = list(variants)
    for index in range(count):
        for name in names[index % len(names):] + names[:index % len(names)]:  # rotate who goes first
            samples[name].append(variants[name]())
    return {name: summarize(values) for name, values in samples.items()}


def report(results: dict) -> None:
    version = results["mini_swe_agent"]
    print(f"per command in a running container, {results['image']}, alternating "
          f"(load {results['load_before'][0]} -> {results['load_mid'][0]})")
    print(f"  {'command':<20}{'ours median':>12}{'p95':>10}   {'mini ' + version + ' median':>18}{'p95':>10}"
          f"{'ratio':>9}")
    for label, f in results["per_command"].items():
        ours, mini = f["ours"], f["mini-swe-agent"]
        print(f"  {label:<20}{ours['median_ms']:>9.3f} ms{ours['p95_ms']:>7.2f} ms   {mini['median_ms']:>15.1f} ms"
              f"{mini['p95_ms']:>7.1f} ms{f['ratio_median']:>8.0f}x   (n={ours['runs']})")
    print(f"container start to first command (load {results['load_mid'][0]} -> {results['load_after'][0]})")
    for name, f in results["start_to_first_command"].items():
        print(f"  {name:<42} median {f['median_ms']:7.0f} ms   p95 {f['p95_ms']:7.0f} ms   (n={f['runs']})")


if __name__ == "__main__":
    main()

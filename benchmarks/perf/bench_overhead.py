"""Orchestration overhead: the share of an engine cycle's wall time spent neither in model calls
nor in the sandbox.

    .venv/bin/python benchmarks/perf/bench_overhead.py [--llm-delay 1.0 0] [--cycles 1] [--workers 1]
        [--json out.json]

A real AdaptiveSkillEngine cycle in Docker with scripted models in rule mode (agent, judge, evolver;
the shape of tests/test_engine_docker.py) on six tiny tasks: solve 2, judge them, the evolver
writes a skill in its own container, gating runs 2 holdout tasks on both workspaces, commit tags
evo-1. The benchmark wraps, from outside, the scripted model's call and every DockerSandbox method
(start, run, exec, copy_in, copy_out, close) and the provider's image check, recording each call's
interval. Busy time is the union of those intervals (calls that overlap in worker threads count
once); overhead = wall time of engine.run() minus busy time: prompt building, trajectories and
results on disk, the spiral monitor, compression, git commits and tags, events, checkpoints.
GitPython's commands are timed too, to show how much of the overhead is git.
Per phase, the window comes from the phase_end events (ts and seconds). The run is repeated for
each --llm-delay: with 0 the overhead share is the machinery's alone, with a latency it is what a
run would see. Task images are built before the clock starts. Prints figures; it is not a timed test.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

import yaml
from _common import REPO, load_average, write_json

GIT = "git"

sys.path.insert(0, str(REPO / "tests"))  # taskfactory: the tiny Docker tasks the tests use
from taskfactory import make_task  # noqa: E402


def scripts(delay: float) -> dict[str, list[dict]]:
    def bash(command: str) -> dict:
        return {"tool_calls": [{"name": "bash", "arguments": {"command": command}}]}

    def submit(answer: str) -> dict:
        return {"tool_calls": [{"name": "submit", "arguments": {"answer": answer}}]}

    def verdict(score: int, outcome: str, reason: str | None) -> dict:
        return {"content": {"score": score, "category": "file-operations", "outcome": outcome,
                            "failure_reason": reason}}

    skill = ("mkdir -p /workspace/skills/careful-checks && cat > /workspace/skills/careful-checks/SKILL.md <<'EOF'\n"
             "---\nname: careful-checks\ndescription: Use when writing answer files for tasks.\n---\n"
             "## Steps\n1. Write it.\n## Verification\n- cat the file\nEOF")
    replies = {
        "agent": [{"when": r"\[exit code", **submit("done")},
                  {"when": "careful-checks", **bash("echo 42 > /app/answer.txt && echo GOOD")},
                  bash("echo PLAIN")],
        "judge": [{"when": "GOOD", **verdict(9, "Wrote the answer.", None)},
                  verdict(5, "Printed something and stopped.", "never wrote the answer file")],
        "evolver": [{"when": r"\[exit code", **submit("added careful-checks")}, bash(skill)],
    }
    return {role: [{**reply, "delay_sec": delay} for reply in script] for role, script in replies.items()}


class Recorder:
    """Wall-clock intervals of the wrapped calls, by category; thread-safe (workers call in parallel).
    Only outermost calls are recorded: run() calling start() (a no-op once started) is one command."""

    def __init__(self) -> None:
        self.intervals: list[tuple[float, float, str]] = []
        self._lock = threading.Lock()
        self._depth = threading.local()

    def wrap(self, owner: type, name: str, category: str) -> None:
        original = getattr(owner, name)

        @functools.wraps(original)
        def timed(*args, **kwargs):
            depth = getattr(self._depth, "value", 0)
            self._depth.value = depth + 1
            started = time.time()  # wall clock, to line up with the events' ts
            try:
                return original(*args, **kwargs)
            finally:
                self._depth.value = depth
                if depth == 0:
                    with self._lock:
                        self.intervals.append((started, time.time(), category))

        setattr(owner, name, timed)


def union_seconds(intervals, start: float = float("-inf"), end: float = float("inf")) -> float:
    """Length of the union of [a, b) intervals, clipped to [start, end)."""
    total, reach = 0.0, float("-inf")
    for a, b in sorted((max(a, start), min(b, end)) for a, b, *_ in intervals):
        if b <= a:
            continue
        if a > reach:
            total, reach = total + (b - a), b
        elif b > reach:
            total, reach = total + (b - reach), b
    return total


def run_cycle(root: Path, suite: Path, delay: float, cycles: int, workers: int, recorder: Recorder) -> dict:
    from adaptive_skill.config import load_config
    from adaptive_skill.engine import AdaptiveSkillEngine
    from adaptive_skill.progress import Display

    paths = {}
    for role, script in scripts(delay).items():
        paths[role] = root / f"{role}.yaml"
        paths[role].parent.mkdir(parents=True, exist_ok=True)
        paths[role].write_text(yaml.safe_dump(script))
    config_path = root / "cycle.yaml"
    config_path.write_text(yaml.safe_dump({
        "max_skills": 3, "batch_size": 2, "holdout_ratio": 0.34, "max_cycles": cycles, "workers": workers,
        "seed": 1, "paths": {"workspace": str(REPO / "workspace"), "suite": str(suite),
                             "runs_dir": str(root / "runs")},
        "models": {role: {"model": f"scripted/{path}"} for role, path in paths.items()},
        "limits": {"max_steps": 4}}))
    config = load_config(config_path)

    setup_started = time.time()
    with open(os.devnull, "w") as quiet:  # plain progress lines, formatted as in a logged run, then dropped
        engine = AdaptiveSkillEngine.start(config, run_id="bench", display=Display("plain", quiet))
        recorder.intervals.clear()
        load = load_average()
        started = time.time()
        status = engine.run()
        ended = time.time()
    setup = started - setup_started

    recorded = [i for i in recorder.intervals if i[0] >= started]
    intervals = [i for i in recorded if i[2] != GIT]  # busy: model and sandbox only
    busy = union_seconds(intervals)
    git = [i for i in recorded if i[2] == GIT]
    wall = ended - started
    categories = sorted({category for *_, category in intervals})
    phases = {}
    for event in engine.run_dir.events():
        if event["event"] == "phase_end":
            window = (event["ts"] - event["seconds"], event["ts"])
            phase_busy = union_seconds(intervals, *window)
            key = f"{event['cycle']}/{event['phase']}"
            phases[key] = {"seconds": event["seconds"], "overhead_s": round(event["seconds"] - phase_busy, 3)}
    return {
        "llm_delay_s": delay, "status": status, "cycles": cycles, "workers": workers,
        "wall_s": round(wall, 3), "busy_s": round(busy, 3), "overhead_s": round(wall - busy, 3),
        "overhead_share": round((wall - busy) / wall, 4), "run_setup_s": round(setup, 3),
        "by_category_s": {c: round(union_seconds([i for i in intervals if i[2] == c]), 3) for c in categories},
        "calls": {c: sum(1 for i in intervals if i[2] == c) for c in categories},
        "of_which_git_s": round(union_seconds(git), 3), "git_calls": len(git),
        "phases": phases, "load_before": load, "load_after": load_average(),
    }


def main() -> None:
    import git

    from adaptive_skill.config import SandboxConfig
    from adaptive_skill.harness.providers import DockerProvider
    from adaptive_skill.llm.scripted import ScriptedLLM
    from adaptive_skill.sandbox.debian_base import ensure_base_images
    from adaptive_skill.sandbox.docker_sandbox import DockerSandbox
    from adaptive_skill.tasks import load_suite

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--llm-delay", type=float, nargs="+", default=[1.0, 0.0],
                        help="seconds per model call, one run each (default 1.0 and 0)")
    parser.add_argument("--cycles", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1, help="attempt workers (default 1: no overlap to untangle)")
    parser.add_argument("--json", metavar="PATH")
    args = parser.parse_args()

    recorder = Recorder()
    recorder.wrap(ScriptedLLM, "_reply", "llm call")
    for name in ("run", "exec", "copy_in", "copy_out"):
        recorder.wrap(DockerSandbox, name, "sandbox command")
    for name in ("start", "close"):
        recorder.wrap(DockerSandbox, name, "container start/stop")
    recorder.wrap(DockerProvider, "prepare", "image check")
    recorder.wrap(git.cmd.Git, "execute", GIT)  # part of the orchestration, shown apart

    runs = []
    with tempfile.TemporaryDirectory(prefix="bench-overhead-") as tmp_name:
        tmp = Path(tmp_name)
        for index in range(6):
            make_task(tmp / "suite", f"task-{index}")
        provider = DockerProvider(SandboxConfig())
        ensure_base_images(provider.client)
        for task in load_suite(tmp / "suite"):  # built (or found) before any clock starts
            provider.prepare(task)
        # The first engine run in a process also pays lazy imports (judge, compression, spiral,
        # templates): measured once, then every --llm-delay run is warm, as later cycles are.
        runs.append({"cold": True, **run_cycle(tmp / "cold", tmp / "suite", 0.0, args.cycles, args.workers,
                                               recorder)})
        for index, delay in enumerate(args.llm_delay):
            runs.append(run_cycle(tmp / f"run-{index}", tmp / "suite", delay, args.cycles, args.workers, recorder))

    for run in runs:
        cold = " [first engine run of the process: lazy imports included]" if run.get("cold") else ""
        print(f"engine run{cold}, {run['cycles']} cycle(s), {run['workers']} worker(s), scripted models "
              f"{run['llm_delay_s']:g} s per call: {run['status']} (load {run['load_before'][0]} -> "
              f"{run['load_after'][0]})")
        print(f"  wall {run['wall_s']:.2f} s, busy {run['busy_s']:.2f} s, orchestration {run['overhead_s']:.3f} s "
              f"= {100 * run['overhead_share']:.2f}% of the wall time   (run setup before the cycle: "
              f"{run['run_setup_s']:.2f} s)")
        print(f"  of the orchestration: {run['of_which_git_s']:.3f} s in {run['git_calls']} git commands")
        print("  " + ", ".join(f"{c} {s:.2f} s ({run['calls'][c]} calls)" for c, s in run["by_category_s"].items()))
        print("  per phase (seconds, of which orchestration): " + ", ".join(
            f"{name} {p['seconds']:.2f}/{p['overhead_s']:.3f}" for name, p in run["phases"].items()))
    write_json(args.json, {"runs": runs})
    json.dumps(runs)  # fail here, not in a caller, if something is not serialisable


if __name__ == "__main__":
    main()

"""Every performance figure in one go: runs each benchmark script, then prints a summary.

    .venv/bin/python benchmarks/perf/run_all.py [--quick] [--only vs_mini throughput ...] [--out DIR]
        [--max-load 1.5 --max-wait 1800]

Each script runs in its own process (as a user would run it) and writes its JSON to --out (default:
a new directory under /tmp); the summary and all.json there add the machine, the date and the load
average around each script. On a shared machine, --max-load makes each script wait (at most
--max-wait seconds) until the 1-minute load average is below it. --quick is a smoke run with
small counts: its figures are not for publishing. Needs Docker (and the debootstrap of the README's
install, for the base image); the embedded-model and Ray figures run only if the [local] and [ray]
extras are installed. The first run installs mini-swe-agent into its own venv under ~/.cache
(about a minute).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from _common import load_average, machine

HERE = Path(__file__).resolve().parent

# name: (script, arguments, --quick arguments, takes --json)
STEPS = {
    "cli": ("bench_cli.py", ["--runs", "30"], ["--runs", "5"], True),
    "vs_mini": ("bench_vs_mini.py", ["--runs", "200", "--starts", "10"], ["--runs", "20", "--starts", "2"], True),
    "throughput": ("bench_throughput.py", [], ["--workers", "1", "2", "--tasks-per-worker", "2"], True),
    "overhead": ("bench_overhead.py", [], ["--llm-delay", "1"], True),
    "probe": ("bench_probe.py", ["--runs", "30"], ["--runs", "5"], True),
    "spiral": ("bench_spiral.py", [], ["--steps", "300"], True),
    "compression": ("bench_compression.py", [], [], True),
    "novelty": ("bench_novelty.py", [], ["--items", "1000"], True),
    "executors": ("bench_executors.py", [], ["--tasks", "4", "--rounds", "1"], True),
    "llm_local": ("bench_llm_local.py", [], ["--runs", "2"], False),
}
# Steps that need an optional extra: skipped, with the reason, when its module is missing.
OPTIONAL = {"llm_local": ("llama_cpp", "llama-cpp-python is not installed (the [local] extra)"),
            "executors": ("ray", "ray is not installed (the [ray] extra)")}


def wait_for_load(limit: float, max_wait: float) -> float:
    """Seconds waited until the 1-minute load average fell below `limit` (gives up after max_wait)."""
    started = time.monotonic()
    while load_average()[0] >= limit and time.monotonic() - started < max_wait:
        time.sleep(15)
    return round(time.monotonic() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small counts: a smoke run, not figures to publish")
    parser.add_argument("--only", nargs="+", choices=list(STEPS), metavar="NAME", help=", ".join(STEPS))
    parser.add_argument("--out", type=Path, help="where the JSON files go (default: a new directory under /tmp)")
    parser.add_argument("--max-load", type=float, help="wait before each script until the load is below this")
    parser.add_argument("--max-wait", type=float, default=1800, help="longest wait per script, seconds")
    args = parser.parse_args()
    out = args.out or Path(tempfile.mkdtemp(prefix="adaptive-skill-perf-"))
    out.mkdir(parents=True, exist_ok=True)

    record = {"date": datetime.now(UTC).isoformat(timespec="seconds"), "machine": machine(), "quick": args.quick,
              "steps": {}}
    for name in args.only or STEPS:
        script, arguments, quick, takes_json = STEPS[name]
        if name in OPTIONAL and importlib.util.find_spec(OPTIONAL[name][0]) is None:
            record["steps"][name] = {"skipped": OPTIONAL[name][1]}
            continue
        waited = wait_for_load(args.max_load, args.max_wait) if args.max_load else 0
        command = [sys.executable, str(HERE / script), *(quick if args.quick else arguments)]
        if takes_json:
            command += ["--json", str(out / f"{name}.json")]
        print(f"\n=== {name}: {' '.join(command[1:])}   (load {load_average()})", flush=True)
        load, started = load_average(), time.monotonic()
        code = subprocess.run(command).returncode
        step = {"script": script, "exit_code": code, "seconds": round(time.monotonic() - started, 1),
                "load_before": load, "load_after": load_average(), "waited_for_load_s": waited}
        if takes_json and code == 0:
            step["result"] = json.loads((out / f"{name}.json").read_text())
        record["steps"][name] = step
    (out / "all.json").write_text(json.dumps(record, indent=2) + "\n")
    summary(record)
    print(f"\nJSON: {out}/all.json")
    if any(step.get("exit_code") for step in record["steps"].values()):
        sys.exit(1)


def summary(record: dict) -> None:
    m = record["machine"]
    print(f"\n=== summary, {record['date']}, {m['cores']} cores, {m['memory_gb']} GB, {m['cpu']}, Docker "
          f"{m['docker_engine']}, Python {m['python']}" + (" (QUICK: not for publishing)" if record["quick"] else ""))
    for name, step in record["steps"].items():
        if "skipped" in step:
            print(f"{name}: skipped: {step['skipped']}")
            continue
        if step["exit_code"]:
            print(f"{name}: FAILED (exit code {step['exit_code']})")
            continue
        load = f"load {step['load_before'][0]} -> {step['load_after'][0]}"
        result = step.get("result")
        if result is None:
            print(f"{name}: see its output above ({load})")
            continue
        for line in SUMMARIES[name](result):
            print(f"{line}   [{load}]")


def cli_lines(r: dict) -> list[str]:
    return [f"CLI start-up {name}: {f['median_s'] * 1000:.0f} ms median, {f['p95_s'] * 1000:.0f} ms p95"
            for name, f in r.items()]


def vs_mini_lines(r: dict) -> list[str]:
    lines = []
    for label, f in r["per_command"].items():
        ours, mini, ratio = f["ours"], f["mini-swe-agent"], f["ratio_median"]
        lines.append(f"per command '{label}': ours {ours['median_ms']:.3f} ms (p95 {ours['p95_ms']:.2f}) vs "
                     f"mini-swe-agent {r['mini_swe_agent']} {mini['median_ms']:.1f} ms (p95 {mini['p95_ms']:.1f}): "
                     f"{ratio:.0f}x, goal >= 10x {'met' if ratio >= 10 else 'MISSED'}")
    for name, f in r["start_to_first_command"].items():
        lines.append(f"start to first command, {name}: {f['median_ms']:.0f} ms median (p95 {f['p95_ms']:.0f})")
    return lines


def throughput_lines(r: dict) -> list[str]:
    return [f"throughput, {row['workers']} worker(s), model {r['llm_delay_s']:g} s/call: {row['tasks_per_min']:.1f} "
            f"tasks/min ({row['tasks']} tasks, {row['passed']} passed), efficiency {row['efficiency']:.2f}"
            for row in r["rows"]]


def overhead_lines(r: dict) -> list[str]:
    lines = []
    for run in r["runs"]:
        goal = "(cold: imports included)" if run.get("cold") else \
            f"goal < 2% {'met' if run['overhead_share'] < 0.02 else 'MISSED'}"
        lines.append(f"orchestration share of a cycle, model {run['llm_delay_s']:g} s/call: "
                     f"{100 * run['overhead_share']:.2f}% ({run['overhead_s']:.2f} of {run['wall_s']:.1f} s) {goal}")
    return lines


def spiral_lines(r: dict) -> list[str]:
    return [f"spiral monitor per step ({r['steps']} steps, {r['embedder']}): {r['cpu']['median_ms']} ms CPU median, "
            f"{r['wall']['median_ms']} ms wall median, p95 {r['wall']['p95_ms']} ms"]


def compression_lines(r: dict) -> list[str]:
    lines = []
    for budget in sorted({row["budget"] for row in r["rows"]}, reverse=True):
        rows = [row for row in r["rows"] if row["budget"] == budget]
        raw, compressed = sum(x["raw_tokens"] for x in rows), sum(x["compressed_tokens"] for x in rows)
        kept, total = sum(x["error_lines_kept"] for x in rows), sum(x["error_lines"] for x in rows)
        lines.append(f"compression, budget {budget} tokens: {compressed / raw:.3f} of the raw tokens "
                     f"({compressed}/{raw}), error lines kept {kept}/{total}")
    return lines


def novelty_lines(r: dict) -> list[str]:
    last = r["stretches"][-1]
    return [f"novelty metrics per item at items {last['items']}: observe {last['observe']['cpu']['median_us']} us, "
            f"cluster assign {last['assign']['cpu']['median_us']} us CPU median"]


def executors_lines(r: dict) -> list[str]:
    return [f"executors, {r['tasks']} oracle attempts {r['workers']} at a time: local "
            f"{r['local_per_attempt_sec']:.3f} s vs ray {r['ray_per_attempt_sec']:.3f} s per attempt "
            f"(ray start {r['ray_start_sec']:.1f} s)"]


def probe_lines(r: dict) -> list[str]:
    return [f"programs probe per attempt ({r['image']}): {r['median_ms']:.0f} ms median, {r['p90_ms']:.0f} ms p90"]


SUMMARIES = {"cli": cli_lines, "vs_mini": vs_mini_lines, "throughput": throughput_lines, "overhead": overhead_lines,
             "probe": probe_lines, "spiral": spiral_lines, "compression": compression_lines, "novelty": novelty_lines,
             "executors": executors_lines}


if __name__ == "__main__":
    main()

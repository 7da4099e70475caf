"""The embedded model per role: memory of each instance, prompt and generation speed with and without
a grammar, and what a warm prefix saves, for the thread count in ADAPTIVE_SKILL_LOCAL_THREADS.

    ADAPTIVE_SKILL_LOCAL_THREADS=1 .venv/bin/python benchmarks/perf/bench_llm_roles.py [--model M] [--runs 3]
    ADAPTIVE_SKILL_LOCAL_THREADS=2 .venv/bin/python benchmarks/perf/bench_llm_roles.py ...

Loads one instance per role (agent, judge, evolver), as a run does (llm/local.py), and prints the
process's resident memory after each (RSS, which counts the mapped model file once per instance,
and the anonymous memory, which does not). Then, on the agent instance: the seed workspace's system prompt
evaluated cold (prompt tokens per second), a 64-token reply free and under the agent's tool-call
grammar (generation tokens per second, the grammar's cost per token), and the same prompt again
(warm: only the new turn is evaluated). Run it on a quiet machine and say the load it printed.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import time
from pathlib import Path

from adaptive_skill.agent.loop import render_system_prompt
from adaptive_skill.agent.protocol import tool_specs
from adaptive_skill.llm import toolcalls
from adaptive_skill.llm.local import _grammar, local_provider, model_file, threads
from adaptive_skill.workspace import Workspace

ROOT = Path(__file__).resolve().parents[2]
TASK = ("Count the lines of /app/logs/service.log that mention `timeout` in any mix of upper and lower case. "
        "Write only that number to /app/timeout_count.txt.")


def rss_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def private_mb() -> float | None:
    """Memory of this process no other mapping shares: the anonymous pages (KV cache, buffers), not the
    model file, which every instance maps and the page cache holds once (RSS counts it per mapping)."""
    try:
        with open("/proc/self/smaps_rollup") as rollup:
            fields = dict(line.split(":", 1) for line in rollup if ":" in line)
        return int(fields["Anonymous"].split()[0]) / 1024
    except (OSError, KeyError, ValueError):
        return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="local/qwen2.5-coder-1.5b")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    name = args.model.removeprefix("local/")
    model_file(name)
    print(f"threads {threads()}; load average before: {os.getloadavg()[0]:.2f}")
    provider = local_provider()
    print(f"RSS before loading: {rss_mb():.0f} MB")
    instances = {}
    for role in ("agent", "judge", "evolver"):
        started = time.monotonic()
        instances[role] = provider.load(name, role)
        anonymous = private_mb()
        print(f"instance {role}: loaded in {time.monotonic() - started:.1f} s, RSS now {rss_mb():.0f} MB"
              + (f", anonymous (not the mapped file) {anonymous:.0f} MB" if anonymous is not None else ""))
    llama = instances["agent"]
    from adaptive_skill.llm.toolcalls import render

    tools = tool_specs(skills=Workspace(ROOT / "workspace").skill_names())
    system = render_system_prompt(Workspace(ROOT / "workspace"), True, instruction=TASK)
    template = llama.metadata["tokenizer.chat_template"]
    prompt = render(template, [{"role": "system", "content": system}, {"role": "user", "content": TASK}], tools)
    grammar = _grammar(toolcalls.grammar(tools, toolcalls.Bounds().fit(2048)))
    rows: dict[str, list[float]] = {"prompt tok/s (cold)": [], "free gen tok/s": [], "grammar gen tok/s": [],
                                    "warm call s (a new turn)": []}
    for _ in range(args.runs):
        llama.reset()
        tokens = llama.tokenize(prompt.encode(), special=True)
        started = time.monotonic()
        llama.create_completion(prompt, max_tokens=1, temperature=0)
        rows["prompt tok/s (cold)"].append(len(tokens) / (time.monotonic() - started))
        for label, kind in (("free gen tok/s", None), ("grammar gen tok/s", grammar)):
            started = time.monotonic()
            out = llama.create_completion(prompt, max_tokens=64, temperature=0, grammar=kind)
            rows[label].append(out["usage"]["completion_tokens"] / (time.monotonic() - started))
        call = '<tool_call>\n{"name": "bash", "arguments": {"command": "ls"}}\n</tool_call><|im_end|>\n'
        result = "a.log b.log service.log\n" * 3 + "[exit code 0]"
        follow = (f"{prompt}{call}<|im_start|>user\n<tool_response>\n{result}\n</tool_response><|im_end|>\n"
                  "<|im_start|>assistant\n")
        started = time.monotonic()
        llama.create_completion(follow, max_tokens=1, temperature=0)
        rows["warm call s (a new turn)"].append(time.monotonic() - started)
        new_turn = len(llama.tokenize(follow.encode(), special=True)) - len(tokens)
    for label, values in rows.items():
        print(f"{label:32} median {statistics.median(values):7.1f}  (min {min(values):.1f}, max {max(values):.1f}, "
              f"n={len(values)})")
    print(f"prompt tokens: {len(tokens)}; a new turn: {new_turn} tokens; RSS at the end {rss_mb():.0f} MB; "
          f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()

"""Embedded model figures: load time, prompt and generation speed, JSON-constrained speed, litellm
overhead; with --attempt, an agent attempt's calls with and without prefix reuse.

    .venv/bin/python benchmarks/perf/bench_llm_local.py [--runs 5] [--model local/qwen2.5-coder-0.5b]
    .venv/bin/python benchmarks/perf/bench_llm_local.py --attempt [--runs 3] [--steps 8] [--model ...]

--attempt replays one agent attempt of --steps steps (the real system prompt of workspace/, the
agent's grammar, fixed assistant turns and observations so that both modes see the same prompts)
in bit-exact mode (ADAPTIVE_SKILL_LOCAL_EXACT=1, every prompt evaluated whole: the behaviour before
prefix reuse) and in reuse mode, alternating which goes first, each repeat starting cold. Per step:
prompt tokens, tokens evaluated, seconds, RSS. Needs the [local] extra. Prints figures and the load
average before and after; it is not a timed test.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import time
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from adaptive_skill.config import ModelConfig
from adaptive_skill.llm._litellm import import_litellm
from adaptive_skill.llm.accounting import Accounting
from adaptive_skill.llm.factory import make_llm

MODEL = "local/smollm2-135m"
QUESTION = [{"role": "system", "content": "You are a helpful assistant."},
            {"role": "user", "content": "Explain in a few sentences what the `find` command does, with an example."}]


class Verdict(BaseModel):
    score: int = Field(ge=0, le=10)
    outcome: Literal["success", "failure", "partial"]
    reason: str = Field(max_length=200)


def main() -> None:
    global MODEL
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--model", default=MODEL)
    parser.add_argument("--attempt", action="store_true", help="prefix reuse: an attempt's calls, before and after")
    parser.add_argument("--steps", type=int, default=8)
    args = parser.parse_args()
    runs, MODEL = args.runs, args.model
    if args.attempt:
        bench_attempt(MODEL, runs, args.steps)
        return

    started = time.monotonic()
    import_litellm()  # timed apart: it dominates a cold start
    litellm_import = time.monotonic() - started
    started = time.monotonic()
    import llama_cpp  # noqa: F401

    llama_import = time.monotonic() - started

    from adaptive_skill.llm import local

    provider = local.local_provider()
    started = time.monotonic()
    llama = provider.load(MODEL.removeprefix("local/"))
    load = time.monotonic() - started

    # Straight llama.cpp: the model's own speed.
    gen_rates, prompt_rates = [], []
    for _ in range(runs):
        llama.reset()
        started = time.monotonic()
        result = llama.create_chat_completion(messages=QUESTION, temperature=0.7, max_tokens=128)
        gen_rates.append(result["usage"]["completion_tokens"] / (time.monotonic() - started))
    long_prompt = [{"role": "user", "content": "ls -la /var/log " * 250}]
    for _ in range(runs):
        llama.reset()
        started = time.monotonic()
        result = llama.create_chat_completion(messages=long_prompt, temperature=0.0, max_tokens=1)
        prompt_rates.append(result["usage"]["prompt_tokens"] / (time.monotonic() - started))
    prompt_tokens = result["usage"]["prompt_tokens"]

    # Through litellm and LLMClient, as the engine calls it.
    accounting = Accounting()
    llm = make_llm(ModelConfig(model=MODEL, max_tokens=128, temperature=0.7), accounting, "bench")
    llm.complete(QUESTION)  # warm litellm's lazy paths
    client_rates, client_latency = [], []
    for _ in range(runs):
        started = time.monotonic()
        response = llm.complete(QUESTION)
        elapsed = time.monotonic() - started
        client_latency.append(elapsed)
        client_rates.append(response.usage.completion_tokens / elapsed)

    judge = make_llm(ModelConfig(model=MODEL, max_tokens=200), accounting, "judge")
    json_latency, valid = [], 0
    for _ in range(runs):
        started = time.monotonic()
        before = accounting.totals(role="judge").calls
        judge.complete_json([{"role": "user", "content": "The agent ran the tests and they passed. Judge it."}],
                            Verdict)
        json_latency.append(time.monotonic() - started)
        valid += accounting.totals(role="judge").calls - before == 1

    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    median = statistics.median
    print(f"model                        {MODEL} ({local.model_file(MODEL.removeprefix('local/')).name})")
    print(f"threads                      {llama.context_params.n_threads}")
    print(f"import litellm               {litellm_import:.2f} s")
    print(f"import llama_cpp             {llama_import:.2f} s")
    print(f"model load                   {load:.2f} s")
    print(f"generation (llama.cpp)       {median(gen_rates):.0f} tokens/s (median of {runs}, 128 max)")
    print(f"prompt eval (llama.cpp)      {median(prompt_rates):.0f} tokens/s ({prompt_tokens}-token prompt)")
    print(f"generation (via litellm)     {median(client_rates):.0f} tokens/s, {median(client_latency):.2f} s per call")
    print(f"complete_json (via litellm)  {median(json_latency):.2f} s per call, valid first time {valid}/{runs}")
    print(f"peak RSS                     {rss_mb:.0f} MB")


OBSERVATIONS = [
    "total 24\ndrwxr-xr-x 1 root root 4096 Nov 23 10:00 .\ndrwxr-xr-x 1 root root 4096 Nov 23 10:00 ..\n"
    "-rw-r--r-- 1 root root  812 Nov 23 10:00 data.csv\n-rw-r--r-- 1 root root  120 Nov 23 10:00 notes.txt\n",
    "id,name,amount\n" + "".join(f"{i},item-{i},{i * 7 % 100}.{i % 10}0\n" for i in range(1, 30)),
    "(exit code 0, no output)",
    "bash: jq: command not found\n(exit code 127)",
    "  29 /app/data.csv\n",
    "-rw-r--r-- 1 root root 3 Nov 23 10:01 /app/count.txt\n29\n",
]
COMMANDS = ["ls -la /app", "cat /app/data.csv", "tail -n +2 /app/data.csv | wc -l > /app/count.txt",
            "jq . /app/data.csv", "wc -l /app/data.csv", "ls -l /app/count.txt && cat /app/count.txt"]


def _rss_mb() -> float:
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def bench_attempt(model: str, runs: int, steps: int) -> None:
    from adaptive_skill.agent.loop import render_system_prompt
    from adaptive_skill.agent.protocol import text_protocol_grammar
    from adaptive_skill.llm import local
    from adaptive_skill.workspace import Workspace

    name = model.removeprefix("local/")
    provider = local.local_provider()
    provider.load(name)
    llm = make_llm(ModelConfig(model=model, max_tokens=48, temperature=0.0), Accounting(), "agent")
    grammar = text_protocol_grammar()
    system = render_system_prompt(Workspace(Path(__file__).resolve().parents[2] / "workspace"), native_tools=False)
    print(f"model {model} ({local.model_file(name).name}), {steps} steps, {runs} repeats; load before {_load()}")
    results: dict[str, list[dict]] = {"exact": [], "reuse": []}
    for repeat in range(runs):
        for mode in (("exact", "reuse") if repeat % 2 == 0 else ("reuse", "exact")):
            os.environ[local.EXACT_ENV] = "1" if mode == "exact" else "0"
            provider.forget(name)
            context = [{"role": "system", "content": system},
                       {"role": "user", "content": f"Count the data rows of /app/data.csv (repeat {repeat}) and "
                                                   "write only the number to /app/count.txt."}]
            per_step = []
            started = time.monotonic()
            for step in range(steps):
                step_started = time.monotonic()
                llm.complete(context, grammar=grammar)
                stats = provider.stats[name]
                per_step.append({"prompt": stats.last_prompt_tokens, "evaluated": stats.last_evaluated,
                                 "seconds": time.monotonic() - step_started, "rss_mb": _rss_mb()})
                command = COMMANDS[step % len(COMMANDS)]
                context = [*context, {"role": "assistant", "content": f"Next step.\n```bash\n{command}\n```"},
                           {"role": "user", "content": OBSERVATIONS[step % len(OBSERVATIONS)]}]
            results[mode].append({"seconds": time.monotonic() - started, "steps": per_step})
            print(f"repeat {repeat + 1} {mode}: {results[mode][-1]['seconds']:.1f} s, evaluated "
                  f"{[r['evaluated'] for r in per_step]} of {[r['prompt'] for r in per_step]} prompt tokens, "
                  f"seconds {[round(r['seconds'], 1) for r in per_step]}, RSS {per_step[-1]['rss_mb']:.0f} MB, "
                  f"load {_load()}", flush=True)
    print(f"load after {_load()}; peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    for mode, attempts in results.items():
        seconds = sorted(a["seconds"] for a in attempts)
        print(f"\n{mode}: seconds per attempt median {statistics.median(seconds):.1f} "
              f"(min {seconds[0]:.1f}, max {seconds[-1]:.1f}, n={len(seconds)})")
        print("step  prompt tokens  evaluated (median)  seconds median [min-max]  RSS MB (last repeat)")
        for index in range(steps):
            rows = [a["steps"][index] for a in attempts]
            secs = sorted(r["seconds"] for r in rows)
            print(f"{index + 1:>4}  {rows[0]['prompt']:>13}  {statistics.median(r['evaluated'] for r in rows):>18.0f}  "
                  f"{statistics.median(secs):>14.2f} [{secs[0]:.2f}-{secs[-1]:.2f}]  {rows[-1]['rss_mb']:>8.0f}")
        total_prompt = sum(r["prompt"] for r in attempts[0]["steps"])
        total_evaluated = statistics.median(sum(r["evaluated"] for r in a["steps"]) for a in attempts)
        print(f"total prompt tokens {total_prompt}, evaluated {total_evaluated:.0f} (median over repeats)")


if __name__ == "__main__":
    main()

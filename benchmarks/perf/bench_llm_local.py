"""Embedded model figures: load time, prompt and generation speed, JSON-constrained speed, litellm overhead.

    .venv/bin/python benchmarks/perf/bench_llm_local.py [--runs 5]

Needs the [local] extra. Prints figures; it is not a timed test.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time
from typing import Literal

from pydantic import BaseModel, Field

from adaptive_skill.config import ModelConfig
from adaptive_skill.llm._litellm import import_litellm
from adaptive_skill.llm.accounting import Accounting
from adaptive_skill.llm.client import make_llm

MODEL = "local/smollm2-135m"
QUESTION = [{"role": "system", "content": "You are a helpful assistant."},
            {"role": "user", "content": "Explain in a few sentences what the `find` command does, with an example."}]


class Verdict(BaseModel):
    score: int = Field(ge=0, le=10)
    outcome: Literal["success", "failure", "partial"]
    reason: str = Field(max_length=200)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs

    started = time.monotonic()
    import_litellm()  # timed apart: it dominates a cold start
    litellm_import = time.monotonic() - started
    started = time.monotonic()
    import llama_cpp  # noqa: F401

    llama_import = time.monotonic() - started

    from adaptive_skill.llm import local

    provider = local.local_provider()
    started = time.monotonic()
    llama = provider.load("smollm2-135m")
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
    print(f"model                        {MODEL} ({local.model_file('smollm2-135m').name})")
    print(f"threads                      {llama.context_params.n_threads}")
    print(f"import litellm               {litellm_import:.2f} s")
    print(f"import llama_cpp             {llama_import:.2f} s")
    print(f"model load                   {load:.2f} s")
    print(f"generation (llama.cpp)       {median(gen_rates):.0f} tokens/s (median of {runs}, 128 max)")
    print(f"prompt eval (llama.cpp)      {median(prompt_rates):.0f} tokens/s ({prompt_tokens}-token prompt)")
    print(f"generation (via litellm)     {median(client_rates):.0f} tokens/s, {median(client_latency):.2f} s per call")
    print(f"complete_json (via litellm)  {median(json_latency):.2f} s per call, valid first time {valid}/{runs}")
    print(f"peak RSS                     {rss_mb:.0f} MB")


if __name__ == "__main__":
    main()

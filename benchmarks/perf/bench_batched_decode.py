"""Several sequences decoded together on one model instance, against one at a time (issue 66, item 4).

    .venv/bin/python benchmarks/perf/bench_batched_decode.py [--model qwen2.5-coder-1.5b] \
        [--sequences 1 2 4] [--prompt-tokens 600] [--tokens 96] [--runs 2]

llama.cpp evaluates a batch of tokens from several sequences in one forward pass. An agent attempt
is one sequence: its prompt (the system prompt, the task, the observations so far), then the reply,
one token per pass. Here N sequences, each its own prompt of --prompt-tokens tokens (distinct
text, as N attempts of N tasks would have), are decoded --tokens tokens each, greedy:

- one at a time: each sequence's prompt, then its reply, then the next sequence (what the product
  does today with workers: 1);
- together: the N prompts evaluated in one batch, then N tokens (one per sequence) per pass.

Prints, per N and mode, the wall seconds for all N sequences, the reply tokens per second and the
prompt tokens per second, each the median over --runs repeats (the modes alternate which goes first),
how many greedy replies equal the first one-at-a-time run's (batched arithmetic may round
differently), and the load average before and after. The same context size, threads and model file as the agent's
(adaptive_skill.llm.local). Needs the [local] extra. Not a timed test: run it alone.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time

WORDS = ("archive backup config cron csv daemon disk export file git grep gzip header index json line log "
         "manifest owner package path permission port query record report row script service sqlite tar "
         "user value version").split()


def prompt_text(index: int, approx_tokens: int) -> str:
    """A distinct prompt per sequence: a task-like text of about `approx_tokens` tokens."""
    parts, k = [], index * 7 + 3
    while len(parts) < approx_tokens // 2:
        k = (k * 1103515245 + 12345) % 2**31
        parts.append(WORDS[k % len(WORDS)])
    return f"Task {index}: " + " ".join(parts) + "\nReply with one bash command in a fenced block."


class Batched:
    """One llama.cpp context holding up to `n_seq` sequences, driven through the low-level API."""

    def __init__(self, llama, n_seq: int, n_ctx: int, n_batch: int, threads: int):
        import llama_cpp
        from llama_cpp import _internals as internals

        self.lib, self.llama = llama_cpp, llama
        params = llama_cpp.llama_context_default_params()
        params.n_ctx, params.n_batch, params.n_ubatch = n_ctx * n_seq, n_batch, 512
        params.n_seq_max, params.n_threads, params.n_threads_batch = n_seq, threads, threads
        params.kv_unified = True
        self.ctx = internals.LlamaContext(model=llama._model, params=params, verbose=False)
        self.batch = llama_cpp.llama_batch_init(n_batch, 0, n_seq)
        self.n_vocab = llama.n_vocab()

    def close(self) -> None:
        self.lib.llama_batch_free(self.batch)
        self.ctx.close()

    def clear(self) -> None:
        self.lib.llama_memory_clear(self.lib.llama_get_memory(self.ctx.ctx), True)

    def decode(self, entries: list[tuple[int, int, int, bool]]) -> None:
        """entries: (token, position, sequence, wants logits), in one call (llama.cpp splits it into
        micro-batches of n_ubatch itself)."""
        b = self.batch
        b.n_tokens = len(entries)
        for i, (token, pos, seq, logits) in enumerate(entries):
            b.token[i], b.pos[i], b.n_seq_id[i] = token, pos, 1
            b.seq_id[i][0] = seq
            b.logits[i] = logits
        if self.lib.llama_decode(self.ctx.ctx, b) != 0:
            raise RuntimeError("llama_decode failed")

    def argmax(self, index: int) -> int:
        """The most likely next token after the batch's entry at `index`."""
        import numpy

        row = self.lib.llama_get_logits_ith(self.ctx.ctx, index)
        return int(numpy.ctypeslib.as_array(row, shape=(self.n_vocab,)).argmax())

    def run(self, prompts: list[list[int]], tokens: int, together: bool) -> dict:
        self.clear()
        prompt_s = gen_s = 0.0
        replies: dict[int, list[int]] = {seq: [] for seq in range(len(prompts))}
        groups = [list(range(len(prompts)))] if together else [[i] for i in range(len(prompts))]
        for group in groups:
            started = time.monotonic()
            entries = []
            for seq in group:
                p = prompts[seq]
                entries += [(t, pos, seq, pos == len(p) - 1) for pos, t in enumerate(p)]
            self.decode(entries)
            # the logits of each sequence's last prompt token, by its index in the batch
            last, end = {}, 0
            for seq in group:
                end += len(prompts[seq])
                last[seq] = end - 1
            nxt = {seq: self.argmax(last[seq]) for seq in group}
            prompt_s += time.monotonic() - started
            started = time.monotonic()
            pos = {seq: len(prompts[seq]) for seq in group}
            for seq in group:
                replies[seq].append(nxt[seq])
            for _ in range(tokens - 1):
                self.decode([(nxt[seq], pos[seq], seq, True) for seq in group])
                for n, seq in enumerate(group):
                    pos[seq] += 1
                    nxt[seq] = self.argmax(n)
                    replies[seq].append(nxt[seq])
            gen_s += time.monotonic() - started
        return {"prompt_seconds": prompt_s, "generate_seconds": gen_s, "seconds": prompt_s + gen_s,
                "replies": [replies[seq] for seq in range(len(prompts))]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="qwen2.5-coder-1.5b")
    parser.add_argument("--sequences", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--prompt-tokens", type=int, default=600)
    parser.add_argument("--tokens", type=int, default=96, help="reply tokens per sequence")
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--json", action="store_true", help="print the rows as JSON too")
    args = parser.parse_args()

    from adaptive_skill.llm import local

    load_before = os.getloadavg()
    llama = local.local_provider().load(args.model)
    threads = local.threads()
    rows = []
    for n in args.sequences:
        prompts = [llama.tokenize(prompt_text(i, args.prompt_tokens).encode()) for i in range(n)]
        engine = Batched(llama, n, max(len(p) for p in prompts) + args.tokens + 8, sum(map(len, prompts)), threads)
        try:
            figures: dict[str, list[dict]] = {"one at a time": [], "together": []}
            for r in range(args.runs):
                order = ["one at a time", "together"] if r % 2 == 0 else ["together", "one at a time"]
                for mode in order:
                    figures[mode].append(engine.run(prompts, args.tokens, together=(mode == "together")))
        finally:
            engine.close()
        for mode, runs in figures.items():
            if n == 1 and mode == "together":
                continue  # the same thing as one at a time
            med = {k: statistics.median(r[k] for r in runs) for k in runs[0] if k != "replies"}
            # greedy replies: batching changes the arithmetic's order, so a token may differ
            first = figures["one at a time"][0]["replies"]
            same = sum(a == b for r in runs for a, b in zip(r["replies"], first, strict=True))
            rows.append({"sequences": n, "mode": mode, "seconds": round(med["seconds"], 2),
                         "reply_tokens_per_s": round(n * args.tokens / med["generate_seconds"], 2),
                         "prompt_tokens_per_s": round(sum(map(len, prompts)) / med["prompt_seconds"], 1),
                         "same_replies": f"{same}/{n * len(runs)}"})
    load_after = os.getloadavg()
    print(f"model {args.model}, threads {threads}, prompt ~{args.prompt_tokens} tokens, "
          f"{args.tokens} reply tokens per sequence, median of {args.runs}")
    print(f"{'N':>2}  {'mode':<14} {'seconds':>8} {'reply tok/s':>12} {'prompt tok/s':>13} {'same replies':>13}")
    for row in rows:
        print(f"{row['sequences']:>2}  {row['mode']:<14} {row['seconds']:>8.2f} {row['reply_tokens_per_s']:>12.2f} "
              f"{row['prompt_tokens_per_s']:>13.1f} {row['same_replies']:>13}")
    print(f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f}")
    if args.json:
        print(json.dumps(rows))


if __name__ == "__main__":
    main()

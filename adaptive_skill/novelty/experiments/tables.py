"""The experiment's tables: analysis.json (everything), runs.csv (a row per run), summary.csv and
comparisons.csv (a row per condition and metric) and summary.md (what a reader looks at first)."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

from adaptive_skill.files import write_json_atomic
from adaptive_skill.novelty.experiments.analysis import METRICS, Analysis
from adaptive_skill.novelty.experiments.conditions import BASELINE
from adaptive_skill.novelty.experiments.stats import LEVEL

_RUN_COLUMNS = ["problem", "condition", "repeat", "seed", "proposals", "failures", *METRICS, "jump_positions",
                "cost_usd"]


def spend_text(usd: float, tokens: int) -> str:
    """What the runs spent: "$0.0600 (12,000 tokens)"; a free or local model's "$0.0000" alone would
    read as nothing done, so its tokens stand in front: "12,000 tokens (no cost: a free model)"."""
    if usd > 0:
        return f"${usd:.4f} ({tokens:,} tokens)"
    return f"{tokens:,} tokens (no cost: a free model)"


def write_tables(analysis: Analysis, out: Path, meta: dict[str, Any]) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    write_json_atomic(out / "analysis.json", {**meta, **analysis.to_dict()})
    files = {"runs.csv": _runs_csv(analysis), "summary.csv": _interval_csv(analysis.summary, "condition"),
             "comparisons.csv": _interval_csv(analysis.comparisons, "condition"),
             "summary.md": summary_markdown(analysis, meta)}
    for name, text in files.items():
        (out / name).write_text(text, encoding="utf-8")
    return [out / "analysis.json", *(out / name for name in files)]


def _runs_csv(analysis: Analysis) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, _RUN_COLUMNS, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for row in analysis.rows:
        writer.writerow({**row, "jump_positions": " ".join(map(str, row["jump_positions"]))})
    return buffer.getvalue()


def _interval_csv(table: dict[str, dict[str, Any]], key: str) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([key, "metric", "mean", "low", "high", "n"])
    for condition, values in table.items():
        for metric in METRICS:
            cell = values[metric]
            writer.writerow([condition, metric, cell["mean"], cell["low"], cell["high"], cell["n"]])
    return buffer.getvalue()


def summary_markdown(analysis: Analysis, meta: dict[str, Any]) -> str:
    level = f"{LEVEL:.0%}"
    lines = ["# Novelty experiment", "",
             f"{meta['problems']} problem(s) x {len(analysis.conditions)} condition(s) x {meta['repeats']} repeat(s), "
             f"{meta['max_iterations']} iterations each; model `{meta['model']}`, embedder `{meta['embedder']}`; "
             f"spent {spend_text(meta['cost_usd'], meta['tokens'])}.", "",
             f"## Per condition (mean [{level} bootstrap interval])", "",
             "| metric | " + " | ".join(analysis.conditions) + " |",
             "|---|" + "---|" * len(analysis.conditions)]
    for metric in METRICS:
        cells = [_interval(analysis.summary[c][metric]) for c in analysis.conditions]
        lines.append(f"| {metric} | " + " | ".join(cells) + " |")
    lines.append("| runs | " + " | ".join(str(analysis.summary[c]["runs"]) for c in analysis.conditions) + " |")
    if analysis.comparisons:
        others = list(analysis.comparisons)
        lines += ["", f"## Difference from `{BASELINE}` (condition - {BASELINE}, {level} interval; "
                      "* when it excludes 0)", "",
                  "| metric | " + " | ".join(others) + " |", "|---|" + "---|" * len(others)]
        for metric in METRICS:
            cells = [_interval(analysis.comparisons[c][metric], signed=True) for c in others]
            lines.append(f"| {metric} | " + " | ".join(cells) + " |")
    lines += ["", "## Metrics", ""] + [f"- **{name}**: {text}" for name, text in METRICS.items()]
    return "\n".join(lines) + "\n"


def _interval(cell: dict[str, Any], signed: bool = False) -> str:
    if cell["mean"] is None:
        return "-"
    mark = "*" if cell.get("excludes_zero") else ""
    fmt = "{:+.3f}" if signed else "{:.3f}"
    return f"{fmt.format(cell['mean'])}{mark} [{cell['low']:.3f}, {cell['high']:.3f}]"

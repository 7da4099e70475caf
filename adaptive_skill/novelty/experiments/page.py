"""A self-contained HTML page of the experiment: the markdown summary's tables and the plots
inlined as base64, so the one file can be mailed or attached."""

from __future__ import annotations

import base64
import html
from pathlib import Path

from adaptive_skill.novelty.experiments.analysis import METRICS, Analysis
from adaptive_skill.novelty.experiments.conditions import BASELINE

_STYLE = ("body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em}"
          "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}"
          "th:first-child,td:first-child{text-align:left}img{max-width:100%;margin:1em 0}.sig{font-weight:bold}")


def write_page(analysis: Analysis, out: Path, plots: list[Path], intro: str) -> Path:
    parts = [f"<!doctype html><meta charset='utf-8'><title>Novelty experiment</title><style>{_STYLE}</style>",
             "<h1>Novelty experiment</h1>", f"<p>{html.escape(intro)}</p>",
             "<h2>Per condition (mean [95% bootstrap interval])</h2>",
             _table(analysis.conditions, {c: analysis.summary[c] for c in analysis.conditions}, signed=False)]
    if analysis.comparisons:
        parts += [f"<h2>Difference from {BASELINE} (bold: the interval excludes 0)</h2>",
                  _table(list(analysis.comparisons), analysis.comparisons, signed=True)]
    for plot in plots:
        data = base64.b64encode(plot.read_bytes()).decode("ascii")
        parts.append(f"<h2>{html.escape(plot.stem.replace('_', ' '))}</h2>"
                     f"<img alt='{html.escape(plot.stem)}' src='data:image/png;base64,{data}'>")
    path = out / "summary.html"
    path.write_text("\n".join(parts) + "\n", encoding="utf-8")
    return path


def _table(columns: list[str], table: dict, signed: bool) -> str:
    head = "<tr><th>metric</th>" + "".join(f"<th>{html.escape(c)}</th>" for c in columns) + "</tr>"
    rows = []
    for metric in METRICS:
        cells = []
        for column in columns:
            cell = table[column][metric]
            if cell["mean"] is None:
                cells.append("<td>-</td>")
                continue
            mean = f"{cell['mean']:+.3f}" if signed else f"{cell['mean']:.3f}"
            css = " class='sig'" if cell.get("excludes_zero") else ""
            cells.append(f"<td{css}>{mean} [{cell['low']:.3f}, {cell['high']:.3f}]</td>")
        rows.append(f"<tr><td title='{html.escape(METRICS[metric])}'>{metric}</td>{''.join(cells)}</tr>")
    return f"<table>{head}{''.join(rows)}</table>"

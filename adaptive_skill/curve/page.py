"""results.json -> curve.html: one self-contained page (inline CSS and SVG, no script, no network):
the pass rate of every workspace with its 95% interval, the paired difference with the seed with its
interval, the table of results.md, a task x workspace matrix of pass fractions over the repeats, and
per cycle the gate's evidence. Jinja autoescapes every value (task names and skills come from a run)."""

from __future__ import annotations

from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from adaptive_skill.curve.markdown import _interval, _pct, _share
from adaptive_skill.report.svg import Estimate, interval_chart

SEED, TAG, EXPERT, OTHER = "#7f7f7f", "#4e79a7", "#59a14f", "#b07aa1"


def rows_of(results: dict) -> list[tuple[str, dict]]:
    """(kind, row) of every workspace, in the table's order: seed, tags, expert, other workspaces."""
    curve = results.get("curve") or [results["seed"]]
    found = [("seed" if i == 0 else "tag", row) for i, row in enumerate(curve)]
    if results.get("expert"):
        found.append(("expert", results["expert"]))
    found += [("workspace", row) for row in results.get("workspaces") or []]
    return found


def _color(kind: str) -> str:
    return {"seed": SEED, "tag": TAG, "expert": EXPERT}.get(kind, OTHER)


def pass_rate_chart(results: dict) -> str:
    rows = rows_of(results)
    seed = results["seed"]["pass_rate"]["mean"]
    return interval_chart(
        "Holdout pass rate, 95% interval", [
            Estimate(row["label"], row["pass_rate"]["mean"], row["pass_rate"]["low"], row["pass_rate"]["high"],
                     _color(kind), f"{row['pass_rate'].get('n', '?')} tasks") for kind, row in rows],
        x_min=0.0, x_max=1.0, marker=seed, marker_label="seed")


def difference_chart(results: dict) -> str:
    rows = [(kind, row) for kind, row in rows_of(results) if kind != "seed"]
    ends = [abs(v) for _, row in rows for v in (row["vs_seed"]["low"], row["vs_seed"]["high"], row["vs_seed"]["mean"])
            if v is not None]
    reach = min(1.0, max([0.25, *ends]) + 0.05)
    reach = round(reach * 4 + 0.49) / 4  # a quarter step: the ticks stay round
    return interval_chart(
        "Paired difference with the seed, 95% interval", [
            Estimate(row["label"], row["vs_seed"]["mean"], row["vs_seed"]["low"], row["vs_seed"]["high"],
                     _color(kind), f"over {row['vs_seed'].get('n', '?')} tasks both scored") for kind, row in rows],
        x_min=-reach, x_max=reach, marker=0.0, marker_label="no change")


def matrix(results: dict) -> tuple[list[str], list[dict]]:
    """(column labels, one row per holdout task): each cell the passes over the scored repeats."""
    rows = rows_of(results)
    tasks = list(results.get("holdout") or sorted({t for _, row in rows for t in row.get("scores", {})}))
    out = []
    for task in tasks:
        cells = []
        for _, row in rows:
            values = [v for v in (row.get("scores") or {}).get(task, []) if v is not None]
            if not values:
                cells.append({"text": "–", "share": None, "tip": f"{task}, {row['label']}: not scored"})
                continue
            passed = sum(1 for v in values if v >= 1.0)
            share = sum(values) / len(values)
            cells.append({"text": f"{passed}/{len(values)}", "share": share,
                          "tip": f"{task}, {row['label']}: {passed} of {len(values)} scored repeat(s) passed"})
        out.append({"task": task, "cells": cells})
    return [row["label"] for _, row in rows], out


def cell_style(share: float | None) -> str:
    """A background from red (0) through white to green (1): readable without a legend's colours too."""
    if share is None:
        return "background:#f3f4f6"
    if share >= 0.5:
        t = (share - 0.5) * 2
        rgb = (int(255 - t * (255 - 120)), int(255 - t * (255 - 190)), int(255 - t * (255 - 120)))
    else:
        t = (0.5 - share) * 2
        rgb = (int(255 - t * (255 - 232)), int(255 - t * (255 - 120)), int(255 - t * (255 - 120)))
    return f"background:rgb{rgb}"


def render_page(results: dict) -> str:
    env = Environment(loader=FileSystemLoader(Path(__file__).parent), undefined=StrictUndefined,
                      autoescape=select_autoescape(default=True, default_for_string=True))
    env.filters.update(pct=_pct, interval=_interval, share=_share, cellstyle=cell_style)
    columns, task_rows = matrix(results)
    return env.get_template("curve.html.j2").render(
        r=results, s=results["settings"], rows=[row for _, row in rows_of(results)], columns=columns,
        task_rows=task_rows, pass_chart=pass_rate_chart(results), diff_chart=difference_chart(results))

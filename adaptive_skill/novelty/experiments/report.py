"""Everything an experiment directory shows a reader, from its stored records: tables, plots and
the HTML page. It reads only the records of the current plan, so narrowing --conditions or
--repeats on a re-run reports just that slice."""

from __future__ import annotations

from pathlib import Path

from adaptive_skill.novelty.experiments.analysis import analyse
from adaptive_skill.novelty.experiments.page import write_page
from adaptive_skill.novelty.experiments.runner import Plan
from adaptive_skill.novelty.experiments.store import RecordStore
from adaptive_skill.novelty.experiments.tables import spend_text, write_tables


def write(plan: Plan, store: RecordStore, out: Path, *, model: str, embedder: str, plots: bool = True) -> list[Path]:
    records = list(store.records(plan.units()))
    settings = plan.settings
    analysis = analyse(records, plan.conditions, jump_threshold=settings.jump_threshold,
                       cluster_similarity=settings.cluster_similarity, seed=plan.base_seed)
    cost = sum(r["cost"]["usd"] for r in records)
    tokens = sum(r["cost"].get("tokens", 0) for r in records)
    meta = {"problems": len(plan.problems), "repeats": plan.repeats, "max_iterations": settings.max_iterations,
            "model": model, "embedder": embedder, "cost_usd": round(cost, 6), "tokens": tokens, "records": len(records),
            "planned": len(plan.units()), "threshold": settings.threshold, "jump_threshold": settings.jump_threshold}
    written = write_tables(analysis, out, meta)
    if plots:
        from adaptive_skill.novelty.experiments.plots import write_plots

        images = write_plots(analysis, out / "plots")
        intro = (f"{len(records)} of {len(plan.units())} planned runs; model {model}, embedder {embedder}; "
                 f"{settings.max_iterations} iterations per run; spent {spend_text(cost, tokens)}.")
        written += [*images, write_page(analysis, out, images, intro)]
    return written

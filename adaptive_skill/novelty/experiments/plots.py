"""The experiment's plots as PNG files. matplotlib is an optional extra: without it, one line
says which extra to install. The Agg backend draws without a display."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import numpy as np

from adaptive_skill.errors import UserError
from adaptive_skill.novelty.experiments.analysis import Analysis

EXTRA = "experiments"
_MAX_PANELS = 6  # projection panels (one per problem); more would be unreadable


def require_matplotlib() -> None:
    """Fail before an experiment spends model time on plots it cannot draw."""
    _pyplot()


def _pyplot():
    try:
        import matplotlib
    except ImportError:
        raise UserError(f"plots need matplotlib: pip install 'adaptive-skill[{EXTRA}]' "
                        "(or pass --no-plots)") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def write_plots(analysis: Analysis, out: Path) -> list[Path]:
    plt = _pyplot()
    out.mkdir(parents=True, exist_ok=True)
    colours = {c: plt.get_cmap("tab10")(i % 10) for i, c in enumerate(analysis.conditions)}
    drawn = []
    for name, draw in (("novelty_per_iteration.png", _per_iteration), ("novelty_distribution.png", _distribution),
                       ("embeddings_pca.png", _projection), ("flexibility.png", _flexibility)):
        figure = draw(plt, analysis, colours)
        figure.savefig(out / name, dpi=100, bbox_inches="tight")
        plt.close(figure)
        drawn.append(out / name)
    return drawn


def _per_iteration(plt, analysis: Analysis, colours):
    figure, axes = plt.subplots(figsize=(7, 4))
    for condition in analysis.conditions:
        by_iteration: dict[int, list[float]] = defaultdict(list)
        for row in analysis.rows:
            if row["condition"] == condition:
                for index, score in zip(row["iterations"], row["scores"], strict=True):
                    by_iteration[index].append(score)
        if by_iteration:
            xs = sorted(by_iteration)
            axes.plot(xs, [np.mean(by_iteration[x]) for x in xs], marker="o", label=condition, color=colours[condition])
    axes.set(xlabel="iteration", ylabel="mean novelty (centroid distance)", title="Novelty per iteration")
    axes.legend(fontsize="small")
    return figure


def _distribution(plt, analysis: Analysis, colours):
    figure, axes = plt.subplots(figsize=(7, 4))
    data = [[s for r in analysis.rows if r["condition"] == c for s in r["scores"]] for c in analysis.conditions]
    shown = [(c, d) for c, d in zip(analysis.conditions, data, strict=True) if d]
    if shown:
        parts = axes.boxplot([d for _, d in shown], patch_artist=True)
        axes.set_xticks(range(1, len(shown) + 1), [c for c, _ in shown], rotation=20)
        for patch, (condition, _) in zip(parts["boxes"], shown, strict=True):
            patch.set_facecolor(colours[condition])
            patch.set_alpha(0.6)
    axes.set(ylabel="novelty (centroid distance)", title="Novelty distribution per condition")
    return figure


def _projection(plt, analysis: Analysis, colours):
    problems = list(analysis.projections)[:_MAX_PANELS] or ["(no tasks)"]
    figure, axes = plt.subplots(1, len(problems), figsize=(4.5 * len(problems), 4), squeeze=False)
    for ax, problem in zip(axes[0], problems, strict=True):
        points, conditions = analysis.projections.get(problem, (np.zeros((0, 2)), []))
        for condition in analysis.conditions:
            mask = np.array([c == condition for c in conditions], dtype=bool)
            if mask.any():
                ax.scatter(points[mask, 0], points[mask, 1], s=18, label=condition, color=colours[condition])
        ax.set(title=f"{problem}: PCA of task embeddings", xlabel="PC1", ylabel="PC2")
    axes[0][0].legend(fontsize="small")
    return figure


def _flexibility(plt, analysis: Analysis, colours):
    figure, axes = plt.subplots(figsize=(7, 4))
    width = 0.4
    x = np.arange(len(analysis.conditions))
    for offset, metric, hatch in ((-width / 2, "flexibility", ""), (width / 2, "label_flexibility", "//")):
        cells = [analysis.summary[c][metric] for c in analysis.conditions]
        means = [cell["mean"] or 0.0 for cell in cells]
        errors = np.array([[m - _or(cell["low"], m) for m, cell in zip(means, cells, strict=True)],
                           [_or(cell["high"], m) - m for m, cell in zip(means, cells, strict=True)]])
        axes.bar(x + offset, means, width, yerr=errors, capsize=3, hatch=hatch, label=metric,
                 color=[colours[c] for c in analysis.conditions], edgecolor="black")
    axes.set_xticks(x, analysis.conditions, rotation=20)
    axes.set(ylabel="category switches per run", title="Flexibility (bars: 95% bootstrap interval)")
    axes.legend(fontsize="small")
    return figure


def _or(value: float | None, default: float) -> float:
    return default if value is None else value

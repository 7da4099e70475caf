"""Terminal output of `adaptive-skill novelty`: one block per iteration and a closing summary.

Colours come from rich and vanish when the stream is not a terminal, so the same text reads
well in a log file.
"""

from __future__ import annotations

from typing import TextIO

from rich.console import Console
from rich.markup import escape

from adaptive_skill.novelty.proposer import Iteration, ProposalRun

BAR_WIDTH = 20


def novelty_bar(score: float, threshold: float, width: int = BAR_WIDTH) -> str:
    """`[█████░░░…] 0.312` in rich markup, green at or above the threshold. Scores above 1 (possible
    with signed embeddings) fill the bar."""
    filled = max(0, min(width, round(score * width)))
    colour = "green" if score >= threshold else "yellow" if score >= threshold / 2 else "red"
    return f"[{colour}]{'█' * filled}[/{colour}][dim]{'░' * (width - filled)}[/dim] {score:.3f}"


class NoveltyDisplay:
    def __init__(self, stream: TextIO, threshold: float, *, quiet: bool = False, verbose: bool = False):
        self.console = Console(file=stream, highlight=False, soft_wrap=True)
        self.threshold = threshold
        self.quiet, self.verbose = quiet, verbose

    def start(self, seed: str, strategy: str, model: str, embedder: str) -> None:
        if not self.quiet:
            self.console.print(f"[bold]Seed:[/bold] {escape(seed)}")
            self.console.print(f"[dim]strategy {strategy} · model {escape(model)} · embedder {escape(embedder)}[/dim]")

    def iteration(self, it: Iteration) -> None:
        if self.quiet:
            return
        out = self.console
        out.print(f"\n[bold cyan]{it.index:>3}[/bold cyan]  [bold]{escape(it.perspective.label)}[/bold]")
        if not it.ok:
            out.print(f"     [red]failed ({it.error_kind}):[/red] {escape(it.error or '')}")
            return
        task, score = it.task, it.novelty
        out.print(f"     [bold]Task:[/bold] {escape(task.title)} [dim]({task.category} · {task.difficulty})[/dim]")
        if self.verbose:
            out.print(f"     [dim]{escape(task.instruction)}[/dim]")
            out.print(f"     [dim]why: {escape(task.rationale)}[/dim]")
        marks = []
        if it.breakthrough:
            marks.append("[bold magenta]★ breakthrough[/bold magenta]")
        if score.is_jump:
            marks.append("[blue]jump[/blue]")
        if score.is_duplicate:
            marks.append(f"[red]near-duplicate of #{it.nearest}[/red]")
        if it.new_cluster:
            marks.append(f"[dim]new cluster {it.cluster + 1}[/dim]")
        out.print(f"     novelty {novelty_bar(score.score, self.threshold)}  {'  '.join(marks)}".rstrip())
        if self.verbose:
            nearest = "-" if score.nearest_distance is None else f"{score.nearest_distance:.3f}"
            step = "-" if score.step_distance is None else f"{score.step_distance:.3f}"
            out.print(f"     [dim]nearest {nearest} · step {step} · cluster {it.cluster + 1} · "
                      f"{it.seconds:.1f}s[/dim]")

    def summary(self, run: ProposalRun) -> None:
        out, summary = self.console, run.summary
        colour = "red" if run.stop.kind in ("failures", "budget", "interrupted") or not run.proposals else "green"
        out.print(f"\n[bold]Stopped ({run.stop.kind}):[/bold] [{colour}]{escape(run.stop.message)}[/{colour}]")
        out.print(f"{len(run.iterations)} iterations, {len(run.proposals)} tasks, {run.failures} failed · "
                  f"novelty mean {summary.mean:.3f}, max {summary.max_score:.3f}, cumulative "
                  f"{summary.cumulative:.3f} · jumps {summary.jumps} ({summary.jump_ratio:.0%}) · "
                  f"clusters {len(run.cluster_sizes)}")
        if run.archive is not None:
            out.print(f"archive: {len(run.archive.cells)}/{run.archive.size} cells filled")
        best = run.breakthrough or run.best
        if best is None:
            out.print("[red]No task was proposed: every iteration failed.[/red]")
        else:
            label = "Breakthrough" if best.breakthrough else "Most novel"
            out.print(f"[bold magenta]{label}[/bold magenta] (#{best.index}, {escape(best.perspective.label)}, "
                      f"{best.novelty.score:.3f}): [bold]{escape(best.task.title)}[/bold]")
            out.print(f"  {escape(best.task.instruction)}")

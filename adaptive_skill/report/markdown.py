"""The report for a terminal: the run's facts, the cycles, the judge's calibration, the outcome
matrix and the spiral interventions, as Markdown tables (no trajectories: use the HTML viewer)."""

from __future__ import annotations

from adaptive_skill.report.model import Report


def render_markdown(report: Report) -> str:
    totals = report.run_totals
    lines = [f"# Run {report.name}", "",
             f"- status: {report.status}",
             f"- cycles: {sum(1 for r in report.rows if r.complete)} complete of {len(report.rows)}",
             f"- tags: {', '.join(report.tags) or 'none'}",
             f"- cost: ${totals.get('cost', 0.0):.4f}, tokens: {totals.get('total_tokens', 0)}",
             f"- paid for unfinished attempts (cut by a kill, stopped, or in flight): "
             f"${report.unfinished.totals.cost:.4f} over {report.unfinished.attempts} attempt(s), "
             f"{report.unfinished.totals.calls} call(s)",
             f"- spiral interventions: {len(report.interventions)} (after {report.detections} detections)", ""]
    lines += ["## Cycles", "", _row(["cycle", "judge mean", "change", "holdout mutated / baseline", "delta", "gate",
                                     "decision", "judge vs verifier (holdout)", "skills", "EGL", "cost"]),
              _row(["---"] * 11)]
    for row in report.rows:
        change = "; ".join(f"{verb} {', '.join(names)}" for verb, names in
                           (("created", row.created), ("changed", row.modified), ("deleted", row.deleted)) if names)
        change = change or ("none" if row.mutated is False else "")
        lines.append(_row([str(row.n) + ("" if row.complete else " (in progress)"), _n(row.batch_score),
                           "; ".join(part for part in (change, row.explored) if part),
                           f"{_n(row.mutated_mean)} / {_n(row.baseline_mean)}", _n(row.delta), row.gate_summary,
                           row.decision + (f": {row.reason}" if row.reason else ""), row.judge_agreement,
                           "" if row.skills is None else str(row.skills), _n(row.egl),
                           f"${sum(c.get('cost', 0.0) for c in row.costs.values()):.4f}"]))
    if report.calibration or report.holdout_calibration:
        lines += ["", "## Judge calibration"]
    if report.calibration:
        c = report.calibration
        lines += ["", f"All cycles: n={c['n']}, accuracy {_n(c['accuracy'])}, precision {_n(c['precision'])}, "
                      f"recall {_n(c['recall'])}, AUROC {_n(c['auroc'])} (pass = score >= {report.pass_threshold:g})"]
    if report.holdout_calibration:
        c = report.holdout_calibration
        lines += ["", f"Holdout attempts (the gate's judge checks): n={c['n']}, accuracy {_n(c['accuracy'])}, "
                      f"AUROC {_n(c['auroc'])}"]
    if report.skill_use:
        lines += ["", "## Skill use (attempts offered a skill, reading it, and their outcome against the same "
                      "tasks not reading it; train: judge score / 10, holdout: verifier)", "",
                  _row(["skill", "workspace", "side", "offered", "read", "outcome when read",
                        "same tasks, not read"]), _row(["---"] * 7)]
        lines += [_row([u.row.skill, u.row.version, u.side, str(u.row.offered), str(u.row.read),
                        _n(u.row.read_outcome), f"{_n(u.row.unread_outcome)} ({u.row.unread_same_tasks})"])
                  for u in report.skill_use]
    if report.human:
        lines += ["", f"## Human review ({report.human.ratings} ratings by {', '.join(report.human.raters)})", "",
                  _row(["items", "machine", "people", "n", "agreement", ""]), _row(["---"] * 6)]
        lines += [_row([c.kind, c.machine, c.people, str(c.n), "" if c.agreement is None else f"{c.agreement:.0%}",
                        c.detail]) for c in report.human.comparisons]
    if report.proposing:
        lines += ["", *_proposals(report)]
    matrix = report.matrix
    if matrix.tasks:
        lines += ["", "## Outcomes (verifier passes / attempts · mean score)", "", _row(["task", *matrix.columns]),
                  _row(["---"] * (len(matrix.columns) + 1))]
        lines += [_row([_task(report, task), *(matrix.summary(task, c) for c in matrix.columns)])
                  for task in matrix.tasks]
    if report.interventions:
        lines += ["", "## Spiral interventions", "", _row(["cycle", "phase", "task", "step", "detector", "action",
                                                           "what it saw"]), _row(["---"] * 7)]
        lines += [_row([str(e.attempt.cycle or ""), e.attempt.phase, _task(report, e.attempt.task), str(e.step),
                        e.detector, e.action, e.summary]) for e in report.interventions]
    return "\n".join(lines) + "\n"


def _proposals(report: Report) -> list[str]:
    lines = ["## Proposed tasks", ""]
    if not report.proposal_cycles:
        return [*lines, "No task proposed yet."]
    legacy = any(c.legacy for c in report.proposal_cycles)
    lines += [_row(["cycle", "proposed", "built", "sound", "admitted", "rejected by check",
                    *(["legacy, unverified"] if legacy else []), "cost", "tokens", "seconds"]),
              _row(["---"] * (10 if legacy else 9))]
    lines += [_row([str(c.cycle), str(c.made), str(c.built), str(c.sound), str(c.admitted), c.rejections or "none",
                    *([str(c.legacy)] if legacy else []), f"${c.cost.cost:.4f}", str(c.cost.total_tokens),
                    f"{c.seconds:.1f}"])
              for c in report.proposal_cycles]
    if report.proposals:
        lines += ["", _row(["task", "cycle", "title", "status", "reason", "oracle", "no-op agent", "novelty"]),
                  _row(["---"] * 8)]
        lines += [_row([p.id, "" if p.cycle is None else str(p.cycle), p.title, p.label, p.reason or "",
                        p.outcome("oracle")[0], p.outcome("nop")[0], _n(p.novelty)]) for p in report.proposals]
    return lines


def _task(report: Report, task: str) -> str:
    origin = report.origin(task)
    return f"{task} ({origin})" if origin else task


def _row(cells: list[str]) -> str:
    """A table row for a terminal; a cell cannot end the row, and a control character in it (an escape
    sequence a model wrote into a task title or a reason) is shown as '?', never sent to the terminal."""
    return "| " + " | ".join(plain(c.replace("|", "/")) for c in cells) + " |"


def plain(text: str) -> str:
    """Text a model wrote, safe to print on a terminal: line breaks and tabs as spaces, any other
    control character as '?'."""
    return "".join(c if c.isprintable() else " " if c in "\n\r\t" else "?" for c in text)


def _n(value: float | None) -> str:
    return "" if value is None else f"{value:g}"

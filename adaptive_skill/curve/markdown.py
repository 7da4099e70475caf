"""results.json -> results.md: the table of every workspace (pass rate, paired difference with the
seed, share of the expert's headroom, each with its 95% interval; attempts, time, tokens), the same on
the tasks the expert was not written from, and per cycle the gate's evidence and the skills written."""

from __future__ import annotations


def _pct(value) -> str:
    return "–" if value is None else f"{100 * value:.0f}%"


def _interval(d: dict) -> str:
    return f"{_pct(d.get('mean'))} [{_pct(d.get('low'))}, {_pct(d.get('high'))}]"


def _share(d: dict) -> str:
    if d.get("note"):
        return f"– ({d['note']})"
    if d.get("share") is None:
        return "– (no headroom)"
    low = "–" if d.get("low") is None else f"{d['low']:.2f}"
    high = "–" if d.get("high") is None else f"{d['high']:.2f}"
    return f"{d['share']:.2f} [{low}, {high}]"


def provenance(results: dict) -> list[str]:
    """Where each part ran, per session: UTC times, the code's commit, the machine and its load (none
    for a results.json written before 2026-12-03, which did not record them)."""
    sessions = [(part, one) for part, many in (results.get("provenance") or {}).items() for one in many]
    if not sessions:
        return []
    lines = ["", "Where each part ran (load: the 1-minute load average, sampled each minute; near the CPU count "
                 "means the measurement ran alone):", "",
             "| part | UTC | code | machine | load mean / max |", "|---|---|---|---|---|"]
    for part, one in sessions:
        code, host, load = one.get("code") or {}, one.get("machine") or {}, one.get("load") or {}
        commit = (code.get("commit") or "unknown")[:12] + (" (with changes)" if code.get("dirty") else "")
        memory = f", {host['memory_gb']} GB" if host.get("memory_gb") else ""
        cpu = f", {_cell(host['cpu'])}" if host.get("cpu") else ""
        shown = "–" if load.get("mean") is None else f"{load['mean']} / {load['max']}"
        lines.append(f"| {part} | {one.get('start', '?')} - {one.get('end', '?')} | {commit} "
                     f"| {host.get('cpus', '?')} CPUs{memory}{cpu} | {shown} |")
    return lines


def _cell(value) -> str:
    """A table cell of text a run wrote: one line, no column break."""
    return " ".join(str(value or "").split()).replace("|", "/")


def markdown(results: dict) -> str:
    s = results["settings"]
    lines = [f"Model `{s['model']}`, {len(results['holdout'])} holdout tasks x {s['repeats']} repeats "
             f"(temperature {s['temperature']}, seeded), {s['cycles']} cycle(s), {s['max_steps']} steps; "
             "95% paired bootstrap by task.", "",
             "| workspace | cycle | pass rate [95% CI] | vs seed [95% CI] | headroom share [95% CI] | attempts "
             "| wall s | tokens (prompt+completion) |",
             "|---|---:|---|---|---|---:|---:|---:|"]
    for row in results["curve"] + ([results["expert"]] if results["expert"] else []) + results.get("workspaces", []):
        cycle = "" if row["cycle"] is None else str(row["cycle"])
        lines.append(f"| {row['label']} | {cycle} | {_interval(row['pass_rate'])} | {_interval(row['vs_seed'])} "
                     f"| {_share(row['headroom_share'])} | {row['attempts']} | {row['wall_sec']} "
                     f"| {row['prompt_tokens']}+{row['completion_tokens']} |")
    if rounds := results.get("rounds"):
        used = f"gate rounds {rounds['first']}-{rounds['first'] + s['repeats'] - 1}"
        lines += ["", f"Repeats sampled with the seeds of {used}: " + (
            "fresh seeds, on which no gate decided." if rounds["fresh"] else
            "a tag's figures include the rounds its gate accepted it on (curve.first_round "
            f"{rounds['gate_rounds']} measures on fresh seeds).")]
    ev = results["evolve"]
    lines += ["", "no evolve run (curve.evolve: false; run.py --no-evolve)." if ev is None else
              f"evolve run: {ev['status']}; accepted {', '.join(ev['accepted']) or 'none'}; "
              f"{ev['wall_sec']} s, {ev['prompt_tokens']}+{ev['completion_tokens']} tokens, {ev['llm_calls']} calls."]
    for row in results.get("workspaces", []):
        lines += ["", f"{row['label']}: {row['path']}"]
    if unseen := results.get("expert_unseen"):
        lines += ["", f"The same on the {len(unseen['tasks'])} holdout tasks the expert was not written from (the "
                      "others are train tasks of the split its steps came from):", "",
                  "| workspace | pass rate [95% CI] | vs seed [95% CI] | headroom share [95% CI] |",
                  "|---|---|---|---|"]
        lines += [f"| {row['label']} | {_interval(row['pass_rate'])} | {_interval(row['vs_seed'])} "
                  f"| {_share(row['headroom_share'])} |" for row in unseen["rows"]]
    if twins := results.get("twins"):
        lines += ["", f"Apart: the {len(twins['twins'])} holdout tasks with a twin in the train pool (one command "
                      "solves both up to a path: recall of a sibling) and the other "
                      f"{len(twins['others'])} (a lesson that carries over):", "",
                  "| workspace | twins: pass rate | twins: vs seed [95% CI] | others: pass rate "
                  "| others: vs seed [95% CI] |", "|---|---|---|---|---|"]
        lines += [f"| {row['label']} | {_interval(row['on_twins']['pass_rate'])} "
                  f"| {_interval(row['on_twins']['vs_seed'])} | {_interval(row['on_others']['pass_rate'])} "
                  f"| {_interval(row['on_others']['vs_seed'])} |" for row in twins["rows"]]
        lines += ["", "Twins: " + "; ".join(f"{task} ({', '.join(of)})" for task, of in twins["twins"].items()) + "."]
    lines += provenance(results)
    if results.get("cycles"):
        lines += ["", "| cycle | evolver | gate rounds / attempts | holdout mutated / baseline | paired vs baseline "
                      "[95% CI] | tasks better / worse / same | decision |", "|---:|---|---|---|---|---|---|"]
        for c in results["cycles"]:
            own = f" (+{c['skill_rounds']} of the skills' own)" if c.get("skill_rounds") else ""
            gate = (f"{c['rounds']}{own} / {c['rollouts']}" if c["gated"] else "not gated")
            means = (f"{_pct(c['mutated_mean'])} / {_pct(c['baseline_mean'])}" if c["gated"] else "")
            moved = f"{c['tasks_better']} / {c['tasks_worse']} / {c['tasks_same']}" if c["gated"] else ""
            decision = ("accepted as " + c["tag"] if c.get("tag") else "rejected" if c["gated"] else "") + (
                f": {c['reason']}" if c.get("reason") else "")
            paired = _interval(c["vs_baseline"]) if c.get("vs_baseline") else ""
            lines.append(f"| {c['cycle']} | {(c['evolver'] or '').replace('|', '/')} | {gate} | {means} | {paired} "
                         f"| {moved} | {decision.replace('|', '/')} |")
        for c in results["cycles"]:
            if c.get("skill_decisions"):
                lines += ["", f"Cycle {c['cycle']}, the gate per skill (each changed skill on the holdout tasks "
                              "it was placed for):", "",
                          "| skill | tasks placed | paired vs baseline | verdict | reason |", "|---|---:|---:|---|---|"]
                lines += [f"| {_cell(d['skill'])} | {d['tasks']} | "
                          f"{'' if d.get('delta') is None else format(d['delta'] * 100, '+.1f') + ' pts'} | "
                          f"{_cell(d['verdict'])} | {_cell(d.get('reason'))} |" for d in c["skill_decisions"]]
            if c.get("untried_placements"):
                untried = sorted(c["untried_placements"].items())
                lines += ["", "Placed by the pruned library where no gate round ran that skill: "
                              + ", ".join(f"{task} -> {skill}" for task, skill in untried) + "."]
            elif "untried_placements" in c:
                lines += ["", "Every skill the pruned library places (or none) was placed there by a gate round "
                              "with that text."]
        for c in results["cycles"]:
            for path, text in c["skills"].items():
                lines += ["", f"Cycle {c['cycle']}, {path}:", "", "```markdown", text.rstrip(), "```"]
    return "\n".join(lines) + "\n"

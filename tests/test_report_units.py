"""Report and progress pieces without Docker: a run directory written by hand (a run that died
early, with a torn last event line), escaping of untrusted text, charts, bad input, and the
plain and quiet progress output."""

import io
import json
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

from adaptive_skill.llm.accounting import Accounting, attempt_scope
from adaptive_skill.llm.base import Usage
from adaptive_skill.progress import Display, attempt_status
from adaptive_skill.report import build, render_html, render_markdown
from adaptive_skill.report.svg import Series, bar_chart, line_chart
from adaptive_skill.report.trajectories import embed_json

REPO = Path(__file__).resolve().parents[1]


def report_cli(*args):
    return subprocess.run([sys.executable, "-m", "adaptive_skill", "report", "--run", *map(str, args)], capture_output=True,
                          text=True, cwd=REPO, timeout=120)


def early_crash(root: Path) -> Path:
    """A run that died in cycle 1's observe phase, before its workspace had a git repository."""
    run = root / "run-early"
    trajectories = run / "cycles" / "001" / "solve" / "trajectories"
    results = run / "cycles" / "001" / "solve" / "results"
    trajectories.mkdir(parents=True)
    results.mkdir(parents=True)
    (run / "config.yaml").write_text("max_skills: 4\nbatch_size: 1\n")
    trajectory = {"task_id": "t<1>", "status": "submitted", "usage": {"total_tokens": 10}, "cost": 0.5,
                  "events": [{"step": 1, "detector": "alternation", "action": "restart", "evidence": {"summary": "A-B"}}],
                  "steps": [{"index": 1, "tool": "bash", "argument": "x", "output": "<b>bold</b>" * 3, "exit_code": 0,
                             "message_index": 1}],
                  "messages": [{"role": "user", "content": "<script>alert(1)</script>"},
                               {"role": "assistant", "content": None, "tool_calls": [
                                   {"id": "1", "type": "function",
                                    "function": {"name": "bash", "arguments": '{"command": "echo \\u2028</script>"}'}}]},
                               {"role": "tool", "content": "cut"}]}
    (trajectories / "t<1>.json").write_text(json.dumps(trajectory))
    (results / "t<1>.json").write_text(json.dumps({"task_id": "t<1>", "agent": "llm", "passed": True, "reward": 1.0,
                                                   "failure_mode": None}))
    (run / "cycles" / "001" / "solve.json").write_text(json.dumps({"tasks": ["t<1>"], "results": []}))
    events = [{"v": 1, "ts": 1.0, "event": "run_start"}, {"v": 1, "ts": 2.0, "event": "cycle_start", "cycle": 1},
              {"v": 1, "ts": 3.0, "event": "phase_start", "cycle": 1, "phase": "solve"},
              {"v": 1, "ts": 4.0, "event": "phase_end", "cycle": 1, "phase": "solve",
               "cost": {"cost": 0.5, "total_tokens": 10}}]
    (run / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events) + '{"v": 1, "ts": 5.0, "ev')
    journal = Accounting(journal=run / "costs.jsonl")
    journal.where = {"cycle": 1, "phase": "solve"}
    with attempt_scope(results / "t<1>.json"):
        journal.record(role="agent", model="m", task_id="t<1>", usage=Usage(8, 2), cost=0.5)
    with (run / "costs.jsonl").open("a") as handle:
        handle.write('{"v": 1, "id": "torn", "cost": 0.')  # the kill came mid-line
    return run


def test_a_run_that_died_early(tmp_path):
    report = build(early_crash(tmp_path))
    assert report.status.startswith("running") and report.tags == []
    row = report.rows[0]
    assert row.n == 1 and row.done == ["solve"] and row.decision == "in progress" and row.skills is None
    assert report.max_skills == 4 and row.costs["agent"] == {"cost": 0.5, "tokens": 10.0}
    assert [(e.detector, e.action) for e in report.interventions] == [("alternation", "restart")]
    assert report.matrix.summary("t<1>", report.matrix.columns[0]) == "1/1"
    html = render_html(report)
    # untrusted text: escaped in the markup, and inside the JSON no '<' at all
    assert "<script>alert(1)</script>" not in html and "<b>bold</b>" not in html and "t&lt;1&gt;" in html
    data = re.search(r'<script type="application/json" id="trajectory-data">(.*?)</script>', html, re.S).group(1)
    assert "<" not in data and "\u2028" not in data
    viewer = json.loads(data)[report.attempts[0].id]
    assert viewer["messages"][0]["content"] == "<script>alert(1)</script>"
    assert viewer["messages"][1]["calls"] == [{"name": "bash", "arguments": "echo \u2028</script>"}]
    assert viewer["messages"][1]["step"]["full_output"] == "<b>bold</b>" * 3  # the model saw only "cut"
    assert viewer["messages"][1]["events"] == [{"detector": "alternation", "action": "restart", "summary": "A-B"}]
    assert "| t<1> | 1/1 |" in render_markdown(report)


def skill_use_run(root: Path) -> Path:
    """A run with one cycle's train attempts offered a skill (one read it, one did not), its holdout
    attempts (one read it and passed, one of a task without tests) and a gate.json whose judge check
    keeps its (score, passed) pairs, some of them garbled."""
    run = root / "run-skills"
    cycle = run / "cycles" / "001"
    (run / "config.yaml").parent.mkdir(parents=True)
    (run / "config.yaml").write_text("judge:\n  pass_threshold: 7\n")

    def attempt(folder: Path, task: str, read: bool, passed: bool, mode: str | None = None) -> None:
        (folder / "trajectories").mkdir(parents=True, exist_ok=True)
        (folder / "results").mkdir(parents=True, exist_ok=True)
        steps = [{"index": 1, "tool": "read_skill", "argument": "zip-install", "output": "body", "message_index": 2}]
        messages = [{"role": "system", "content": "s"}, {"role": "user", "content": "do it"},
                    {"role": "assistant", "content": "```read_skill\nzip-install\n```"},
                    {"role": "user", "content": "Observation (read_skill):\nbody"}]
        trajectory = {"task_id": task, "status": "submitted", "messages": messages if read else messages[:2],
                      "steps": steps if read else [],
                      "metadata": {"protocol": "text", "skills": ["zip-install"],
                                   "inline_skill": "<script>not an object</script>"}}
        (folder / "trajectories" / f"{task}.json").write_text(json.dumps(trajectory))
        (folder / "results" / f"{task}.json").write_text(json.dumps(
            {"task_id": task, "agent": "llm", "passed": passed, "reward": float(passed), "failure_mode": mode}))

    attempt(cycle / "solve", "t1", True, True)
    attempt(cycle / "solve", "t1-again", False, False)
    attempt(cycle / "gate-mutated" / "r1", "h1", True, True)
    attempt(cycle / "gate-mutated" / "r1", "h2", True, False, "unverified")
    (cycle / "solve.json").write_text(json.dumps({"tasks": ["t1", "t1-again"], "results": []}))
    (cycle / "observe.json").write_text(json.dumps({"items": [{"task": "t1", "verdict": {"score": 9}},
                                                              {"task": "t1-again", "verdict": None}]}))
    (cycle / "gate.json").write_text(json.dumps({
        "accepted": False, "reason": "r", "gated": True, "statistic": None, "rounds": 1,
        "judge_check": {"threshold": 7, "n": 3, "agreement": 0.667, "auroc": 1.0, "warning": False, "pairs": [[9.0, True], [2.0, False], [8.0, False], ["9", True], [5.0, "yes"],
                                          [True, True], [1.0], "x"]}}))
    events = [{"v": 1, "ts": 1.0, "event": "run_start"}, {"v": 1, "ts": 2.0, "event": "cycle_start", "cycle": 1}]
    (run / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))
    return run


def test_skill_use_and_holdout_calibration_reach_both_renderings(tmp_path):
    report = build(skill_use_run(tmp_path))
    c = report.holdout_calibration
    assert c["n"] == 3 and c["confusion"] == {"tp": 1, "fp": 1, "tn": 1, "fn": 0}  # the garbled pairs are left out
    rows = {(u.side, u.row.skill): u.row for u in report.skill_use}
    assert set(rows) == {("train", "zip-install"), ("holdout", "zip-install")}
    train = rows[("train", "zip-install")]
    assert (train.offered, train.read, train.read_outcome) == (2, 1, 0.9)
    holdout = rows[("holdout", "zip-install")]
    assert (holdout.offered, holdout.read, holdout.read_outcome) == (2, 2, 1.0)  # h2 has no tests: no outcome
    html = render_html(report)
    assert '<section id="skill-use">' in html and 'href="#skill-use"' in html and "holdout (gate checks)" in html
    assert "<script>not an object" not in html
    markdown = render_markdown(report)
    assert "## Skill use" in markdown and "Holdout attempts (the gate's judge checks): n=3" in markdown
    assert "| zip-install |" in markdown


def test_the_explore_phase_in_words_and_nothing_for_a_torn_record():
    from adaptive_skill.report.cycles import explored

    record = {"tasks": ["a", "b", "c"], "attempts": [
        {"task": "a", "attempt": 1, "temperature": 1.0, "passed": False},
        {"task": "a", "attempt": 2, "temperature": 1.0, "passed": True},
        {"task": "b", "attempt": 1, "temperature": 1.0, "passed": False}, "junk"]}
    assert explored(record) == "explore: 1 of 3 unpassed task(s) passed at temperature 1 (3 attempt(s)): a"
    assert explored({}) == explored({"tasks": "x", "attempts": []}) == explored(None) == ""


def test_an_older_run_without_pairs_or_skills_has_neither_section(tmp_path):
    run = skill_use_run(tmp_path)
    (run / "cycles" / "001" / "gate.json").write_text(json.dumps({  # as written before the pairs were kept
        "accepted": False, "reason": "r", "gated": True, "statistic": None, "rounds": 1,
        "judge_check": {"threshold": 7, "n": 2, "agreement": 0.5, "auroc": None, "warning": False}}))
    for path in run.rglob("trajectories/*.json"):
        data = json.loads(path.read_text())
        data["metadata"] = {"protocol": "text"}  # before metadata.skills
        data["steps"], data["messages"] = [], data["messages"][:2]
        path.write_text(json.dumps(data))
    report = build(run)
    assert report.holdout_calibration is None and report.skill_use == []
    html = render_html(report)
    assert 'id="skill-use"' not in html and "holdout (gate checks)" not in html
    assert "## Skill use" not in render_markdown(report)
    from adaptive_skill.report.model import _holdout_points

    garbled = [{"judge_check": ["not", "an", "object"]}, {"judge_check": {"pairs": "x"}}, {"judge_check": None}, {}]
    cycles = [SimpleNamespace(n=n, get=lambda phase, gate=gate: gate) for n, gate in enumerate(garbled)]
    assert _holdout_points(SimpleNamespace(cycles=cycles)) == []


def test_embed_json_cannot_end_its_script_element():
    text = embed_json({"a": "</script><!-- & \u2028\u2029"})
    assert not set(text) & set("<>&\u2028\u2029")
    assert json.loads(text) == {"a": "</script><!-- & \u2028\u2029"}


def test_charts_escape_their_text_and_leave_gaps():
    svg = line_chart("a <b>", ["1", "2", "3"], [Series("s&t", "#000", [1.0, None, 3.0])], guides=[(2.0, "<g>")])
    assert "<b>" not in svg and "a &lt;b&gt;" in svg and "s&amp;t" in svg and "&lt;g&gt;" in svg
    assert svg.count("<circle") == 2 and "<polyline" in svg
    bars = bar_chart("cost", ["1", "2"], [Series("x", "#111", [0.02, 0.0]), Series("y", "#222", [0.01, None])])
    assert bars.count('class="bar"') == 2 and bars.startswith("<svg") and bars.endswith("</svg>")


def test_bad_input_is_one_line_and_exit_2(tmp_path):
    missing = report_cli(tmp_path / "nope")
    assert missing.returncode == 2 and missing.stderr.strip() == f"error: {tmp_path / 'nope'}: no such run directory"
    (tmp_path / "empty").mkdir()
    empty = report_cli(tmp_path / "empty")
    assert empty.returncode == 2 and len(empty.stderr.strip().splitlines()) == 1
    assert "not a run directory" in empty.stderr
    assert report_cli(early_crash(tmp_path), "--format", "md").returncode == 0


def attempt(tmp_path, passed, mode, actions=()):
    path = tmp_path / f"{len(list(tmp_path.iterdir()))}.json"
    path.write_text(json.dumps({"events": [{"action": "detected"}] + [{"action": a} for a in actions]}))
    return SimpleNamespace(task_id="task-a", passed=passed, failure_mode=mode, trajectory_path=str(path))


def test_attempt_status(tmp_path):
    assert attempt_status(attempt(tmp_path, True, None)) == ("passed", "")
    assert attempt_status(attempt(tmp_path, False, "unresolved", ["nudge", "restart"])) == (
        "failed", "unresolved; spiral intervention: nudge, restart")
    assert attempt_status(attempt(tmp_path, False, "sandbox_error")) == ("error", "sandbox_error")


def test_plain_progress_is_one_line_per_event(tmp_path):
    stream = io.StringIO()  # not a terminal: auto means plain
    display = Display(stream=stream)
    assert display.mode == "plain"
    spent = [1.0]
    display.cycle(lambda: spent[0])
    with display.phase("cycle 1 solve", 2) as progress:
        progress.started("task-a")
        spent[0] = 1.25
        progress.attempt(attempt(tmp_path, False, "unresolved", ["nudge"]))
        progress.attempt(attempt(tmp_path, True, None), cached=True)
    with display.phase("cycle 1 judge", 1, role="judge") as progress:
        display.on_call(SimpleNamespace(role="judge"))
        display.on_call(SimpleNamespace(role="agent"))
        progress.verdicts([SimpleNamespace(task_id="task-a", status="ok", score=3.0, failure_reason="no check")], 7.0)
    display.on_call(SimpleNamespace(role="judge"))  # outside a phase: ignored
    lines = stream.getvalue().splitlines()
    assert lines[0] == "cycle 1 solve: 2 to do"
    assert lines[1] == "[1/2] failed task-a · unresolved; spiral intervention: nudge · cycle cost $0.2500"
    assert lines[2] == "[2/2] passed task-a · done before · cycle cost $0.2500"
    assert re.fullmatch(r"cycle 1 solve: 2/2 done, 1 failed, \d+s, cycle cost \$0\.2500", lines[3])
    assert lines[5] == "[1/1] failed by judge task-a · score 3: no check · cycle cost $0.2500"
    assert progress.calls == 1 and len(lines) == 7


def test_a_free_models_progress_says_nothing_of_cost(tmp_path):
    """A model that costs nothing (served locally, `free: true`) once ended every line in "cycle cost
    $0.0000"; the cost shows from the first cent."""
    stream = io.StringIO()
    display = Display("plain", stream)
    spent = [0.0]
    display.cycle(lambda: spent[0])
    with display.phase("cycle 1 solve", 2) as progress:
        progress.attempt(attempt(tmp_path, True, None))
        spent[0] = 0.0001
        progress.attempt(attempt(tmp_path, True, None))
    lines = stream.getvalue().splitlines()
    assert lines[1] == "[1/2] passed task-a"
    assert lines[2] == "[2/2] passed task-a · cycle cost $0.0001"
    assert display.cost_text() == "cycle cost $0.0001"
    spent[0] = 0.0
    display.cycle(lambda: spent[0])
    with display.phase("cycle 2 solve", 1) as progress:
        progress.attempt(attempt(tmp_path, False, "unresolved"))
    assert "cost" not in stream.getvalue().split("cycle 2 solve: 1 to do", 1)[1]


def test_quiet_progress_prints_only_the_log(tmp_path):
    stream = io.StringIO()
    display = Display("quiet", stream)
    with display.phase("cycle 1 solve", 1) as progress:
        progress.attempt(attempt(tmp_path, True, None))
    display.log("cycle 1 gate: accepted")
    assert stream.getvalue() == "cycle 1 gate: accepted\n"


def test_a_judge_phase_says_it_moves_before_its_results_come(tmp_path):
    """The judge's verdicts come as one batch at its end (100 verdicts took 16 min on the family curve,
    2026-12-07, with no line between): plain mode prints a line every CALLS_PER_LINE model calls."""
    from adaptive_skill.progress import CALLS_PER_LINE

    stream = io.StringIO()
    display = Display("plain", stream)
    with display.phase("cycle 1 judge", 25, role="judge"):
        for _ in range(25):
            display.on_call(SimpleNamespace(role="judge"))
            display.on_call(SimpleNamespace(role="agent"))  # another role's calls are not this phase's
    lines = stream.getvalue().splitlines()
    moving = [line for line in lines if "model calls" in line]
    assert len(moving) == 25 // CALLS_PER_LINE == 2
    assert re.fullmatch(r"cycle 1 judge: 10 model calls \(about 25 in all\), \d+s", moving[0])
    with display.phase("cycle 1 evolve", 1, role="evolver"):
        for _ in range(CALLS_PER_LINE):
            display.on_call(SimpleNamespace(role="evolver"))
    assert re.fullmatch(r"cycle 1 evolve: 10 model calls, \d+s", stream.getvalue().splitlines()[-2])

"""`adaptive-skill spiral scan` and the replay behind it: steps rebuilt from chat messages (both
tool protocols), recorded steps preferred, the JSON report, one-line errors, and event_summary."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from adaptive_skill.config import SpiralConfig
from adaptive_skill.embed.lexical import LexicalEmbedder
from adaptive_skill.spiral.scan import scan
from adaptive_skill.trajectory import TrajectoryError, as_view, event_summary, load_view
from adaptive_skill.trajectory.rebuild import rebuild_steps

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures" / "trajectories"


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "adaptive_skill", "spiral", "scan", *args], capture_output=True,
                          text=True, cwd=REPO, timeout=120)


def scan_file(name: str, **settings) -> dict:
    return scan(load_view(FIXTURES / name), SpiralConfig.model_validate(settings), LexicalEmbedder())


# -- the command ----------------------------------------------------------------------------------


def test_cli_reports_a_loop_as_json():
    result = cli(str(FIXTURES / "loop_native.json"), "--format", "json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert set(report) == {"spiral", "first_step", "failed_steps", "events"}
    assert report["spiral"] is True and report["first_step"] == 4
    for event in report["events"]:  # the shape of before, and interventions say why
        extra = {"explanation"} if event["action"] != "detected" else set()
        assert set(event) == {"step", "detector", "score", "action", "evidence"} | extra
        assert isinstance(event["score"], float) and isinstance(event["evidence"], dict)
    nudge = next(e for e in report["events"] if e["action"] == "nudge")
    assert nudge["step"] == 4 and nudge["detector"] == "exact_repetition"
    # `./run.sh` and `/app/run.sh` after `cd /app` are one action
    detection = next(e for e in report["events"] if e["detector"] == "exact_repetition")
    assert detection["evidence"]["action"] == "bash:run.sh" and detection["evidence"]["steps"] == [2, 3, 4]


def test_cli_healthy_trajectories_and_overrides(tmp_path):
    for name in ("healthy_long_run.json", "healthy_polling.json"):
        result = cli(str(FIXTURES / name), "--format", "json")
        report = json.loads(result.stdout)
        assert result.returncode == 0 and report.pop("failed_steps") is not None
        assert report == {"spiral": False, "first_step": None, "events": []}, (name, result.stdout)
    config = tmp_path / "strict.yaml"
    config.write_text("spiral:\n  poll_tolerance: 1.0\n")
    strict = json.loads(cli(str(FIXTURES / "healthy_polling.json"), "--config", str(config), "--format", "json").stdout)
    assert strict["spiral"] is True  # without the tolerance for waiting commands, four refused polls are a loop
    off = json.loads(cli(str(FIXTURES / "loop_native.json"), "--set", "spiral.threshold=100", "--format", "json").stdout)
    assert off["spiral"] is False and off["events"]  # still detected, never acted on


@pytest.mark.parametrize(("name", "message"), [
    ("missing.json", "no such trajectory file"),
    ("broken.json", "broken.json:2: not JSON"),
    ("not_a_trajectory.json", "expected a list of chat messages or an object with 'messages'"),
])
def test_cli_bad_file_is_one_line_and_exit_2(name, message):
    result = cli(str(FIXTURES / name))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and str(FIXTURES / name) in result.stderr and message in result.stderr


def test_cli_bad_config_value():
    result = cli(str(FIXTURES / "loop_native.json"), "--set", "spiral.ladder=[nudge,explode]")
    assert result.returncode == 2 and "spiral.ladder" in result.stderr and "Traceback" not in result.stderr


# -- replay ------------------------------------------------------------------------------------------


def test_rebuilt_steps_text_protocol():
    trajectory = load_view(FIXTURES / "healthy_long_run.json")
    steps = trajectory.steps
    assert len(steps) == 35 and trajectory.instruction.startswith("Build a command-line tool csvstat.py")
    assert (steps[0].tool, steps[0].argument, steps[0].exit_code) == ("bash", "ls -la", 0)
    assert steps[5].exit_code == 1 and steps[5].output.endswith("1 failed in 0.05s")  # marker line stripped
    assert steps[-1].tool == "submit" and steps[-1].argument == "csvstat.py with tests"
    assert [s.message_index for s in steps[:2]] == [2, 4]


def test_rebuilt_steps_native_protocol_and_refusals():
    monologue = load_view(FIXTURES / "monologue_text.json").steps
    assert [s.tool for s in monologue] == ["bash", None, None, None, None]
    assert monologue[1].error == "format: no fenced block in the reply"
    messages = [
        {"role": "system", "content": "s"}, {"role": "user", "content": "task"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "a", "type": "function", "function": {"name": "bash", "arguments": '{"command": "sleep 9"}'}}]},
        {"role": "tool", "tool_call_id": "a", "content": "\n[command timed out and was killed]"},
        {"role": "assistant", "content": "", "tool_calls": [
            {"id": "b", "type": "function", "function": {"name": "python", "arguments": '{"code": "1"}'}}]},
        {"role": "tool", "tool_call_id": "b", "content": "Your reply could not be used: unknown tool 'python' "
                                                         "(tools: bash, read_skill, submit). Reply with exactly one "
                                                         "fenced block: ..."},
        {"role": "assistant", "content": [{"type": "text", "text": "thinking"}]},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c", "type": "function", "function": {"name": "read_skill", "arguments": '{"name": "nope"}'}}]},
        {"role": "tool", "tool_call_id": "c", "content": "error: no skill named 'nope'"},
    ]
    steps = rebuild_steps(messages)
    assert [(s.index, s.tool) for s in steps] == [(1, "bash"), (2, None), (3, None), (4, "read_skill")]
    assert steps[0].timed_out and steps[0].exit_code is None
    assert steps[1].error.startswith("format: unknown tool 'python'")
    assert steps[2].error is None  # a turn without action; malformed only when the agent answered so
    assert steps[3].error == "no skill named 'nope'"


def test_recorded_steps_are_preferred_over_messages():
    data = json.loads((FIXTURES / "timeouts_recorded.json").read_text())
    trajectory = as_view(data)
    assert all(s.timed_out and s.duration_sec == 120.0 for s in trajectory.steps)
    report = scan_file("timeouts_recorded.json")
    assert report["first_step"] == 3
    assert any(e["detector"] == "repeated_errors" and e["evidence"]["error"].startswith("timeout:")
               for e in report["events"])
    # the recorded durations and tokens feed the hard limits too
    limited = scan_file("timeouts_recorded.json", limits={"max_wall_time_sec": 200})
    assert [(e["step"], e["action"]) for e in limited["events"] if e["action"] != "detected"] == [(2, "terminate")]


def test_monologue_fixture_and_replay_stops_where_the_agent_would():
    report = scan_file("monologue_text.json")
    assert report["first_step"] == 4
    assert {"monologue", "semantic_repetition"} <= {e["detector"] for e in report["events"]}
    ladder = scan_file("loop_native.json", ladder=["escalate"])
    assert ladder["first_step"] == 4 and max(e["step"] for e in ladder["events"]) == 4


def test_scan_of_a_bare_message_list_and_of_the_agent_shape_agree():
    messages = json.loads((FIXTURES / "loop_native.json").read_text())["messages"]
    bare = scan(as_view(messages), SpiralConfig(), LexicalEmbedder())
    wrapped = scan(as_view({"messages": messages}), SpiralConfig(), LexicalEmbedder())
    assert bare == wrapped and bare["first_step"] == 4


def test_load_errors_name_the_file(tmp_path):
    with pytest.raises(TrajectoryError, match="not_a_trajectory.json: expected"):
        load_view(FIXTURES / "not_a_trajectory.json")
    bad_steps = tmp_path / "bad_steps.json"
    bad_steps.write_text(json.dumps({"messages": [], "steps": [{"index": 1, "tool": "bash", "oops": 1}, 3]}))
    with pytest.raises(TrajectoryError, match="bad_steps.json: 'steps' is not a list"):
        load_view(bad_steps)


def test_event_summary_counts_what_the_judge_needs():
    assert event_summary([])["count"] == 0
    events = [
        {"step": 3, "detector": "exact_repetition", "score": 1.0, "action": "detected", "evidence": {}},
        {"step": 3, "detector": "repeated_errors", "score": 1.0, "action": "detected", "evidence": {}},
        {"step": 3, "detector": "exact_repetition", "action": "nudge", "evidence": {"score": 1.6}},
        {"step": 5, "detector": "exact_repetition", "score": 1.3, "action": "detected", "evidence": {}},
        {"step": 5, "detector": "exact_repetition", "action": "escalate", "evidence": {"score": 1.3}},
    ]
    assert event_summary(events) == {
        "count": 2, "detections": 3,
        "by_detector": {"exact_repetition": 2}, "detected_by": {"exact_repetition": 2, "repeated_errors": 1},
        "by_action": {"nudge": 1, "escalate": 1}, "steps": [3, 5],
        "first_detection_step": 3, "first_intervention_step": 3, "strongest_action": "escalate"}


# -- explanations -----------------------------------------------------------------------------------

CORPUS = REPO / "tests" / "fixtures" / "spiral-corpus" / "runs"


def _interventions(run: str) -> list[dict]:
    report = scan(load_view(next(CORPUS.glob(f"{run}-*.json"))), SpiralConfig(), LexicalEmbedder())
    return [e for e in report["events"] if e["action"] != "detected"]


def test_each_intervention_explains_its_evidence():
    """The explanation names the detector, the steps and what repeated: the command and the error,
    the settings tweaked and the check re-run, the versions that came back, the look-ups made."""
    first = _interventions("00")[0]  # the same link error with new temp names
    text = first["explanation"]
    assert first["step"] == 11 and "stagnation" in text and "semantic_repetition" in text
    assert "undefined reference to `ringbuf_grow'" in text and re.search(r"steps [\d, -]*\b11\b", text)
    assert "risk" in text and "nudge" in text

    tweak = _interventions("110")[0]["explanation"]  # chunk sizes tweaked, the bench re-run
    assert "parameter_tweak" in tweak and "`chunksize=16`" in tweak and "`python3 bench.py`" in tweak
    assert "did not improve (seconds 19." in tweak

    flip = _interventions("118")[0]["explanation"]  # utf-8-sig added and removed with sed, python, perl
    assert "etl/load.py went back and forth" in flip and "steps 4, 7, 9, 11" in flip
    assert "KeyError: 'order_id'" in flip and "UnicodeDecodeError" in flip

    lookups = _interventions("138")[0]["explanation"]  # pg_dump looked for in other words
    assert "intent_repetition" in lookups and "4 look-ups at steps 12-15" in lookups
    assert "`locate bin/pg_dump`" in lookups and "none found anything new" in lookups

    drift = _interventions("100")[0]["explanation"]  # tooling nobody asked for
    assert "unasked_work" in drift and "typecheck" in drift and "packaging" in drift


def test_scan_as_text_one_paragraph_per_intervention(tmp_path):
    run = next(CORPUS.glob("151-*.json"))  # a job stuck at 137 of 200, polled
    result = cli(str(run), "--format", "text", "--set", "spiral.ladder=[nudge,restart]")
    assert result.returncode == 0, result.stderr
    paragraphs = result.stdout.strip().split("\n\n")
    assert paragraphs[0].startswith("A spiral: first intervention at step 33")
    assert paragraphs[1].startswith("Step 33, nudge: intent_repetition") and "out never gave a new answer" in paragraphs[1]
    assert "steps 29, 31, 33" in paragraphs[1] and len(paragraphs) == 1 + len(_interventions_with(run))
    quiet = cli(str(FIXTURES / "healthy_long_run.json"))  # text is the default
    assert quiet.stdout.startswith("No spiral: the monitor would not have intervened") and "\n\n" not in quiet.stdout


def _interventions_with(run: Path) -> list[dict]:
    config = SpiralConfig.model_validate({"ladder": ["nudge", "restart"]})
    return [e for e in scan(load_view(run), config, LexicalEmbedder())["events"] if e["action"] != "detected"]

"""The trajectory kernel: every supported format read into one step model, one failure
definition shared by signals, compression and the spiral monitor, strict reading of hostile files."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adaptive_skill.config import SpiralConfig
from adaptive_skill.embed.lexical import LexicalEmbedder
from adaptive_skill.observe import compress, extract_signals
from adaptive_skill.observe.compress import raw_text
from adaptive_skill.spiral.scan import scan
from adaptive_skill.trajectory import TrajectoryError, as_view, find_failures, load_view
from adaptive_skill.trajectory.text import clip

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures" / "trajectories"
UNREADABLE = {"broken.json", "not_a_trajectory.json"}
READABLE = sorted(p.name for p in FIXTURES.glob("*.json") if p.name not in UNREADABLE)
NO_STOP = SpiralConfig.model_validate({"threshold": 1e9})  # the monitor watches every step, never halts


@pytest.mark.parametrize(("name", "fmt", "failures", "status"), [
    # OpenAI chat, no exit codes: errors and a timeout known from the output alone
    ("chat_no_exit_codes.json", "chat",
     {2: "output", 3: "output", 4: "output", 6: "timeout", 8: "output", 9: "output"}, None),
    ("chat_wrapped_parts.json", "chat", {1: "output", 5: "timeout", 7: "output"}, "submitted"),
    ("text_protocol_no_exit_codes.json", "text protocol", {2: "output", 3: "output", 5: "output"}, "submitted"),
    # mini-swe-agent: return codes in the text; grep's and diff's exit 1 are answers, not failures
    ("mini_swe_agent_v1.json", "mini-swe-agent", {2: "exit", 4: "timeout", 5: "format", 7: "exit"}, "submitted"),
    ("mini_swe_agent_v2_toolcalls.json", "mini-swe-agent", {2: "exit", 3: "timeout", 6: "traceback"}, "submitted"),
    ("loop_native.json", "chat", {i: "exit" for i in range(2, 8)}, None),
    ("timeouts_recorded.json", "adaptive-skill", {i: "timeout" for i in range(1, 5)}, "step_limit"),
])
def test_each_format_reads_into_steps_with_its_failures(name, fmt, failures, status):
    view = load_view(FIXTURES / name)
    assert view.format == fmt and view.status == status
    assert {f.step: f.kind for f in find_failures(view.steps)} == failures
    signals = extract_signals(view)
    assert signals.n_errors == sum(k != "timeout" for k in failures.values())
    assert signals.n_timeouts == sum(k == "timeout" for k in failures.values())


def test_mini_swe_agent_details():
    v1 = load_view(FIXTURES / "mini_swe_agent_v1.json")
    assert [s.exit_code for s in v1.steps[:3]] == [0, 1, 1] and v1.steps[0].output == "dates.py\n__init__.py\n"
    assert v1.steps[-1].tool == "submit" and v1.submission.startswith("diff --git")
    assert v1.instruction.startswith("<pr_description>")
    v2 = load_view(FIXTURES / "mini_swe_agent_v2_toolcalls.json")
    assert v2.steps[2].timed_out and v2.steps[1].output.endswith("IndexError: list index out of range\n")
    assert v2.steps[-1].tool == "submit" and v2.submission == ""


def test_unknown_exits_say_so_never_ok():
    view = load_view(FIXTURES / "chat_no_exit_codes.json")
    assert all(s.exit_code is None for s in view.steps) and extract_signals(view).exits_unknown == 10
    assert compress(view, 10_000).level == "raw"  # a short run: the transcript is shorter than any summary
    data = json.loads((FIXTURES / "chat_no_exit_codes.json").read_text())
    data[3]["content"] = "".join(f"file_{i}.py\n" for i in range(300))  # a long listing: now compression pays
    text = compress(data, 10_000).text
    lines = text.splitlines()
    for number, line in enumerate(lines[:-1]):
        if re.match(r"steps? [\d, .]+.* \$ ", line):
            assert lines[number + 1] != "  -> ok", (line, text)
    assert "-> exit unknown" in text and "-> error in the output (exit unknown)" in text


@pytest.mark.parametrize("name", READABLE)
def test_signals_compression_and_monitor_count_the_same_failures(name):
    view = load_view(FIXTURES / name)
    failures = find_failures(view.steps)
    signals = extract_signals(view)
    result = compress(view, 2000)
    report = scan(view, NO_STOP, LexicalEmbedder())
    assert (signals.n_failures == result.n_errors + result.n_timeouts == len(report["failed_steps"])
            == len(failures)), name
    assert report["failed_steps"] == [f.step for f in failures]
    if result.level != "raw":
        header = result.text.splitlines()[0]
        assert f", {signals.n_errors} errors, {signals.n_timeouts} timeouts," in header
        listed = _listed_steps(result.text)
        assert listed == sorted(f.step for f in failures), (name, result.text)


@pytest.mark.parametrize("name", READABLE)
def test_compression_keeps_every_error_with_its_command_and_is_never_longer(name):
    view = load_view(FIXTURES / name)
    raw = raw_text(view)
    for budget in (300, 2000, 100_000):
        result = compress(view, budget)
        assert len(result.text) <= len(raw) and result.tokens <= result.raw_tokens, (name, budget)
    result = compress(view, 2000)
    assert result.level in ("full", "raw"), name  # these runs fit: nothing is cut
    for failure in find_failures(view.steps):
        command = (failure.command.strip().splitlines() or [""])[0]
        if result.level == "raw":
            at = raw.index(command) if command else 0
            for line in failure.lines:  # as the model read it: in a JSON tool result, escaped
                shown = line.split(" [...] ")[0][:60]
                assert shown in raw[at:] or json.dumps(shown)[1:-1] in raw[at:], (name, failure)
            continue
        entry = _entry(result.text, failure.step)
        assert clip(command, 120) in entry, (name, failure.step, entry)
        for line in failure.lines:
            assert clip(line, 240) in entry, (name, failure.step, line, entry)


def _listed_steps(text: str) -> list[int]:
    steps: list[int] = []
    for section in re.findall(r"^## (?:Errors|Timeouts) \(\d+\)\n(.*?)(?=^## |\Z)", text, re.MULTILINE | re.DOTALL):
        for label in re.findall(r"^steps? ([\d, ]+)", section, re.MULTILINE):
            steps += [int(n) for n in re.findall(r"\d+", label)]
    return sorted(steps)


def _entry(text: str, step: int) -> str:
    """The Errors or Timeouts entry of one step: its label line and the lines under it."""
    for section in re.findall(r"^## (?:Errors|Timeouts) \(\d+\)\n(.*?)(?=^## |\Z)", text, re.MULTILINE | re.DOTALL):
        for entry in re.split(r"\n(?=steps? \d)", section):
            label = re.match(r"steps? ([\d, ]+)", entry)
            if label and step in [int(n) for n in re.findall(r"\d+", label.group(1))]:
                return entry
    raise AssertionError(f"step {step} is in no Errors or Timeouts entry:\n{text}")


# -- strict reading ------------------------------------------------------------------------------

GOOD = [{"role": "system", "content": "s"}, {"role": "user", "content": "task"}]


@pytest.mark.parametrize(("message", "says"), [
    ({"role": 3, "content": "x"}, "message 2: 'role' must be one of"),
    ({"role": "wizard", "content": "x"}, "message 2: 'role' must be one of"),
    ({"content": "x"}, "message 2: 'role' must be one of"),
    ({"role": "user", "content": 42}, "message 2: 'content' must be a string or a list of parts"),
    ({"role": "user", "content": {"text": "x"}}, "message 2: 'content' must be a string or a list of parts"),
    ({"role": "user", "content": ["plain"]}, "message 2: content part 0 must be an object"),
    ({"role": "user", "content": [{"type": "text", "text": 5}]}, "message 2: content part 0: 'text' must be a string"),
    ({"role": "assistant", "tool_calls": {"id": "a"}}, "message 2: 'tool_calls' must be a list"),
    ({"role": "assistant", "tool_calls": ["ls"]}, "message 2: tool call 0 must be an object"),
    ({"role": "assistant", "tool_calls": [{"id": "a"}]}, "message 2: tool call 0: 'function' must be an object"),
    ({"role": "assistant", "tool_calls": [{"id": "a", "function": {"name": 1}}]}, "'function.name' must be a string"),
    ({"role": "assistant", "tool_calls": [{"id": "a", "function": {"name": "bash", "arguments": [1]}}]},
     "'function.arguments' must be a JSON string or an object"),
    ({"role": "tool", "tool_call_id": 7, "content": "x"}, "message 2: 'tool_call_id' must be a string or null, not a number"),
    ({"role": "tool", "name": ["bash"], "content": "x"}, "message 2: 'name' must be a string or null, not a list"),
    ({"role": "assistant", "tool_calls": [{"id": 1, "function": {"name": "bash"}}]},
     "message 2: tool call 0: 'id' must be a string or null, not a number"),
    ({"role": "user", "content": [{"type": True}]}, "message 2: content part 0: 'type' must be a string, not true/false"),
    ("just text", "message 2: expected an object"),
])
def test_bad_messages_are_one_error_naming_the_index(message, says):
    for data in ([*GOOD, message], {"messages": [*GOOD, message]}):
        with pytest.raises(TrajectoryError, match=re.escape(says)):
            as_view(data)


@pytest.mark.parametrize(("data", "says"), [
    ({"messages": GOOD, "steps": [{"index": "1"}]}, "step 0: 'index' must be a whole number"),
    ({"messages": GOOD, "steps": [{"index": 1, "output": ["x"]}]}, "step 0: 'output' must be a string"),
    ({"messages": GOOD, "steps": [{"index": 1, "timed_out": "yes"}]}, "step 0: 'timed_out' must be true or false"),
    ({"messages": GOOD, "events": ["nudge"]}, "event 0: expected an object"),
    ({"messages": GOOD, "events": [{"step": "3"}]}, "event 0: 'step' must be a whole number or null, not a string"),
    ({"messages": GOOD, "events": [{"step": True}]}, "event 0: 'step' must be a whole number or null, not true/false"),
    ({"messages": GOOD, "events": [{"detector": 2}]}, "event 0: 'detector' must be a string, not a number"),
    ({"messages": GOOD, "status": 1}, "'status' must be a string or null"),
    ({"messages": GOOD, "usage": {"total_tokens": "many"}}, "'usage.total_tokens' must be a whole number"),
])
def test_bad_records_around_the_messages(data, says):
    with pytest.raises(TrajectoryError, match=re.escape(says)):
        as_view(data)


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "adaptive_skill", *args], capture_output=True, text=True,
                          timeout=120, cwd=REPO)


def test_every_command_that_reads_a_trajectory_exits_2_with_one_line(tmp_path):
    bad = tmp_path / "hostile.json"
    bad.write_text(json.dumps({"messages": [*GOOD, {"role": "assistant", "content": {"$ref": "/etc/passwd"}}]}))
    for command in (["trajectory", "signals"], ["trajectory", "compress"], ["spiral", "scan"],
                    ["judge", "--task-dir", str(tmp_path)]):
        result = cli(*command, str(bad))
        assert result.returncode == 2 and result.stdout == "", (command, result.stderr)
        assert result.stderr.count("\n") == 1 and str(bad) in result.stderr, (command, result.stderr)
        assert "message 2: 'content' must be a string or a list of parts" in result.stderr
        assert "Traceback" not in result.stderr


def test_the_commands_read_every_format():
    for name in ("chat_no_exit_codes.json", "mini_swe_agent_v1.json", "text_protocol_no_exit_codes.json"):
        signals = cli("trajectory", "signals", str(FIXTURES / name), "--format", "json")
        assert signals.returncode == 0, signals.stderr
        counted = json.loads(signals.stdout)
        scanned = json.loads(cli("spiral", "scan", str(FIXTURES / name), "--set", "spiral.threshold=1e9",
                                 "--format", "json").stdout)
        assert counted["n_errors"] + counted["n_timeouts"] == len(scanned["failed_steps"]) > 0


# -- fuzzing: hostile shapes either load or raise the one error --------------------------------

_text = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40)
_json = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | _text,
                     lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_text, inner, max_size=4),
                     max_leaves=12)
_outputs = st.sampled_from(["", "ok\n", "Traceback (most recent call last):\nValueError: x\n", "[exit code 1]",
                            "\n[exit code 0]", "[command timed out after 60s]", "<returncode>2</returncode>",
                            '{"returncode": 1, "output": "E: x"}', "bash: x: command not found"])
_call = st.fixed_dictionaries({"id": st.one_of(_text, st.none()), "type": st.just("function"),
                               "function": st.fixed_dictionaries({
                                   "name": st.sampled_from(["bash", "submit", "read_skill", "run_shell", "x"]),
                                   "arguments": st.one_of(_text, st.just('{"command": "ls"}'), _json)})})
_message = st.one_of(
    _json,
    st.fixed_dictionaries({"role": st.sampled_from(["system", "user", "assistant", "tool", "exit", "other"]),
                           "content": st.one_of(st.none(), _text, _outputs, _json,
                                                st.lists(st.fixed_dictionaries({"type": st.just("text"),
                                                                                "text": _text}), max_size=2))},
                          optional={"tool_calls": st.one_of(st.lists(_call, max_size=2), _json),
                                    "tool_call_id": st.one_of(_text, _json)}))
_trajectory = st.one_of(
    _json, st.lists(_message, max_size=8),
    st.fixed_dictionaries({"messages": st.lists(_message, max_size=8)},
                          optional={"steps": st.one_of(_json, st.lists(st.dictionaries(
                              st.sampled_from(["index", "tool", "argument", "output", "exit_code", "timed_out",
                                               "error", "message_index"]), _json), max_size=3)),
                              "events": _json, "status": _json, "info": _json, "usage": _json}))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_trajectory)
def test_any_shape_loads_or_raises_the_one_error(data):
    try:
        view = as_view(data)
    except TrajectoryError as error:
        assert "\n" not in str(error)
        return
    signals = extract_signals(view)
    result = compress(view, 400)
    assert signals.n_errors == result.n_errors and len(result.text) <= max(len(raw_text(view)), 1)
    assert len(scan(view, NO_STOP, None)["failed_steps"]) == signals.n_failures


# -- the report's viewer reads through the kernel ------------------------------------------------

def test_report_viewer_shows_foreign_steps_and_survives_a_hostile_file(tmp_path):
    from adaptive_skill.report.attempts import Attempt
    from adaptive_skill.report.trajectories import view

    def attempt(path: Path) -> Attempt:
        return Attempt(id="a1", task="t", cycle=1, phase="solve", workspace="seed", passed=False,
                       failure_mode=None, score=None, trajectory=path)

    mini = view(attempt(FIXTURES / "mini_swe_agent_v1.json"))
    steps = [m["step"] for m in mini["messages"] if "step" in m]
    assert [s["exit_code"] for s in steps[:3]] == [0, 1, 1] and mini["status"] == "submitted"
    chat = json.loads((FIXTURES / "chat_no_exit_codes.json").read_text())
    (tmp_path / "chat.json").write_text(json.dumps({"messages": chat}))
    shown = view(attempt(tmp_path / "chat.json"))
    first = next(m for m in shown["messages"] if "step" in m)
    assert first["step"]["exit_code"] is None and first["calls"] == [{"name": "run_shell", "arguments": "ls /app"}]
    hostile = tmp_path / "hostile.json"
    hostile.write_text(json.dumps({"messages": [{"role": "assistant", "content": 7}]}))
    broken = view(attempt(hostile))
    assert broken["status"] == "unreadable"
    assert broken["messages"] == [{"role": "error", "content": "unreadable trajectory: message 0: 'content' must be "
                                                               "a string or a list of parts, not a number"}]


def test_the_kernel_imports_nothing_above_it():
    import ast

    for path in (REPO / "adaptive_skill" / "trajectory").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):  # function-local imports included
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            for name in names:
                if name.startswith("adaptive_skill"):
                    assert name.startswith(("adaptive_skill.trajectory", "adaptive_skill.errors")), (path.name, name)


def test_parallel_tool_calls_of_another_agent_are_one_step_each():
    def calls(*commands):
        return {"role": "assistant", "content": None, "tool_calls": [
            {"id": f"c{i}", "type": "function", "function": {"name": "bash", "arguments": json.dumps({"command": c})}}
            for i, c in enumerate(commands)]}

    ran = [*GOOD, calls("ls", "cat missing.txt"), {"role": "tool", "tool_call_id": "c0", "content": "a.txt\n"},
           {"role": "tool", "tool_call_id": "c1", "content": "cat: missing.txt: No such file or directory\n"}]
    steps = as_view(ran).steps
    assert [(s.index, s.argument, s.output) for s in steps] == [
        (1, "ls", "a.txt\n"), (2, "cat missing.txt", "cat: missing.txt: No such file or directory\n")]
    assert [(f.step, f.kind) for f in find_failures(steps)] == [(2, "output")]
    reminder = ("Your reply could not be used: 2 tool calls in one reply; make one at a time. Reply with exactly "
                "one fenced block: ...")
    refused = [*GOOD, calls("ls", "pwd"), {"role": "tool", "tool_call_id": "c0", "content": reminder},
               {"role": "tool", "tool_call_id": "c1", "content": reminder}]
    [step] = as_view(refused).steps  # as our agent records it: one malformed reply
    assert step.tool is None and step.error == "format: 2 tool calls in one reply; make one at a time"


def test_every_failure_kind_reads_in_the_compressed_text():
    """A masked exit (`cmd | tail` exit 0, an error in the output) once crashed the judge's compression
    (no phrase for its kind): every kind has one, and a masked step says both facts."""
    import typing

    from adaptive_skill.trajectory.failures import Failure, Kind

    for kind in typing.get_args(Kind):
        assert Failure(1, kind, "bash", "x", 0, ()).status
    messages = [{"role": "system", "content": "You are an agent."}, {"role": "user", "content": "Build it."}]
    steps = [("ls /app", "".join(f"file_{i}.py\n" for i in range(300)) + "[exit code 0]"),
             ("make 2>&1 | tail -3", "gcc: error: main.c: No such file or directory\n"
                                     "make: *** [Makefile:2: all] Error 1\n[exit code 0]")]
    for command, output in steps:
        messages += [{"role": "assistant", "content": f"Next.\n```bash\n{command}\n```"},
                     {"role": "user", "content": f"Observation (bash):\n{output}"}]
    result = compress(messages, 10_000)
    assert result.level != "raw"
    assert "make 2>&1 | tail -3" in result.text and "exit status was masked" in result.text
    assert "gcc: error: main.c: No such file or directory" in result.text


@pytest.mark.parametrize(("output", "failed"), [
    # what shows a failure where no exit code does: test verdicts, crashes, the C library's words,
    # curl, log lines at level ERROR
    ("--- FAIL: TestRefill (0.61s)\n    limiter_test.go:47: got 6, want 5\nFAIL", True),
    ("FAIL test/parse.test.js\n  ● parseDue › keeps ISO output", True),
    ("1..5\nok 1 writes a dump\nnot ok 2 keeps seven", True),
    ("panic: assignment to entry in nil map\n\ngoroutine 7 [running]:", True),
    ("thread 'main' panicked at src/main.rs:14:5:\nattempt to subtract with overflow", True),
    ("bash: line 1:   812 Killed                  python3 etl/load.py", True),
    ("FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory", True),
    ("gzip: stdout: No space left on device", True),
    ("curl: (56) Recv failure: Connection reset by peer", True),
    ("[2026-03-04 10:31:07 +0000] [915] [ERROR] Connection in use: ('127.0.0.1', 5000)", True),
    ("app: ERROR (spawn error)", True),
    ("src/edit.ts(3,29): error TS2304: Cannot find name 'Item'.", True),
    ("2026-03-04 10:12:01.332 UTC [812] FATAL:  could not map anonymous shared memory", True),
    # and what does not
    ("ok 1 writes a dump\nok 2 keeps seven", False),
    ("errors.log\nfailures.txt\nerror_handler.py", False),
    ("PASS test/parse.test.js\nTests:       12 passed, 12 total", False),
    ("[INFO] Booting worker with pid: 1544", False),
    ("killed_jobs = 0\nno errors so far", False),
])
def test_failures_without_an_exit_code_are_read_from_the_output(output, failed):
    from adaptive_skill.trajectory import StepRecord, step_failure
    verdict = step_failure(StepRecord(1, "bash", "run", output, None))
    assert (verdict is not None) is failed, output
    assert verdict is None or verdict.kind == "output"


def test_the_same_failure_with_other_numbers_masks_to_one_key():
    from adaptive_skill.trajectory.text import mask_error, mask_volatile
    same = [
        ("bash: line 1:   812 Killed                  python3 load.py x.csv",
         "bash: line 1: 23977 Killed                  MALLOC_ARENA_MAX=2 python3 load.py x.csv"),
        ("backup: FAILED after 3.2 s, wrote 713.4 MiB", "backup: FAILED after 4.1 s, wrote 699.8 MiB"),
        ("[2026-03-04 10:31:07 +0000] [915] [ERROR] Connection in use: ('127.0.0.1', 5000)",
         "[2026-03-04 10:44:51 +0000] [1204] [ERROR] Connection in use: ('0.0.0.0', 5000)"),
        ("gzip: /srv/b/shop-20260304T104412.sql.gz: Permission denied", "gzip: /srv/b/shop-20260304T104635.sql.gz: Permission denied"),
        ("18312 ms: Mark-Compact 2043.1 (2083.4) -> 2042.6 (2084.1) MB", "20871 ms: Mark-Compact 4089.9 (4129.9) -> 4089.4 (4130.9) MB"),
    ]
    for a, b in same:
        assert mask_error(a) == mask_error(b), (mask_error(a), mask_error(b))
    assert mask_error("E  assert 1 == 2") != mask_error("E  assert 3 == 2")  # small numbers still count
    assert mask_error("3 failed, 9 passed") != mask_error("2 failed, 10 passed")  # and tallies
    assert mask_volatile("took 1.5s") != mask_volatile("took 1.5s", keep_durations=True)

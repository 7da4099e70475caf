"""Compression: what each section keeps, the error attribution for long and heredoc commands,
agreement with the signals, and the budget fallbacks down to a huge trajectory."""

import re

import pytest
from observe_support import EVENTS, HEREDOC, MAKE_ERROR, TRACEBACK, S, bash, malformed, sample_specs, trajectory

from adaptive_skill.observe import TokenCounter, compress, extract_signals
from adaptive_skill.observe.compress import raw_text
from adaptive_skill.trajectory import as_view, find_failures
from adaptive_skill.trajectory.failures import ERROR_LINE
from adaptive_skill.trajectory.text import short_command

CHARS = TokenCounter(use_tiktoken=False)  # exact, machine-independent numbers for the budget tests


def section(text: str, title: str) -> str:
    match = re.search(rf"^## {re.escape(title)}.*?(?=^## |\Z)", text, re.MULTILINE | re.DOTALL)
    assert match, f"no section {title!r} in:\n{text}"
    return match.group(0)


def test_sections_of_the_sample():
    result = compress(trajectory(sample_specs(), events=EVENTS), 4000)
    text = result.text
    assert result.level == "full" and result.tokens <= 4000 and text.endswith("\n")
    assert text.splitlines()[0] == ("Trajectory: status submitted; 11 turns, 10 tool calls, 5 errors, 1 timeouts, "
                                    "3 spiral events")
    titles = re.findall(r"^## (.*)$", text, re.MULTILINE)
    assert titles == ["Approach (first 3 commands)", "Errors (5)", "Timeouts (1)", "Repeated commands",
                      "Spiral events (3)", "Resolution (last 3 commands)", "Submission"]
    approach = section(text, "Approach")
    assert "step 1 $ ls /app\n  -> exit 0\n  | Makefile\n  | include\n  | src" in approach
    assert "step 2 $ cat > fix.py <<'EOF'" in approach and "-> exit 1 (see Errors)" in approach
    assert "step 4" not in approach
    assert "- x3 $ make test (steps 8, 9, 10)" in section(text, "Repeated commands")
    events = section(text, "Spiral events")
    assert "- step 9: repetition -> nudge (score 0.81)" in events and "error_cycle -> nudge" in events
    resolution = section(text, "Resolution")
    assert [int(n) for n in re.findall(r"^step (\d+)", resolution, re.MULTILINE)] == [8, 9, 10]
    assert "all tests passed" in resolution
    assert section(text, "Submission").strip().endswith("Fixed the include path in the Makefile.")
    timeouts = section(text, "Timeouts")
    assert "step 5 $ sleep 500\n  -> timed out and was killed" in timeouts


@pytest.mark.parametrize("form", ["recorded", "native messages", "text messages"])
def test_a_heredoc_keeps_its_own_error(form):
    """The bug this guards against: a compressor that finds commands by scanning text loses a long
    heredoc command and hands its error to the command before it."""
    specs = [bash("cd /app && ls", "Makefile\n"), bash(HEREDOC, TRACEBACK, 1), bash("cat fix.py | wc -l", "44\n")]
    data = trajectory(specs, "text" if form == "text messages" else "native")
    data = data if form == "recorded" else data["messages"]
    errors = section(compress(data, 2000).text, "Errors")
    assert errors.splitlines()[1:] == [
        "step 2 $ cat > fix.py <<'EOF'",
        "           [... heredoc body: 41 lines ...]",
        "         EOF",
        "         python3 fix.py",
        "  -> exit 1",
        "  | Traceback (most recent call last):",
        '  |   File "/app/fix.py", line 1, in <module>',
        "  | NameError: name 'compute' is not defined",
        "",
    ]
    assert "cd /app" not in errors and "wc -l" not in errors


def test_long_commands_are_cut_in_the_middle_never_dropped():
    script = "\n".join([f"for f in part{i}/*; do" if i == 0 else f"  echo line {i}" for i in range(30)] + ["done"])
    assert short_command(script, keep_lines=2) == (
        "for f in part0/*; do\n  echo line 1\n  [... 27 more lines ...]\n  echo line 29\ndone")
    heredoc = "python3 - <<EOF\n" + "print(1)\n" * 20 + "EOF\necho after\nls\nmore\nand more"
    assert short_command(heredoc, keep_lines=1) == (
        "python3 - <<EOF\n  [... heredoc body: 20 lines ...]\nEOF\necho after\n  [... 3 more lines ...]")
    assert short_command("x" * 500, line_chars=50) == "x" * 47 + "..."
    text = compress(trajectory([bash(script, "syntax error near done\n", 2)]), 2000).text
    assert "step 1 $ for f in part0/*; do" in section(text, "Errors") and "syntax error near done" in text


SPEC_SETS = {
    "sample": sample_specs(),
    "clean": [bash("ls"), bash("make"), S("submit", "ok", exit_code=None)],
    "failures only": [bash(f"step{i}", f"error: broken {i}\n", 1) for i in range(30)],
    "formats": [malformed(), malformed(), bash("true"), bash("sleep 9", timed_out=True)],
}


@pytest.mark.parametrize("name", SPEC_SETS)
@pytest.mark.parametrize("budget", [200, 600, 2000, 10_000])
def test_compression_and_signals_agree(name, budget):
    data = trajectory(SPEC_SETS[name], events=EVENTS)
    signals = extract_signals(data)
    result = compress(data, budget, CHARS)
    assert (result.n_errors, result.n_timeouts) == (signals.n_errors, signals.n_timeouts)
    assert result.tokens <= budget and result.tokens == CHARS.count(result.text)
    assert result.tokens <= result.raw_tokens and len(result.text) <= len(raw_text(as_view(data)))
    if result.level == "raw":  # the transcript itself was the shorter text
        assert result.text == raw_text(as_view(data))
        return
    assert f", {signals.n_errors} errors, {signals.n_timeouts} timeouts," in result.text.splitlines()[0]
    if result.level in ("full", "brief", "minimal", "tight"):
        assert result.errors_shown == signals.n_errors


def test_every_error_line_is_kept_at_full_detail():
    data = trajectory(sample_specs())
    text = compress(data, 4000).text
    for failure in find_failures(as_view(data).steps):
        for line in failure.lines:
            assert line in text


def test_identical_failures_are_grouped_not_dropped():
    specs = [bash("make", MAKE_ERROR, 2), bash("vi Makefile"), bash("make", MAKE_ERROR, 2), bash("make", MAKE_ERROR, 2)]
    errors = section(compress(trajectory(specs), 2000).text, "Errors (3)")
    assert errors.count("fatal error: calc.h") == 1 and "steps 1, 3, 4 (x3) $ make" in errors


def many_failures(n: int, lines_each: int = 5) -> dict:
    progress = "".join(f"  CC src/module_{k}.o\n" for k in range(30))  # what a build prints before failing
    return trajectory([bash(f"./build.sh --target t{i}",
                            progress + "".join(f"t{i}.c:{k}: error: problem {k} in target {i}\n"
                                               for k in range(lines_each)), 1)
                       for i in range(n)], events=EVENTS * 10)


def test_budget_fallbacks_level_by_level():
    data = many_failures(40)
    levels = {}
    for budget in (100_000, 3000, 2000, 1500, 1000):
        result = compress(data, budget, CHARS)
        levels[budget] = result.level
        assert result.tokens <= budget
    assert levels == {100_000: "full", 3000: "brief", 2000: "minimal", 1500: "tight", 1000: "head/tail errors"}


def test_head_tail_errors_keep_the_first_and_the_last():
    result = compress(many_failures(40), 1000, CHARS)
    errors = section(result.text, "Errors (40)")
    shown = [int(n) for n in re.findall(r"^step (\d+) \$", errors, re.MULTILINE)]
    assert result.errors_shown == len(shown) and 2 <= len(shown) < 40
    assert shown[0] == 1 and shown[-1] == 40  # how it started going wrong, and where it ended
    assert shown == sorted(shown) and f"[... {40 - len(shown)} more errors omitted to fit the budget" in errors


def test_a_huge_trajectory_is_cut_to_head_and_tail():
    huge = trajectory([bash("cat big.log", "x" * 300_000 + "\nerror: at the very end\n", 1)] * 3
                      + [bash(f"step {i}") for i in range(2000)] + [S("submit", "gave up", exit_code=None)])
    for budget in (200, 2000):
        result = compress(huge, budget)
        assert result.tokens <= budget and result.raw_tokens > 20 * budget
        assert result.text.startswith("Trajectory: status submitted; 2004 turns")
    tiny = compress(huge, 40, CHARS)
    assert tiny.level == "cut" and tiny.tokens <= 40 and "lines cut to fit the token budget" in tiny.text


def test_nothing_ran():
    data = trajectory([])
    assert compress(data, 500).level == "raw"  # two short messages: the transcript is the shorter text
    data["messages"].append({"role": "assistant", "content": "I will think about the build." * 60})
    result = compress(data, 500)
    assert "(no command ran)" in result.text
    assert "(none; the attempt ended with status step_limit)" in result.text


def test_raw_text_and_token_counter():
    data = trajectory(sample_specs())
    assert "fix.py" in raw_text(as_view(data)) and "make test" in raw_text(as_view(data))
    assert CHARS.count("") == 0 and CHARS.count("abcde") == 2 and CHARS.name == "chars/4"
    counter = TokenCounter()
    assert counter.name in ("tiktoken cl100k_base", "chars/4")
    assert counter.count("hello world") > 0


def test_error_line_pattern_catches_the_usual_suspects():
    for line in ["bash: foo: command not found", "cp: cannot stat 'x': No such file or directory",
                 "E   AssertionError: 1 != 2", "Segmentation fault (core dumped)", "npm ERR! code E404",
                 "fatal: not a git repository", "Permission denied (publickey)", "FAILED tests/test_x.py::t"]:
        assert ERROR_LINE.search(line), line


def test_the_plain_transcript_is_what_happened_after_the_task():
    """The agent's system prompt and the instruction (every reader gets it apart) are not part of the
    transcript the compression must never exceed: a short run is judged on its own turns."""
    data = trajectory(sample_specs())
    data["messages"][0]["content"] = "SYSTEM PROMPT " * 300
    raw = raw_text(as_view(data))
    assert "SYSTEM PROMPT" not in raw and data["messages"][1]["content"] not in raw
    assert "make test" in raw
    result = compress(data, 100_000)
    assert len(result.text) <= len(raw) and "SYSTEM PROMPT" not in result.text


def test_a_run_that_never_acted_or_was_stopped_still_says_how_it_ended():
    """Without the system prompt and the instruction the transcript of a run that never acted is
    empty: the judge must still read how it ended (budget, error, halted), as the compressed form's
    Submission section would say."""
    data = {"task_id": "t", "status": "error", "metadata": {"stop_reason": "budget: secret"},
            "messages": [{"role": "system", "content": "You are an agent. " * 40}, {"role": "user", "content": "Do x."}]}
    result = compress(data, 2000)
    assert result.level == "raw" and result.text == "(the attempt ended with status error)"
    assert "secret" not in result.text  # metadata never reaches a reader
    data["status"] = "halted"
    data["messages"] += [{"role": "assistant", "content": "List it.\n```bash\nls\n```"},
                         {"role": "user", "content": "Observation (bash):\na\n[exit code 0]"}]
    result = compress(data, 2000)
    assert result.level == "raw" and result.text.endswith("\n(the attempt ended with status halted)")
    del data["status"]
    assert compress(data, 2000).text.endswith("(the attempt ended with status unknown)")

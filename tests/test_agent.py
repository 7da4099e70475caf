"""The terminal agent driven by the scripted model: both tool protocols, read_skill, malformed
replies, limits, budgets, monitor interventions and per-step trajectory writes. Commands run in
the real LocalSandbox (a persistent bash in a temporary directory)."""

import json
from pathlib import Path

import pytest

from adaptive_skill.agent.loop import AgentLimits, TerminalAgent, render_system_prompt
from adaptive_skill.config import LimitsConfig
from adaptive_skill.llm import Accounting
from adaptive_skill.llm.scripted import ScriptedLLM
from adaptive_skill.protocols import Intervention
from adaptive_skill.workspace import Workspace


@pytest.fixture
def sandbox(local_sandbox):
    return local_sandbox  # these tests run in the LocalSandbox (tests/conftest.py)


REPO = Path(__file__).resolve().parents[1]
WORKSPACE = Workspace(REPO / "workspace")



def bash(command: str, **extra):
    return {"tool_calls": [{"name": "bash", "arguments": {"command": command}}], **extra}


def call(tool: str, **arguments):
    return {"tool_calls": [{"name": tool, "arguments": arguments}]}


def text(body: str, lang: str = "bash"):
    return {"content": f"Thinking about it.\n```{lang}\n{body}\n```"}


def run(replies, sandbox, tmp_path, native=True, limits=None, accounting=None, monitor=None, demo=False):
    llm = ScriptedLLM(replies, accounting, supports_tools=native, protocol_demo=demo)
    agent = TerminalAgent(llm, WORKSPACE, limits or AgentLimits(), monitor=monitor)
    path = tmp_path / "traj.json"
    trajectory = agent.run("t1", "Create hello.txt", sandbox, path)
    return trajectory, json.loads(path.read_text()), llm


def test_native_protocol_full_run(sandbox, tmp_path):
    trajectory, saved, llm = run([
        bash("cd /tmp && mkdir -p work && cd work && export GREETING=hi"),
        bash("pwd; echo $GREETING > hello.txt; cat hello.txt"),  # the shell persisted cd and export
        call("read_skill", name="check-your-work"),
        call("submit", answer="wrote hello.txt"),
    ], sandbox, tmp_path)
    assert trajectory.status == "submitted" and trajectory.submission == "wrote hello.txt"
    assert saved["status"] == "submitted" and len(saved["steps"]) == 4
    second = saved["steps"][1]
    assert second["tool"] == "bash" and second["exit_code"] == 0 and second["output"].endswith("/work\nhi\n")
    assert saved["steps"][2]["output"].startswith("\n## Steps")  # the skill body came through read_skill
    roles = [m["role"] for m in saved["messages"]]
    assert roles == ["system", "user"] + ["assistant", "tool"] * 4
    tool_message = saved["messages"][3]
    assert tool_message["tool_call_id"] == saved["messages"][2]["tool_calls"][0]["id"]
    assert "[exit code 0]" in tool_message["content"]
    # the model was offered the three tools, and the skill's description, not its body, is in the prompt
    assert [t["function"]["name"] for t in llm.requests[0].tools] == ["bash", "read_skill", "submit"]
    system = saved["messages"][0]["content"]
    assert "check-your-work: Use before submitting" in system and "## Steps" not in system


def test_text_protocol(sandbox, tmp_path):
    trajectory, saved, llm = run([
        text("echo one; echo two"),
        text("check-your-work", "read_skill"),
        text("all done", "submit"),
    ], sandbox, tmp_path, native=False)
    assert trajectory.status == "submitted" and trajectory.submission == "all done"
    assert llm.requests[0].tools is None
    assert "exactly ONE fenced block" in saved["messages"][0]["content"]
    assert saved["messages"][3] == {"role": "user", "content": "Observation (bash):\none\ntwo\n\n[exit code 0]"}


def test_malformed_replies_get_a_reminder_then_end_the_attempt(sandbox, tmp_path):
    two_blocks = {"content": "```bash\nls\n```\n```bash\npwd\n```"}
    trajectory, saved, _ = run([two_blocks, {"content": "no block"}, text("echo fine"), text("done", "submit")],
                               sandbox, tmp_path, native=False)
    assert trajectory.status == "submitted"
    assert [s["error"] for s in saved["steps"][:2]] == [
        "format: 2 fenced blocks in one reply; send exactly one", "format: no fenced block in the reply"]
    assert "could not be used" in saved["messages"][3]["content"]

    bad = [{"content": "nothing"}] * 4
    trajectory, saved, _ = run(bad, sandbox, tmp_path, native=False, limits=AgentLimits(max_format_errors=3))
    assert trajectory.status == "error" and saved["metadata"]["stop_reason"] == "4 malformed replies"


def test_malformed_native_calls_are_answered(sandbox, tmp_path):
    replies = [call("rm_rf", path="/"), {"tool_calls": [{"name": "bash", "arguments": "{not json"}]},
               {"content": "I think I am done"}, call("submit", answer="ok")]
    trajectory, saved, _ = run(replies, sandbox, tmp_path)
    assert trajectory.status == "submitted"
    errors = [s["error"] for s in saved["steps"][:3]]
    assert errors == ["format: unknown tool 'rm_rf' (tools: bash, read_skill, submit)",
                      "format: the arguments of bash are not valid JSON", "format: no tool call in the reply"]
    # every tool call got its tool message before the next turn
    assert saved["messages"][3]["role"] == "tool" and saved["messages"][5]["role"] == "tool"


def test_unknown_skill_is_an_observation_not_a_crash(sandbox, tmp_path):
    trajectory, saved, _ = run([call("read_skill", name="../../etc/passwd"), call("read_skill", name="nope"),
                                call("submit", answer="x")], sandbox, tmp_path)
    assert trajectory.status == "submitted"
    assert "not a valid skill name" in saved["steps"][0]["error"] and "no skill named" in saved["steps"][1]["error"]


def test_output_cut_for_the_model_but_kept_in_full(sandbox, tmp_path):
    _, saved, _ = run([bash("head -c 50000 /dev/zero | tr '\\0' x"), call("submit", answer="x")], sandbox,
                      tmp_path, limits=AgentLimits(output_limit_chars=1000))
    assert len(saved["steps"][0]["output"]) == 50000
    shown = saved["messages"][3]["content"]
    assert len(shown) < 1200 and "characters omitted" in shown


def test_command_timeout_and_wall_time(sandbox, tmp_path):
    trajectory, saved, _ = run([bash("sleep 5"), bash("echo still here"), call("submit", answer="x")],
                               sandbox, tmp_path, limits=AgentLimits(command_timeout_sec=1))
    assert trajectory.status == "submitted"
    assert saved["steps"][0]["timed_out"] is True and saved["steps"][0]["exit_code"] is None
    assert "timed out and was killed" in saved["messages"][3]["content"]
    assert saved["steps"][1]["output"] == "still here\n"

    trajectory, _, _ = run([bash("sleep 10"), bash("echo never")], sandbox, tmp_path,
                           limits=AgentLimits(wall_time_sec=1.5))
    assert trajectory.status == "timeout"


def test_step_limit(sandbox, tmp_path):
    trajectory, saved, _ = run([bash("true")] * 3, sandbox, tmp_path, limits=AgentLimits(max_steps=2))
    assert trajectory.status == "step_limit" and len(saved["steps"]) == 2


def test_budget_stops_the_attempt(sandbox, tmp_path):
    usage = {"usage": {"prompt_tokens": 60, "completion_tokens": 10}, "cost": 0.02}
    accounting = Accounting(LimitsConfig(max_tokens_per_task=100))
    trajectory, saved, llm = run([bash("true", **usage)] * 5, sandbox, tmp_path, accounting=accounting)
    assert trajectory.status == "budget" and len(saved["steps"]) == 2  # 70, 140 tokens: the third call is refused
    assert "task t1" in saved["metadata"]["stop_reason"] and llm.remaining == 3
    assert saved["usage"]["total_tokens"] == 140 and saved["cost"] == pytest.approx(0.04)


def test_llm_errors(sandbox, tmp_path):
    trajectory, saved, _ = run([bash("true"), {"error": "rate_limit"}], sandbox, tmp_path)
    assert trajectory.status == "error" and "rate" in saved["metadata"]["stop_reason"].lower()
    # a missing or refused API key is the user's to fix: it ends the command with one line
    from adaptive_skill.llm import LLMConfigError

    with pytest.raises(LLMConfigError):
        run([{"error": "auth"}], sandbox, tmp_path)


class Crash(Exception):
    pass


class CrashingSandbox:
    """A real LocalSandbox that dies on its third command, to see what was on disk by then."""

    def __init__(self, inner):
        self.inner, self.calls = inner, 0

    def run(self, command, timeout=None):
        self.calls += 1
        if self.calls == 3:
            raise Crash("power cut")
        return self.inner.run(command, timeout)


def test_trajectory_is_written_after_every_step(sandbox, tmp_path):
    llm = ScriptedLLM([bash("echo a"), bash("echo b"), bash("echo c")], supports_tools=True)
    path = tmp_path / "traj.json"
    with pytest.raises(Crash):
        TerminalAgent(llm, WORKSPACE).run("t1", "x", CrashingSandbox(sandbox), path)
    saved = json.loads(path.read_text())
    assert [s["output"] for s in saved["steps"]] == ["a\n", "b\n"] and saved["status"] == "running"


class ScriptedMonitor:
    def __init__(self, plan):
        self.plan = plan

    def observe(self, step, trajectory, context):
        return self.plan.get(step.index)


def test_monitor_nudge_restart_and_terminate(sandbox, tmp_path):
    monitor = ScriptedMonitor({
        1: Intervention("nudge", "exact_repetition", "You ran the same command twice; try something else.",
                        {"command": "ls"}),
        2: Intervention("restart", "stagnation", "Summary: nothing worked so far.",
                        context=[{"role": "system", "content": "fresh"}, {"role": "user", "content": "Create hello.txt"}]),
        3: Intervention("escalate", "repeated_errors", evidence={"count": 3}),
    })
    trajectory, saved, llm = run([bash("ls"), bash("ls"), bash("ls"), bash("ls")], sandbox, tmp_path, monitor=monitor)
    assert trajectory.status == "halted" and saved["metadata"]["needs_review"] is True
    assert [(e["step"], e["action"]) for e in saved["events"]] == [(1, "nudge"), (2, "restart"), (3, "escalate")]
    assert llm.requests[1].messages[-1]["content"].startswith("You ran the same command twice")
    assert [m["content"] for m in llm.requests[2].messages] == ["fresh", "Create hello.txt",
                                                               "Summary: nothing worked so far."]
    assert len(saved["messages"]) > len(llm.requests[2].messages)  # the file keeps the whole history


def test_system_prompt_template_runs_sandboxed(tmp_path):
    import shutil

    shutil.copytree(REPO / "workspace", tmp_path / "ws")
    ws = Workspace(tmp_path / "ws")
    ws.system_prompt_path.write_text("{{ ''.__class__.__mro__[1].__subclasses__() }}")
    from adaptive_skill.errors import UserError

    with pytest.raises(UserError, match="template error"):
        render_system_prompt(ws, native_tools=True)


def test_limits_default_to_the_config_and_read_a_runs_config():
    from adaptive_skill.config import EvolveConfig

    assert (AgentLimits().max_steps, AgentLimits().command_timeout_sec, AgentLimits().output_limit_chars) == (
        LimitsConfig().max_steps, EvolveConfig().sandbox.command_timeout_sec, EvolveConfig().sandbox.output_limit_chars)
    config = EvolveConfig.model_validate({"limits": {"max_steps": 7, "max_wall_time_sec": 90},
                                         "sandbox": {"command_timeout_sec": 5, "output_limit_chars": 300}})
    assert AgentLimits.from_config(config) == AgentLimits(max_steps=7, wall_time_sec=90, command_timeout_sec=5,
                                                          output_limit_chars=300)
    assert AgentLimits.from_config(config, max_steps=3).max_steps == 3  # the evolver's own turn budget
    assert AgentLimits.from_config(EvolveConfig()).wall_time_sec == 3600.0  # no wall limit set: an hour


def test_text_protocol_sends_the_worked_example_but_never_saves_it(sandbox, tmp_path):
    from adaptive_skill.agent.protocol import TEXT_PROTOCOL_DEMO

    trajectory, saved, llm = run([text("echo hi"), text("done", "submit")], sandbox, tmp_path, native=False,
                                 demo=True)
    assert trajectory.status == "submitted" and saved["metadata"]["protocol_demo"] == 1
    sent = llm.requests[1].messages  # the second call: system, example, task, reply, observation
    demo = len(TEXT_PROTOCOL_DEMO)
    assert sent[1:1 + demo] == list(TEXT_PROTOCOL_DEMO)
    task = sent[1 + demo]
    assert task["role"] == "user" and task["content"].endswith("New task. Create hello.txt")
    roles = [m["role"] for m in sent[1:]]
    assert all(a != b for a, b in zip(roles, roles[1:], strict=False)), "user and assistant turns alternate"
    assert sent[-1]["content"].startswith("Observation (bash):\nhi")
    # The record holds what happened: the system prompt, the task as given, the attempt's own turns.
    assert [m["role"] for m in saved["messages"]] == ["system", "user", "assistant", "user", "assistant", "user"]
    assert saved["messages"][1]["content"] == "Create hello.txt"
    assert not any("kernel release" in m["content"] for m in saved["messages"])


def test_native_protocol_gets_no_worked_example(sandbox, tmp_path):
    _, saved, llm = run([call("submit", answer="ok")], sandbox, tmp_path, demo=True)
    assert "protocol_demo" not in saved["metadata"]
    assert [m["role"] for m in llm.requests[0].messages] == ["system", "user"]


def test_the_worked_example_goes_only_to_a_model_measured_to_need_it(sandbox, tmp_path):
    """protocol_demo is the model's (an API model's is False): without it the text protocol sends the
    system prompt and the task alone."""
    _, saved, llm = run([text("echo hi"), text("done", "submit")], sandbox, tmp_path, native=False)
    assert "protocol_demo" not in saved["metadata"]
    assert [m["role"] for m in llm.requests[0].messages] == ["system", "user"]
    assert llm.requests[0].messages[1]["content"] == "Create hello.txt"


def test_a_submit_before_any_command_is_refused_when_the_limits_ask_for_one(sandbox, tmp_path):
    from adaptive_skill.agent.loop import EARLY_SUBMIT

    limits = AgentLimits(submit_after_commands=1)
    trajectory, saved, _ = run([text("looks done", "submit"), text("echo hi > hello.txt"), text("wrote it", "submit")],
                               sandbox, tmp_path, native=False, limits=limits)
    assert trajectory.status == "submitted" and trajectory.submission == "wrote it"
    first = saved["steps"][0]
    assert first["tool"] == "submit" and first["error"] == EARLY_SUBMIT
    assert saved["messages"][3]["content"] == f"Observation (submit):\nerror: {EARLY_SUBMIT}"
    assert [s["tool"] for s in saved["steps"]] == ["submit", "bash", "submit"]


@pytest.mark.parametrize("command, paths", [
    ("wc -l /app/logs/access.log > /app/count.txt", ["/app/count.txt"]),
    ("grep -c x f 2>&1 > out.txt", ["out.txt"]),  # 2>&1 is a descriptor, not a file
    ("cmd | tee -a /app/log.txt >/dev/null 2>/dev/null", ["/app/log.txt"]),
    ("echo a >> 'my file.txt'; echo b > \"/app/x y.txt\"", ["my file.txt", "/app/x y.txt"]),
    ("echo hi >&2; ls 2>/dev/null; echo $(date) > $HOME/x", []),  # a variable path is not guessed
    ("a > b; c > d; e > f; g > b", ["d", "f", "b"]),  # the last three, the latest last
])
def test_written_paths_reads_redirections_and_tee(command, paths):
    from adaptive_skill.agent.written import written_paths

    assert written_paths([command]) == paths


def test_show_before_submit_shows_what_the_commands_wrote_once(sandbox, tmp_path):
    """models.agent.show_before_submit: the first submit is held and answered with `ls -ld` and the
    first lines of each file the attempt's commands wrote; the next submit ends the attempt. A path
    in the agent's command is quoted, never run (an adversarial name); with nothing written the hold
    asks to look (CHECK_FIRST), as check_before_submit does."""
    from adaptive_skill.agent.loop import CHECK_FIRST, SHOW_FIRST
    from adaptive_skill.config import EvolveConfig
    from adaptive_skill.harness.agents import build_agent

    config = EvolveConfig(models={"agent": {"show_before_submit": True}}, spiral={"enabled": False})
    limits = build_agent("llm", config, workspace=WORKSPACE, trajectories_dir=tmp_path / "trajs",
                         llm=ScriptedLLM([], None)).limits
    assert limits.show_before_submit and not limits.check_before_submit
    canary = tmp_path / "pwned"
    replies = [text(f"cd {tmp_path} && printf 'one\\ntwo\\n' > out.txt && : > empty.txt && "
                    "echo x > '$(touch pwned)'"),
               text("done", "submit"), text("fixed", "submit")]
    (tmp_path / "a").mkdir()
    trajectory, saved, _ = run(replies, sandbox, tmp_path / "a", native=False, limits=limits)
    assert trajectory.submission == "fixed"
    held = saved["steps"][1]
    assert held["error"] == SHOW_FIRST
    assert "out.txt" in held["output"] and "one\ntwo" in held["output"] and "empty.txt" in held["output"]
    assert "$(touch pwned)" in held["output"] and not canary.exists()  # listed, never run
    assert any(m["content"].startswith(f"Observation (submit):\nerror: {SHOW_FIRST}\n") for m in saved["messages"])
    (tmp_path / "b").mkdir()
    trajectory, saved, _ = run([text("echo nothing written"), text("done", "submit"), text("again", "submit")],
                               sandbox, tmp_path / "b", native=False, limits=limits)
    assert saved["steps"][1]["error"] == CHECK_FIRST and trajectory.submission == "again"


def test_check_before_submit_answers_the_first_submit_once_and_reads_the_model_config(sandbox, tmp_path):
    """models.agent.check_before_submit: a task attempt's first submit is held with CHECK_FIRST and the
    attempt goes on; the next submit ends it (never held twice). Off, the first submit ends it. The
    evolver's turns (AgentLimits.from_config) are never held."""
    from adaptive_skill.agent.loop import CHECK_FIRST
    from adaptive_skill.config import EvolveConfig
    from adaptive_skill.harness.agents import build_agent

    config = EvolveConfig(models={"agent": {"check_before_submit": True}}, spiral={"enabled": False})
    llm = ScriptedLLM([], None)
    limits = build_agent("llm", config, workspace=WORKSPACE, trajectories_dir=tmp_path / "trajs", llm=llm).limits
    assert limits.check_before_submit and not AgentLimits.from_config(config).check_before_submit
    off = build_agent("llm", config.model_copy(update={"models": EvolveConfig().models}), workspace=WORKSPACE,
                      trajectories_dir=tmp_path / "trajs", llm=llm)
    assert not off.limits.check_before_submit
    replies = [text("echo hi > hello.txt"), text("wrote it", "submit"), text("cat hello.txt"),
               text("checked", "submit"), text("never asked", "submit")]
    trajectory, saved, _ = run(replies, sandbox, tmp_path, native=False, limits=limits)
    assert trajectory.status == "submitted" and trajectory.submission == "checked"
    assert [(s["tool"], s.get("error")) for s in saved["steps"]] == [
        ("bash", None), ("submit", CHECK_FIRST), ("bash", None), ("submit", None)]
    assert f"Observation (submit):\nerror: {CHECK_FIRST}" in [m["content"] for m in saved["messages"]]
    (tmp_path / "off").mkdir()
    trajectory, saved, _ = run(replies, sandbox, tmp_path / "off", native=False, limits=AgentLimits())
    assert trajectory.submission == "wrote it" and len(saved["steps"]) == 2


def test_a_submit_without_a_command_ends_the_attempt_by_default(sandbox, tmp_path):
    trajectory, saved, _ = run([text("nothing to change", "submit")], sandbox, tmp_path, native=False)
    assert trajectory.status == "submitted" and len(saved["steps"]) == 1 and saved["steps"][0].get("error") is None



def test_read_skill_offers_the_workspaces_skills_as_they_are_at_each_attempt(tmp_path):
    """The enum (native tools) and the text grammar's read_skill block list the workspace's skill
    names, recomputed at each attempt; a workspace without skills, or a directory that is no skill
    (a link, an invalid name, no SKILL.md, the drafts folder), adds no name; without a workspace
    there is no read_skill at all."""
    from types import SimpleNamespace

    root = tmp_path / "ws"
    (root / "skills").mkdir(parents=True)
    text_llm = SimpleNamespace(supports_tools=False, supports_grammar=True, model="m", protocol_demo=False,
                               config=SimpleNamespace(max_tokens=3072))
    native_llm = SimpleNamespace(supports_tools=True, supports_grammar=True, model="m")

    def enum(tools):
        spec = next(t for t in tools if t["function"]["name"] == "read_skill")
        return spec["function"]["parameters"]["properties"]["name"].get("enum")

    ws = Workspace(root)
    native, text = TerminalAgent(native_llm, ws), TerminalAgent(text_llm, ws)
    assert enum(native._protocol()[0]) is None and native._protocol()[1] is None  # no skills: any name, no grammar
    assert "[A-Za-z0-9_.-]{1,64}" in text._protocol()[1]
    for name, make in [("zip-install", "file"), ("Bad_Name", "file"), ("no-skill-md", None), ("_drafts", "file")]:
        (root / "skills" / name).mkdir()
        if make:
            (root / "skills" / name / "SKILL.md").write_text("---\nname: x\n---\n")
    (root / "skills" / "linked").symlink_to(root / "skills" / "zip-install", target_is_directory=True)
    assert enum(native._protocol()[0]) == ["zip-install"]
    assert 'read-skill-block ::= "```read_skill\\n" ("zip-install") "\\n```"' in text._protocol()[1]
    bare = TerminalAgent(native_llm, None, system_prompt="You are the evolver.")
    assert [t["function"]["name"] for t in bare._protocol()[0]] == ["bash", "submit"]


def test_a_native_model_is_asked_for_a_tool_call_and_a_repeating_reply_is_named(sandbox, tmp_path):
    """A model with native tools is reminded to call a tool (not to write a fenced block), and a reply
    an embedded model's repetition guard stopped is answered as such; the kernel reads both reminders
    back as format errors."""
    from adaptive_skill.trajectory import load_view

    replies = [{"content": "I will run sed sed sed", "finish_reason": "repetition"}, call("submit", answer="ok")]
    trajectory, saved, _ = run(replies, sandbox, tmp_path, limits=AgentLimits(submit_after_commands=0))
    reminder = saved["messages"][3]["content"]
    assert reminder.startswith("Your reply could not be used: the reply was stopped because it repeated the same "
                               "text over and over") and "Call exactly one tool" in reminder
    assert "fenced block" not in reminder
    view = load_view(tmp_path / "traj.json")
    assert view.steps[0].error.startswith("format: the reply was stopped")


def test_a_skill_name_run_as_a_command_reads_the_skill(sandbox, tmp_path):
    """The 1.5B ran a listed skill's name as bash again and again (exit 127 each time): a bash command
    that is exactly a workspace skill's name reads that skill; any other command runs as written."""
    trajectory, saved, _ = run([bash("check-your-work"), bash("check-your-work-now; true"),
                                call("submit", answer="x")], sandbox, tmp_path)
    assert trajectory.status == "submitted"
    first, second = saved["steps"][0], saved["steps"][1]
    assert first["tool"] == "read_skill" and first["argument"] == "check-your-work"
    assert first["output"].startswith("\n## Steps")
    assert second["tool"] == "bash" and "command not found" in second["output"]

"""The structured evolver (evolver.mode: structured) with scripted models: one JSON reply rendered
by the host into skills/<name>/SKILL.md, through the same rules step as every evolver; hostile
replies end as refusals, violations or cleaned text, never outside skills/<name>/ and never as a
workspace the agent could not load; the observations digest reads bounded and follows no link."""

import json
import os
import shutil
from pathlib import Path

import pytest

from adaptive_skill.agent.loop import render_system_prompt
from adaptive_skill.config import EvolveConfig
from adaptive_skill.engine.records import EvolveResult
from adaptive_skill.evolve import make_evolver
from adaptive_skill.evolve.digest import MAX_FILE_BYTES, last_commands, read_digest
from adaptive_skill.evolve.loadable import load_problems
from adaptive_skill.evolve.rules import tree_digest
from adaptive_skill.evolve.structured import StructuredEvolver, clean
from adaptive_skill.llm.accounting import Accounting
from adaptive_skill.llm.scripted import ScriptedLLM
from adaptive_skill.skills import check_skills, parse_skill_text
from adaptive_skill.trajectory import load_view
from adaptive_skill.workspace import Workspace

REPO = Path(__file__).resolve().parents[1]
TRAJECTORY = """Trajectory: status submitted; 3 turns, 3 tool calls, 1 errors, 0 timeouts, 0 spiral events

## Approach (first 2 commands)
step 1 $ ls /app
  -> exit 0
step 2 $ python3 -c 'import yaml'
  -> error exit 1 (see Errors)

## Errors (1)
step 2 $ python3 -c 'import yaml'
  -> error exit 1
  | ModuleNotFoundError: No module named 'yaml'

## Resolution (last 1 command)
step 3 $ echo done > /app/out.txt
  -> exit 0

## Submission
done
"""


def good(name="check-output-files", action="add", **fields):
    return {"diagnosis": "Two tasks wrote answers they never read back.", "action": action, "name": name,
            "description": "Use when a task asks for an output file in an exact format.",
            "steps": ["Re-read the instruction and list every required file and format.",
                      "cat each output file (or load it with python3) and compare it with the instruction."],
            "verification": ["Every required file exists and its content matches the instruction."], **fields}


@pytest.fixture
def env(tmp_path):
    workspace = tmp_path / "workspace"
    shutil.copytree(REPO / "workspace", workspace)
    observations = tmp_path / "observations"
    observations.mkdir()
    (observations / "index.md").write_text("# Observations\n")
    for task, score in (("parse-config", 2), ("count-lines", 4), ("easy-one", 9)):
        folder = observations / task
        folder.mkdir()
        (folder / "instruction.md").write_text(f"Instruction of {task}: write the result to /app/out.txt.")
        (folder / "trajectory.txt").write_text(TRAJECTORY)
        (folder / "signals.json").write_text(json.dumps({"error_snippets": []}))
        (folder / "verdict.json").write_text(json.dumps(
            {"score": score, "category": "file-operations", "outcome": "wrote an answer",
             "failure_reason": f"{task}: the output was never checked" if score < 7 else "none"}))
    return {"workspace": workspace, "observations": observations, "out": tmp_path / "evolve", "tmp": tmp_path}


def evolve(env, replies, **settings):
    config = EvolveConfig(evolver={"mode": "structured"}, **settings)
    accounting = Accounting(config.limits)
    scripted = [r if isinstance(r, dict) and "error" in r else
                {"content": r, "usage": {"prompt_tokens": 50, "completion_tokens": 20}} for r in replies]
    llm = ScriptedLLM(scripted, accounting, role="evolver")
    evolver = make_evolver(config, llm, sandbox_factory=_no_sandbox, accounting=accounting)
    assert isinstance(evolver, StructuredEvolver)
    outcome = evolver.evolve(env["workspace"], env["observations"], env["out"], history=["cycle 1: rejected"],
                             task_id="evolve-2")
    return outcome, llm


def _no_sandbox():
    raise AssertionError("the structured evolver needs no sandbox")


def skill_text(env, name):
    return (env["workspace"] / "skills" / name / "SKILL.md").read_text()


def loads(env):
    return not load_problems(env["workspace"]) and not check_skills(env["workspace"] / "skills")


def test_a_good_reply_is_rendered_into_the_workspace(env):
    outcome, llm = evolve(env, [good()])
    assert outcome.status == "submitted" and outcome.mutated and not outcome.violations
    assert outcome.changes.created_skills == ["check-output-files"]
    assert outcome.changes.added == ["skills/check-output-files/SKILL.md"]
    assert outcome.summary == "added skill check-output-files: Two tasks wrote answers they never read back."
    text = skill_text(env, "check-output-files")
    assert text == ("---\nname: check-output-files\ndescription: Use when a task asks for an output file in an exact "
                    "format.\n---\n\n## Steps\n1. Re-read the instruction and list every required file and format.\n"
                    "2. cat each output file (or load it with python3) and compare it with the instruction.\n\n"
                    "## Verification\n"
                    "- Every required file exists and its content matches the instruction.\n")
    assert loads(env)
    # one question, asked with the schema; it shows the library, the failing tasks and the history
    (request,) = llm.requests
    assert request.schema == "SkillReply" and request.task_id == "evolve-2"
    asked = request.messages[-1]["content"]
    assert "- check-your-work: Use before submitting any terminal task" in asked
    assert "### parse-config (score 2/10)" in asked and "### count-lines (score 4/10)" in asked
    assert "easy-one" not in asked  # passed: not a failure
    assert "- $ python3 -c 'import yaml' -> error exit 1" in asked and "- $ ls /app -> exit 0" in asked
    assert "Judge: parse-config: the output was never checked" in asked
    assert "- cycle 1: rejected" in asked and "no task ids" in asked


def test_the_exchange_is_a_trajectory_the_readers_take(env):
    outcome, _ = evolve(env, [good()])
    path = env["out"] / "evolver.json"
    assert outcome.trajectories == [str(path)]
    view = load_view(path)  # what the report and the review app read
    assert [m["role"] for m in view.messages] == ["system", "user", "assistant"]
    assert json.loads(view.messages[-1]["content"])["name"] == "check-output-files"
    assert view.status == "submitted" and view.submission == outcome.summary
    assert view.usage == {"prompt_tokens": 50, "completion_tokens": 20, "total_tokens": 70}
    assert view.metadata["evolver"] == "structured" and view.task_id == "evolve-2"
    # what the engine stores of it (evolve.json), as engine/phase_evolve.py builds it, reads back
    stored = EvolveResult.from_dict({**outcome.to_dict(), "candidate": None, "candidate_hash": None})
    assert EvolveResult.from_dict(json.loads(json.dumps(stored.to_dict()))).details["status"] == "submitted"
    assert sorted(p.name for p in env["out"].glob("evolver*.json")) == ["evolver.json"]  # the report's glob


def test_none_leaves_the_workspace_unchanged(env):
    before = tree_digest(env["workspace"])
    outcome, _ = evolve(env, [good(action="none", diagnosis="nothing in common")])
    assert outcome.status == "no change" and not outcome.mutated and not outcome.violations
    assert outcome.summary == "no change: nothing in common"
    assert tree_digest(env["workspace"]) == before


def test_replace_rewrites_an_existing_skill(env):
    outcome, _ = evolve(env, [good(name="check-your-work", action="replace")])
    assert outcome.status == "submitted" and outcome.changes.modified_skills == ["check-your-work"]
    assert "cat each output file" in skill_text(env, "check-your-work") and loads(env)


@pytest.mark.parametrize("name", ["../escape", "skills/../../x", "/etc/passwd", "a/b", "Bad_Name", "x--y", "-x",
                                  "a" * 60, ""])
def test_a_name_that_is_not_a_skill_name_is_refused_by_the_schema(env, name):
    before = tree_digest(env["tmp"])
    outcome, llm = evolve(env, [good(name=name), good(name=name)])
    assert outcome.status == "error" and not outcome.mutated and len(llm.requests) == 2  # complete_json's repair
    after = tree_digest(env["tmp"])
    assert {p for p in set(after) ^ set(before)} == {"evolve/evolver.json"}  # nothing else was written anywhere
    view = load_view(env["out"] / "evolver.json")
    assert "failed its schema" in view.metadata["errors"][0] and view.messages[-1]["role"] == "assistant"


def test_a_reply_that_is_not_json_twice_ends_without_a_change(env):
    before = tree_digest(env["workspace"])
    outcome, llm = evolve(env, ["I think a skill about files would help.", "```bash\nrm -rf /\n```"])
    assert outcome.status == "error" and not outcome.mutated and outcome.summary is None
    assert tree_digest(env["workspace"]) == before and len(llm.requests) == 2
    assert load_view(env["out"] / "evolver.json").messages[-1]["content"] == "```bash\nrm -rf /\n```"


def test_over_long_fields_are_refused_by_the_schema(env):
    long = good(description="Use when " + "x" * 300, steps=["s"] * 7, verification=["v"] * 4, diagnosis="r" * 400)
    outcome, llm = evolve(env, [long, long])
    assert outcome.status == "error" and not outcome.mutated
    repair = llm.requests[1].messages[-1]["content"]
    assert "description" in repair and "steps" in repair and "verification" in repair


def test_an_llm_failure_is_not_a_crash(env):
    outcome, _ = evolve(env, [{"error": "timeout"}])
    assert outcome.status == "error" and not outcome.mutated
    assert load_view(env["out"] / "evolver.json").metadata["errors"]


def test_replacing_a_protected_skill_is_reverted(env):
    original = skill_text(env, "check-your-work")
    outcome, llm = evolve(env, [good(name="check-your-work", action="replace")], protect_skills=True)
    assert [v.rule for v in outcome.reverted] == ["protected"] and not outcome.mutated
    assert outcome.status == "reverted" and len(llm.requests) == 1  # a permission problem gets no second question
    assert skill_text(env, "check-your-work") == original
    assert "read-only" in llm.requests[0].messages[-1]["content"]


def test_replacing_a_missing_skill_adds_it_and_adding_an_existing_one_is_refused_then_asked_once_more(env):
    outcome, llm = evolve(env, [good(name="no-such-skill", action="replace")])
    assert outcome.status == "submitted" and outcome.changes.created_skills == ["no-such-skill"]
    assert len(llm.requests) == 1 and outcome.summary.startswith("added skill no-such-skill")
    shutil.rmtree(env["out"])
    shutil.rmtree(env["workspace"] / "skills" / "no-such-skill")
    outcome, llm = evolve(env, [good(name="check-your-work"), good(name="check-your-work")])
    assert outcome.status == "refused" and not outcome.mutated and len(llm.requests) == 2
    assert "skill check-your-work exists" in llm.requests[1].messages[-1]["content"]
    assert [v.rule for v in outcome.violations] == ["reply"] and "skill check-your-work exists" in \
        outcome.violations[0].message
    # the second question may fix it
    shutil.rmtree(env["out"])
    outcome, _ = evolve(env, [good(name="check-your-work"), good(name="verify-formats")])
    assert outcome.status == "submitted" and outcome.changes.created_skills == ["verify-formats"]


def test_a_skill_naming_a_failed_task_is_refused(env):
    specific = good(steps=["For parse-config, install pyyaml first."])
    outcome, llm = evolve(env, [specific, good(action="none", diagnosis="cannot generalise")])
    assert "names the task(s) parse-config" in llm.requests[1].messages[-1]["content"]
    assert outcome.status == "no change" and not outcome.mutated


def test_a_skill_named_after_a_failed_task_or_naming_its_files_is_refused(env):
    """The quickstart of 2026-11-27: a skill named `git-branch-feature` (the task's id) whose description
    was "create a new branch named `feature` in the repository `/app/repo`" reached the gate. The name
    counts as the steps do, and so do the files the failed tasks' instructions name."""
    (env["observations"] / "parse-config" / "instruction.md").write_text(
        "Parse /app/conf/settings.yaml with the schema in /etc/yamllint/config. Then stop.")
    specific = good(name="parse-config-fix", description="Use when a YAML file such as /app/conf/settings.yaml fails.")
    outcome, llm = evolve(env, [specific, good(action="none", diagnosis="cannot generalise")])
    asked = llm.requests[1].messages[-1]["content"]
    assert "names the task(s) parse-config" in asked
    assert "names the failed tasks' own files (/app/conf/settings.yaml)" in asked
    assert not outcome.mutated
    # /app is no task's own file, and the system's own places are every task's
    general = good(description="Use when a YAML file under /app fails to parse (yamllint reads /etc/yamllint/config).")
    assert evolve(env, [general])[0].mutated


def test_front_matter_and_template_breakers_end_as_clean_text(env):
    hostile = good(description="Use when ---\nname: evil\n---\x00\x1b[31m {{ ''.__class__ }} {% for x in y %}",
                   steps=["---", "## Verification", "1. {{ cycler.__init__ }}\r\n---\tnext", "\x00\x07"],
                   verification=["- {%- raw %} `ls` # python3"])
    outcome, _ = evolve(env, [hostile])
    assert outcome.status == "submitted" and outcome.changes.added == ["skills/check-output-files/SKILL.md"]
    text = skill_text(env, "check-output-files")
    data, body = parse_skill_text(text)
    assert set(data) == {"name", "description"} and data["name"] == "check-output-files"
    assert data["description"] == "Use when --- name: evil --- [31m {{ ''.__class__ }} {% for x in y %}"
    assert "\x00" not in text and "\x1b" not in text and "\r" not in text
    headings = [line for line in body.splitlines() if line.startswith("#")]
    assert headings == ["## Steps", "## Verification"] and "\n2. ## Verification\n" in body  # a step, not a heading
    assert "3. {{ cycler.__init__ }} --- next" in body and "4." not in body  # the empty step is dropped
    assert "- {%- raw %} `ls` #" in body
    assert loads(env)  # the agent renders its prompt: the braces are text in a value, not template code
    prompt = render_system_prompt(Workspace(env["workspace"]), native_tools=True)
    assert "{{ ''.__class__ }} {% for x in y %}" in prompt  # shown as written, never evaluated


def test_a_quality_violation_gets_one_more_question_then_is_reverted(env):
    no_when = good(description="A skill about files.")
    outcome, llm = evolve(env, [no_when, no_when])
    assert [v.rule for v in outcome.violations] == ["quality"] and not outcome.repaired
    assert [v.rule for v in outcome.reverted] == ["quality"] and not outcome.mutated and outcome.status == "reverted"
    assert "must say when to use the skill" in llm.requests[1].messages[-1]["content"]
    assert not (env["workspace"] / "skills" / "check-output-files").exists() and loads(env)
    # and a fixed second reply is what is written
    shutil.rmtree(env["out"])
    outcome, _ = evolve(env, [no_when, good()])
    assert outcome.repaired and outcome.status == "submitted" and outcome.changes.created_skills == ["check-output-files"]


def test_over_budget_add_is_asked_again_and_may_fold_into_an_existing_skill(env):
    outcome, llm = evolve(env, [good(), good(name="check-your-work", action="replace")], max_skills=1)
    assert "Actions:\n- \"add\" is not possible" in llm.requests[0].messages[-1]["content"]
    assert [v.rule for v in outcome.violations] == ["budget"] and outcome.repaired
    assert outcome.changes.modified_skills == ["check-your-work"] and not outcome.changes.created_skills
    assert outcome.summary.startswith("replaced skill check-your-work")


def test_a_symlinked_skill_directory_is_not_written_through(env):
    target = env["tmp"] / "elsewhere"
    target.mkdir()
    (env["workspace"] / "skills" / "linked").symlink_to(target, target_is_directory=True)
    outcome, _ = evolve(env, [good(name="linked", action="add"), good(name="linked", action="add")])
    assert not any(target.iterdir())  # copy_editable dropped the link; nothing was written through it
    assert not (env["workspace"] / "skills" / "linked").is_symlink()


def test_skills_off_skips_without_a_question(env):
    outcome, llm = evolve(env, [], evolve_skills=False)
    assert outcome.status == "skipped" and not llm.requests and not outcome.mutated


def test_clean():
    assert clean("1. run ls\n") == "run ls"
    assert clean("- check\x00 it\t now") == "check it now"
    assert clean("2) do it") == "do it" and clean("2023 was a year") == "2023 was a year"
    assert clean("\x1b\x07") == ""


# -- the observations digest -----------------------------------------------------------------------

def test_digest_follows_no_link_and_reads_files_bounded(env, tmp_path):
    observations = env["observations"]
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP SECRET instruction")
    (observations / "parse-config" / "instruction.md").unlink()
    (observations / "parse-config" / "instruction.md").symlink_to(secret)
    linked = tmp_path / "linked-task"
    shutil.copytree(observations / "count-lines", linked)
    (linked / "instruction.md").write_text("SECRET FOLDER")
    (observations / "via-link").symlink_to(linked, target_is_directory=True)
    huge = "A" * (MAX_FILE_BYTES * 4) + "TAIL-MARKER"
    (observations / "count-lines" / "instruction.md").write_text(huge)
    digest = read_digest(observations, pass_threshold=7)
    assert digest.tasks == ["parse-config", "count-lines"]
    assert "SECRET" not in digest.text and "TAIL-MARKER" not in digest.text
    assert "Instruction: (missing)" in digest.text  # the link was not followed
    assert len(digest.text) <= 3000


def test_skill_use_and_tests_files_are_read_bounded_and_never_through_a_link(env, tmp_path):
    """skills.md and tests.json are the engine's, beside files derived from hostile trajectories: a
    huge or control-laden skills.md is cut to printable lines within SKILL_USE_CHARS; a link (to a
    file, or an observations folder that is itself a link) and a fifo are not read; a tests.json
    whose `passed` is not a boolean leaves the judge to decide."""
    from adaptive_skill.evolve.digest import SKILL_USE_CHARS

    observations = env["observations"]
    (observations / "skills.md").write_text(("- a-skill: read in 1 of 2 attempts\x1b[31m\x00\n" * 20_000)
                                            + "TAIL-MARKER\n")
    digest = read_digest(observations, pass_threshold=7)
    assert 0 < len(digest.skill_use) <= SKILL_USE_CHARS and "TAIL-MARKER" not in digest.skill_use
    assert digest.skill_use.splitlines()[0] == "- a-skill: read in 1 of 2 attempts [31m"
    assert "\x1b" not in digest.skill_use and "\x00" not in digest.skill_use
    secret = tmp_path / "secret.md"
    secret.write_text("TOP SECRET skill use")
    (observations / "skills.md").unlink()
    (observations / "skills.md").symlink_to(secret)
    assert read_digest(observations, pass_threshold=7).skill_use == ""
    (observations / "skills.md").unlink()
    os.mkfifo(observations / "skills.md")  # would block a plain read
    assert read_digest(observations, pass_threshold=7).skill_use == ""
    (observations / "skills.md").unlink()
    (observations / "skills.md").write_text("- a-skill: read in 1 of 2 attempts\n")
    linked = tmp_path / "linked-observations"
    linked.symlink_to(observations, target_is_directory=True)
    assert read_digest(linked, pass_threshold=7) == read_digest(tmp_path / "missing", pass_threshold=7)
    # tests.json: a link saying "failed" is not followed; a non-boolean `passed` is no label
    passed = tmp_path / "failed.json"
    passed.write_text(json.dumps({"passed": False}))
    (observations / "easy-one" / "tests.json").symlink_to(passed)
    (observations / "count-lines" / "tests.json").write_text(json.dumps({"passed": "yes"}))
    digest = read_digest(observations, pass_threshold=7)
    assert "easy-one" not in digest.tasks and "count-lines" in digest.tasks  # judged 9 and 4
    assert "tests" not in digest.text


def test_digest_skips_garbled_files(env):
    folder = env["observations"] / "parse-config"
    (folder / "verdict.json").write_text("{not json")
    (folder / "trajectory.txt").write_bytes(b"\xff\xfe\x00garbage")
    (folder / "signals.json").write_text("[1, 2]")
    (env["observations"] / "count-lines" / "trajectory.txt").unlink()
    os.mkfifo(env["observations"] / "count-lines" / "trajectory.txt")  # would block a plain read
    (env["observations"] / "stray-file.txt").write_text("not a task")
    digest = read_digest(env["observations"], pass_threshold=7)
    assert digest.tasks == ["parse-config", "count-lines"]  # no verdict: shown first, as a failure
    assert "### parse-config (no verdict)" in digest.text and "Last commands: (none recorded)" in digest.text
    assert read_digest(env["tmp"] / "missing", pass_threshold=7).text == ""


def test_digest_uses_the_signals_when_the_trajectory_is_a_raw_transcript(env):
    folder = env["observations"] / "parse-config"
    (folder / "trajectory.txt").write_text("assistant: ```bash\nls\n```\nuser: Observation (bash):\n[exit code 2]")
    (folder / "signals.json").write_text(json.dumps({"error_snippets": [
        {"step": 1, "kind": "exit", "exit_code": 2, "command": "ls /nope\nmore", "lines": ["No such file"]}]}))
    digest = read_digest(env["observations"], pass_threshold=7, max_tasks=1)
    assert "- $ ls /nope more -> exit 2" in digest.text and digest.tasks == ["parse-config"]


def test_last_commands_of_a_compressed_trajectory():
    assert last_commands(TRAJECTORY) == [("ls /app", "exit 0"), ("python3 -c 'import yaml'", "error exit 1"),
                                         ("echo done > /app/out.txt", "exit 0")]


def test_the_schema_becomes_a_grammar_for_embedded_models():
    """llama-cpp builds the reply's grammar from the schema (llm/local.py): the name's pattern must
    be one its builder takes, or the embedded model's names would be unconstrained."""
    grammar = pytest.importorskip("llama_cpp.llama_grammar")
    from adaptive_skill.evolve.structured import SkillReply

    text = grammar.json_schema_to_gbnf(json.dumps(SkillReply.model_json_schema()))
    assert 'name ::= "\\"" [a-z0-9]+ ("-" [a-z0-9]+)* "\\"" space' in text
    assert 'action ::= "\\"add\\"" | "\\"replace\\"" | "\\"none\\""' in text
    grammar.LlamaGrammar.from_string(text, verbose=False)


def test_a_skill_about_the_questions_own_rules_is_refused(env):
    """The 1.5B, asked for a name "in lower-case words joined by hyphens", wrote a skill about joining
    words with hyphens: a skill restating the question's rules is refused, then asked once more."""
    echo = good(description="Use when you need a short name for the skill's topic, taken from your diagnosis.")
    outcome, llm = evolve(env, [echo, good(action="none", diagnosis="nothing shared")])
    assert "restates the rules of this question" in llm.requests[1].messages[-1]["content"]
    assert outcome.status == "no change" and not outcome.mutated


def test_a_skill_naming_nothing_of_the_failures_situation_is_refused(env):
    """The failures ran python3 and met "No module named 'yaml'": a skill that names neither is about
    something else (the 1.5B's `lower-case-words-joined-by-hyphens`)."""
    (env["observations"] / "parse-config" / "signals.json").write_text(json.dumps({"error_snippets": [
        {"step": 2, "kind": "error", "exit_code": 1, "command": "python3 -c 'import yaml'",
         "lines": ["ModuleNotFoundError: No module named 'yaml'"]}]}))
    off_topic = good(name="lower-case-words-joined-by-hyphens",
                     description="Use when the agent needs to convert a string to lowercase and join words.",
                     steps=["Lower-case the string.", "Join the words with hyphens."],
                     verification=["The result has no capital letters."])
    outcome, llm = evolve(env, [off_topic, good(name="check-modules", description="Use when a script "
                                                "fails with No module named X.", steps=["Try the import first."],
                                                verification=["The import succeeds."])])
    asked_again = llm.requests[1].messages[-1]["content"]
    assert "names nothing of the failures' situation" in asked_again and "no module named" in asked_again
    assert "python" in asked_again
    assert outcome.status == "submitted" and outcome.changes.created_skills == ["check-modules"]
    # the question showed the error itself, its command and exit code, before the skills and the rules
    asked = llm.requests[0].messages[-1]["content"]
    assert "Errors:\n- $ python3 -c 'import yaml' -> exit 1: ModuleNotFoundError: No module named 'yaml'" in asked
    assert asked.index("### parse-config") < asked.index("Skills now:") < asked.index("- diagnosis:")


def test_the_question_holds_the_history_the_skill_use_and_with_labels_the_tests(env):
    """The evolver remembers: each earlier change with the gate's decision and its evidence, and how
    the agent used each skill; with trajectory_only off, the tests decide which tasks failed."""
    (env["observations"] / "skills.md").write_text(
        "How the agent used each skill (its train attempts so far; judge scores 0-10):\n"
        "- check-your-work: read in 1 of 6 attempts; judge score 3.0 when read\n")
    (env["observations"] / "easy-one" / "tests.json").write_text(json.dumps({"passed": False}))  # judged 9
    (env["observations"] / "count-lines" / "tests.json").write_text(json.dumps({"passed": True}))  # judged 4
    config = EvolveConfig(evolver={"mode": "structured"}, max_skills=1)  # the seed's one skill fills it
    llm = ScriptedLLM([{"content": good(action="none", diagnosis="x")}], Accounting(config.limits), role="evolver")
    history = ["cycle 1: added skill zip-fallback: zip missing -> rejected by gating (holdout: 2 round(s), mean "
               "difference -0.10; 1 task(s) better, 2 worse, 9 unchanged)"]
    StructuredEvolver(llm, config).evolve(env["workspace"], env["observations"], env["out"], history=history)
    asked = llm.requests[0].messages[-1]["content"]
    assert "- check-your-work: read in 1 of 6 attempts; judge score 3.0 when read" in asked
    assert "do not propose a rejected skill again" in asked and "1 task(s) better, 2 worse, 9 unchanged" in asked
    assert "### easy-one (score 9/10, tests failed)" in asked and "count-lines" not in asked
    assert "the library is full (1 skills). Replace the skill that helps least" in asked


def test_a_batch_without_a_failure_asks_nothing_and_changes_nothing(env):
    """Every verdict at or above the pass threshold: there is nothing to diagnose, so the model is not
    asked (the 1.5B, asked anyway, wrote the prompt's own example, a skill installing zip)."""
    for folder in env["observations"].iterdir():
        if folder.is_dir():
            verdict = json.loads((folder / "verdict.json").read_text())
            (folder / "verdict.json").write_text(json.dumps({**verdict, "score": 9, "failure_reason": "none"}))
    before = tree_digest(env["workspace"])
    outcome, llm = evolve(env, [json.dumps(good())])
    assert outcome.status == "no change" and "nothing to diagnose" in outcome.summary
    assert not llm.requests  # the model was never asked
    assert tree_digest(env["workspace"]) == before


def test_a_step_that_quotes_the_record_is_refused_and_asked_again(env):
    """The 1.5B's steps for a zip failure were the digest's own lines (`$ zip -r ... -> exit 127: ...`)
    three times: refused with the reason, and the second reply, a real instruction, is written."""
    quoted = good(name="zip-missing", steps=["$ zip -r /app/docs.zip a.txt -> exit 127: bash: zip: command not found"],
                  description="Use when zip is not installed (command not found).")
    fixed = good(name="zip-missing", description="Use when zip is not installed (command not found).",
                 steps=["Make the archive with python3 -m zipfile -c OUT.zip FILES instead of zip."])
    outcome, llm = evolve(env, [json.dumps(quoted), json.dumps(fixed)])
    assert "quotes the failures' record" in llm.requests[1].messages[-1]["content"]
    assert outcome.mutated and "python3 -m zipfile" in skill_text(env, "zip-missing")


def test_quotes_record_tells_a_record_line_from_an_instruction():
    from adaptive_skill.evolve.relevance import quotes_record

    assert quotes_record(["- $ git add README.md -> exit 128"]) == "- $ git add README.md -> exit 128"
    assert quotes_record(["$  -> format: read_skill needs a skill name"]) is not None
    assert quotes_record(["Run git -C /app/repo add README.md, not git add in /app.",
                          "Check the exit code: 0 -> done."]) is None


def test_a_skill_the_gate_rejected_is_not_proposed_again_by_name_or_in_other_words(env):
    """The 1.5B proposed the skill the gate had just rejected again, word for word (docs/results.md,
    run 6). The run's rejected candidates are read from its events and the workspace's git history:
    the same name is refused, so is the same skill renamed; the second question's different skill is
    written. A rejected commit that is not in the repository (an event the agent could not have
    written, but a damaged run might hold) refuses nothing and breaks nothing."""
    from adaptive_skill.runs import RunDir
    from adaptive_skill.versioning import WorkspaceRepo

    repo = WorkspaceRepo.init(env["workspace"])
    accepted = repo.head()
    outcome, _ = evolve(env, [good()])  # write check-output-files, then commit it as a candidate
    assert outcome.mutated
    rejected = repo.snapshot("cycle 1: candidate")
    repo.rollback(accepted, "cycle 1: roll back")
    run = RunDir(env["tmp"] / "run")
    run.root.mkdir()
    run.event("mutation_rejected", cycle=1, rejected_commit="0" * 40, reason="damaged")
    run.event("mutation_rejected", cycle=1, rejected_commit=rejected, reason="no clear improvement")
    config = EvolveConfig(evolver={"mode": "structured"})

    def ask(replies):
        shutil.rmtree(env["out"], ignore_errors=True)
        llm = ScriptedLLM([{"content": r} for r in replies], Accounting(config.limits), role="evolver")
        got = StructuredEvolver(llm, config, run=run).evolve(env["workspace"], env["observations"], env["out"])
        repo.rollback(accepted, "reset")
        return got, llm

    outcome, llm = ask([good(), good()])
    assert outcome.status == "refused" and not outcome.mutated and len(llm.requests) == 2
    assert f"the gate already rejected this skill (check-output-files, rejected {rejected[:10]})" in \
        llm.requests[1].messages[-1]["content"]
    renamed = good(name="verify-output-files")
    outcome, llm = ask([renamed, good(name="python-yaml-missing",
                                      description="Use when python3 says No module named yaml.",
                                      steps=["Without the yaml module, read the key: value lines with python3 "
                                             "string methods, then run the script again."],
                                      verification=["python3 prints the values, no ModuleNotFoundError."])])
    assert "in other words" in llm.requests[1].messages[-1]["content"]
    assert outcome.mutated and outcome.changes.created_skills == ["python-yaml-missing"]
    # without the run, nothing is known to be rejected: the same skill is written
    shutil.rmtree(env["out"])
    llm = ScriptedLLM([{"content": good()}], Accounting(config.limits), role="evolver")
    assert StructuredEvolver(llm, config).evolve(env["workspace"], env["observations"], env["out"]).mutated


@pytest.mark.parametrize("allow_network", [False, True])
def test_the_question_says_the_containers_have_no_network_only_when_none_can(env, allow_network):
    """sandbox.allow_network false: no task's container has a network, and the question says so;
    with it on (a suite whose tasks may reach the network), the question does not claim it."""
    from adaptive_skill.evolve.prompts import NO_NETWORK

    _, llm = evolve(env, [good()], sandbox={"allow_network": allow_network})
    asked = llm.requests[0].messages[-1]["content"]
    assert (NO_NETWORK in asked) is (not allow_network)
    assert "### parse-config (score 2/10)" in asked


def test_a_step_that_is_a_failed_command_of_the_record_is_refused_and_asked_again(env):
    """Run 10: the 1.5B's skill for `jq: command not found` was the failed jq commands themselves,
    without the record's `-> exit 127`, which quotes_record looks for. A step that is a command the
    record shows failing is refused; one that succeeded (`ls /app`) is not a reason."""
    copied = good(name="python-modules", description="Use when python3 cannot import a module (ModuleNotFoundError).",
                  steps=["ls /app", "$  python3 -c 'import yaml'"])
    fixed = good(name="python-modules", description="Use when python3 cannot import a module (ModuleNotFoundError).",
                 steps=["ls /app", "Read the file with the json module or plain text instead: the module is not installed."])
    outcome, llm = evolve(env, [json.dumps(copied), json.dumps(fixed)])
    asked_again = llm.requests[1].messages[-1]["content"]
    assert "a step is a command that failed in the record" in asked_again and "import yaml" in asked_again
    assert outcome.mutated and "json module" in skill_text(env, "python-modules")
    assert "import yaml" not in skill_text(env, "python-modules")


@pytest.mark.parametrize("allow_network", [False, True])
def test_a_step_that_installs_is_refused_only_when_the_containers_have_no_network(env, allow_network):
    """Run 10: told the containers have no network, the 1.5B still wrote "install jq" / "apt-get
    install jq" in 5 of 5 replies. With sandbox.allow_network off such a step is refused and asked
    again; with it on (tasks that may reach the network) it is written."""
    installing = good(name="python-yaml-missing", description="Use when python3 says No module named yaml.",
                      steps=["Install the module: pip install pyyaml", "Run the python3 script again."])
    fixed = good(name="python-yaml-missing", description="Use when python3 says No module named yaml.",
                 steps=["Without the yaml module, read the key: value lines with python3 string methods."])
    outcome, llm = evolve(env, [json.dumps(installing), json.dumps(fixed)], sandbox={"allow_network": allow_network})
    text = skill_text(env, "python-yaml-missing")
    if allow_network:
        assert len(llm.requests) == 1 and "pip install pyyaml" in text
    else:
        assert "installs or downloads something" in llm.requests[1].messages[-1]["content"]
        assert outcome.mutated and "pip install" not in text and "string methods" in text


def test_installs_tells_an_install_or_download_from_a_mention():
    from adaptive_skill.evolve.relevance import installs

    for line in ("install jq", "Install jq if it is missing: `apt-get install jq`", "sudo apt-get -y install zip", "If jq is not installed, run apt-get install jq",
                 "pip3 install pyyaml", "curl -o /tmp/x https://example.com/x", "brew install jq"):
        assert installs([line]) == line
    for line in ("python3 -m json.tool IN > OUT", "Check that jq is installed: command -v jq", "make install",
                 "python3 -m zipfile -c out.zip dir", "Reinstalling is not possible; use python3.",
                 "Never pip install: the containers have no network.", "Do not run apt-get install jq."):
        assert installs([line]) is None


def test_every_reason_is_given_at_once_and_a_failed_command_in_a_code_span_counts(env):
    """Quickstart, 2026-11-27: the 1.5B's skill was named like an existing one and its step said "try
    `git checkout -b feature /app/repo` again", the failed command inside a sentence. Told only of the
    name, it renamed the skill and kept the step, and its one more question was spent. Now the refusal
    lists both reasons, and a code span that is a failed command counts as the command."""
    both = good(name="check-your-work", description="Use when python3 cannot import a module (ModuleNotFoundError).",
                steps=["Then run `python3 -c 'import yaml'` again."])
    fixed = good(name="python-modules", description="Use when python3 cannot import a module (ModuleNotFoundError).",
                 steps=["Read the file with the json module or plain text instead: the module is not installed."])
    outcome, llm = evolve(env, [json.dumps(both), json.dumps(fixed)])
    asked_again = llm.requests[1].messages[-1]["content"]
    assert "skill check-your-work exists" in asked_again and "a step is a command that failed" in asked_again
    assert outcome.mutated and outcome.changes.created_skills == ["python-modules"]


def test_the_question_names_the_programs_the_failures_containers_have(env, tmp_path):
    """Told only that there is no network, the 1.5B installed jq or answered `none`: the question
    now says which common programs the failed tasks' containers had (probed before the agent ran).
    Only the shown failures count; a linked or garbled programs.json is no fact."""
    observations = env["observations"]
    (observations / "parse-config" / "programs.json").write_text(
        json.dumps({"installed": ["python3", "git", "sed"], "missing": ["jq", "zip"]}))
    (observations / "count-lines" / "programs.json").write_text(
        json.dumps({"installed": ["python3", "sed", "zip"], "missing": ["jq", "git", "evil\x1b[2J"]}))
    (observations / "easy-one" / "programs.json").write_text(json.dumps({"installed": ["jq"], "missing": []}))  # passed
    _, llm = evolve(env, [good()])
    asked = llm.requests[0].messages[-1]["content"]
    assert "Installed in the tasks' containers: python3, sed. Not installed there: jq." in asked
    assert asked.index("A skill must use the tools the container already has.") < asked.index("Installed in")
    # a link is not followed, garbage is ignored: what is left is the one sound file's
    secret = tmp_path / "programs.json"
    secret.write_text(json.dumps({"installed": ["node"], "missing": []}))
    (observations / "count-lines" / "programs.json").unlink()
    (observations / "count-lines" / "programs.json").symlink_to(secret)
    (observations / "parse-config" / "programs.json").write_text("[1, 2" * 1000)
    assert read_digest(observations, pass_threshold=7).programs == ""


def sampled(env, replies, samples=3, **settings):
    """The structured evolver with evolver.samples: the sampler hands out the same scripted model (its
    script goes on) and notes each seed it was asked for."""
    config = EvolveConfig(evolver={"mode": "structured", "samples": samples},
                          models={"evolver": {"temperature": 0.7}}, **settings)
    accounting = Accounting(config.limits)
    llm = ScriptedLLM([{"content": r, "usage": {"prompt_tokens": 50, "completion_tokens": 20}} for r in replies],
                      accounting, role="evolver")
    seeds = []

    def sampler(seed):
        seeds.append(seed)
        return llm

    evolver = make_evolver(config, llm, sandbox_factory=_no_sandbox, accounting=accounting, sampler=sampler)
    return evolver.evolve(env["workspace"], env["observations"], env["out"], task_id="evolve-2"), llm, seeds


def test_with_samples_a_refused_reply_is_followed_by_a_fresh_question_until_one_passes(env):
    """evolver.samples (for a model whose replies the rules mostly refuse): sample 1 installs jq and,
    asked again, answers none; sample 2, a fresh question at another seed, passes and is written.
    Each exchange is its own record; the summary says which sample was kept and what came before."""
    installing = good(steps=["apt-get install -y jq"])
    outcome, llm, seeds = sampled(env, [installing, good(action="none", diagnosis="nothing"), good()])
    assert outcome.status == "submitted" and outcome.changes.created_skills == ["check-output-files"]
    assert len(llm.requests) == 3 and len(seeds) == 1 and seeds[0] != 0
    assert "Your skill was not written" not in llm.requests[2].messages[-1]["content"]  # a fresh question
    assert [Path(t).name for t in outcome.trajectories] == ["evolver.json", "evolver-sample-2.json"]
    first = json.loads((env["out"] / "evolver.json").read_text())
    assert first["status"] == "no change" and len(first["messages"]) == 5
    assert outcome.summary.startswith("sample 2 of 3: added skill check-output-files") and "earlier: no change: nothing" \
        in outcome.summary
    assert loads(env)


def test_with_samples_every_refusal_ends_refused_after_the_last_and_seeds_are_stable(env):
    installing = good(steps=["apt-get install -y jq"])
    outcome, llm, seeds = sampled(env, [installing] * 6)
    assert outcome.status == "refused" and not outcome.mutated and len(llm.requests) == 6
    assert len(outcome.trajectories) == 3 and len(set(seeds)) == 2
    shutil.rmtree(env["out"])
    assert sampled(env, [installing] * 6)[2] == seeds  # the same seeds again: a resumed step asks the same


def test_with_samples_a_batch_without_failure_or_a_model_error_asks_no_more(env):
    for task in ("parse-config", "count-lines"):
        verdict = env["observations"] / task / "verdict.json"
        verdict.write_text(json.dumps({**json.loads(verdict.read_text()), "score": 9}))
    outcome, llm, seeds = sampled(env, [good()])
    assert outcome.status == "no change" and not llm.requests and not seeds
    (env["observations"] / "count-lines" / "verdict.json").write_text(json.dumps({"score": 2}))
    shutil.rmtree(env["out"])
    outcome, llm, seeds = sampled(env, ["not json", "still not json"])
    assert outcome.status == "error" and not seeds


def _demo_env(env, tmp_path):
    """The worked example's own question as a batch: its one failed task, as the engine writes it."""
    observations = tmp_path / "demo-observations"
    folder = observations / "report-interfaces"
    folder.mkdir(parents=True)
    (observations / "index.md").write_text("# Observations\n")
    (folder / "instruction.md").write_text(
        "Write the names of the network interfaces to `/srv/net/interfaces.txt`, one per line.")
    (folder / "trajectory.txt").write_text(
        "## Errors (2)\nstep 1 $ ifconfig -a > /srv/net/interfaces.txt\n  -> error exit 127\n"
        "  | bash: ifconfig: command not found\nstep 2 $ apt-get install -y net-tools\n  -> error exit 100\n"
        "  | E: Unable to locate package net-tools\n")
    (folder / "signals.json").write_text(json.dumps({"error_snippets": []}))
    (folder / "verdict.json").write_text(json.dumps(
        {"score": 2, "category": "system", "outcome": "empty file", "failure_reason": "ifconfig is not installed"}))
    return {**env, "observations": observations}


@pytest.mark.parametrize("needs", [True, False], ids=["profile-on", "profile-off"])
def test_the_worked_example_goes_first_only_to_a_model_that_needs_it_and_passes_its_own_rules(env, tmp_path, needs):
    """models.evolver.evolver_demo: the example question and its reply precede the real question for a
    model measured to need it (an embedded model's profile, or the config), never otherwise; the
    example's reply is a valid reply that the rules write for its own question."""
    from adaptive_skill.evolve.prompts import DEMO_REPLY

    outcome, llm = evolve(env, [good()])
    assert [m["role"] for m in llm.requests[0].messages] == ["system", "user"]
    assert json.loads((env["out"] / "evolver.json").read_text())["metadata"]["demo"] is False

    config = EvolveConfig(evolver={"mode": "structured"})
    shown = _demo_env(env, tmp_path / f"case-{needs}")
    workspace = tmp_path / f"workspace-{needs}"
    shutil.copytree(REPO / "workspace", workspace)
    scripted = ScriptedLLM([{"content": DEMO_REPLY}, {"content": good(action="none", diagnosis="none")}],
                           role="evolver", evolver_demo=needs)  # as LLMClient sets it (profile, config)
    out = tmp_path / f"out-{needs}"
    evolved = StructuredEvolver(scripted, config).evolve(workspace, shown["observations"], out)
    sent = scripted.requests[0].messages
    assert json.loads((out / "evolver.json").read_text())["metadata"]["demo"] is needs
    # the example's reply, asked its own question, meets one refusal only: that it copies the example
    repair = scripted.requests[1].messages[-1]["content"]
    assert evolved.status == "no change" and repair == (
        "Your skill was not written, because:\n- the skill copies the example reply: write one for the failures "
        "above, from their own commands and errors\nReply again with one corrected JSON object (or action "
        "\"none\"). Anything still wrong is dropped.")
    if needs:
        assert [m["role"] for m in sent] == ["system", "user", "assistant", "user"]
        assert "### report-interfaces" in sent[1]["content"] and json.loads(sent[2]["content"]) == DEMO_REPLY
        assert sent[3]["content"] == json.loads((out / "evolver.json").read_text())["instruction"]
    else:
        assert [m["role"] for m in sent] == ["system", "user"]


def test_the_client_takes_the_worked_example_from_the_profile_unless_the_config_says(monkeypatch):
    from adaptive_skill.config import ModelConfig
    from adaptive_skill.llm.client import LLMClient

    accounting = Accounting()
    assert LLMClient(ModelConfig(model="openai/gpt-4o"), accounting, role="evolver").evolver_demo is False
    assert LLMClient(ModelConfig(), accounting, role="evolver", evolver_demo=True).evolver_demo is True
    assert LLMClient(ModelConfig(evolver_demo=False), accounting, role="evolver", evolver_demo=True).evolver_demo is False
    assert LLMClient(ModelConfig(evolver_demo=True), accounting, role="evolver").evolver_demo is True


def test_a_skill_that_copies_the_worked_example_is_refused_but_one_of_the_same_kind_is_not(env):
    """The example names `command not found` and exit 127, which pass the situation rule for any missing
    program: a copy is caught by its words, a skill of its own for a missing program is written."""
    from adaptive_skill.evolve.prompts import DEMO_REPLY
    from adaptive_skill.evolve.structured import copies_demo

    copy = " ".join([DEMO_REPLY["description"], *DEMO_REPLY["steps"], *DEMO_REPLY["verification"]])
    assert copies_demo(copy) and copies_demo(copy.replace("ifconfig", "jq"))
    own = good(name="count-json-without-jq", description="Use when jq is missing (command not found, exit 127) "
               "and a task counts JSON records.",
               steps=["Load the file with python3 and count: `python3 -c 'import json,sys; print(len(json.load("
                      "open(sys.argv[1]))))' FILE`."], verification=["cat the output file: one number."])
    assert not copies_demo(" ".join([own["description"], *own["steps"], *own["verification"]]))


def test_the_worked_example_is_on_for_the_model_measured_to_need_it_only():
    """The 1.5B's evolver gets the example (measured, docs/llm.md); the 0.5B and SmolLM2 were not
    measured with it and do not; an API model never does (its client's default, above)."""
    from adaptive_skill.llm.local import MODELS

    assert {name for name, spec in MODELS.items() if spec.evolver_demo} == {"qwen2.5-coder-1.5b"}

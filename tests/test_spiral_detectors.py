"""The spiral monitor over simulated steps: a spiral of every kind is caught by its detector, and
healthy work (retries that succeed, polling, progress, debugging) is not. The long productive run
is a fixture file, in test_spiral_scan.py."""

import pytest

from adaptive_skill.config import SpiralConfig
from adaptive_skill.embed.lexical import LexicalEmbedder
from adaptive_skill.spiral.monitor import SpiralMonitor
from adaptive_skill.trajectory import StepRecord, Trajectory, event_summary

NO_BLOCK = "format: no fenced block in the reply"


class Sim:
    """Steps fed to a SpiralMonitor the way TerminalAgent feeds them; interventions applied to a
    context like the agent does."""

    def __init__(self, instruction: str, config: SpiralConfig | None = None, **settings):
        config = config or SpiralConfig.model_validate(settings)
        self.trajectory = Trajectory("t", "m", instruction, messages=[
            {"role": "system", "content": "You are an agent."}, {"role": "user", "content": instruction}])
        self.context = list(self.trajectory.messages)
        self.monitor = SpiralMonitor(config, LexicalEmbedder())
        self.interventions = []

    def step(self, command=None, output="", exit_code=0, thought="", tool="bash", timed_out=False, error=None):
        if command is None and tool == "bash":
            tool, error = None, error or NO_BLOCK
        assistant = {"role": "assistant", "content": thought}
        self._add(assistant)
        record = StepRecord(len(self.trajectory.steps) + 1, tool, command or "", output,
                            exit_code if tool == "bash" and not timed_out else None, timed_out, error,
                            message_index=len(self.trajectory.messages) - 1)
        self.trajectory.steps.append(record)
        self._add({"role": "user", "content": f"Observation ({tool}):\n{output}"})
        if record.tool is None:
            return None  # like the agent: malformed turns reach the monitor with the next real step
        intervention = self.monitor.observe(record, self.trajectory, self.context)
        if intervention is not None:
            self.interventions.append(intervention)
            self.trajectory.events.append({"step": record.index, "detector": intervention.detector,
                                           "action": intervention.action, "evidence": intervention.evidence})
            if intervention.context is not None:
                self.context[:] = intervention.context
            if intervention.message:
                self._add({"role": "user", "content": intervention.message})
        return intervention

    def _add(self, message):
        self.trajectory.messages.append(message)
        self.context.append(message)

    def detected(self) -> set[str]:
        return {e["detector"] for e in self.trajectory.events if e["action"] == "detected"}

    def actions(self) -> list[tuple[int, str, str]]:
        return [(e["step"], e["action"], e["detector"]) for e in self.trajectory.events if e["action"] != "detected"]

    def events_of(self, detector: str) -> list[dict]:
        return [e for e in self.trajectory.events if e["detector"] == detector and e["action"] == "detected"]


def healthy(sim: Sim) -> None:
    assert sim.actions() == [], sim.trajectory.events
    assert sim.detected() == set(), sim.trajectory.events


# -- spirals ------------------------------------------------------------------------------------


def test_exact_repetition_normalises_quoting_spacing_and_paths():
    sim = Sim("Show the config of the app in /app")
    sim.step("cd /app", "", 0)
    variants = ["cat ./config.yaml", "cat  'config.yaml'", 'cat "/app/config.yaml"']
    for command in variants:
        sim.step(command, "port: 80\nhost: 0.0.0.0", 0, "Read the config.")
    event = sim.events_of("exact_repetition")[0]
    assert event["step"] == 4 and event["evidence"]["action"] == "bash:cat config.yaml"
    assert event["evidence"]["steps"] == [2, 3, 4] and event["evidence"]["span_start"] == 2
    assert sim.actions()[0] == (4, "nudge", "exact_repetition")


def test_exact_repetition_needs_the_same_result():
    sim = Sim("Watch the log")
    for n in range(5):
        sim.step("tail -1 app.log", f"line {n}: request served", 0)
    assert "exact_repetition" not in sim.detected()


def test_semantic_repetition_same_meaning_other_words():
    sim = Sim("Summarise /data/sales.csv into report.md")
    for thought in ["I need more information about the sales data columns before writing.",
                    "I still need more information about the sales data columns before writing anything.",
                    "Before writing I need more information about the columns of the sales data."]:
        sim.step("ls /data", "sales.csv", 0, thought)
    event = sim.events_of("semantic_repetition")[0]
    assert event["step"] == 3 and len(event["evidence"]["steps"]) == 2
    assert all(c >= 0.6 for c in event["evidence"]["similarity"])


def test_semantic_repetition_of_talk_without_actions_and_the_monologue():
    sim = Sim("Summarise /data/sales.csv into report.md")
    for thought in ["I need more information to understand this problem. Please provide more details.",
                    "I need more information before I can understand the problem. Please provide details.",
                    "More information is needed to understand this problem; please provide more details.",
                    "I need more information to understand this problem. Please provide more details first."]:
        sim.step(None, thought=thought)
    sim.step("ls /data", "sales.csv", 0, "Let me look.")  # the monitor catches up on the silent turns here
    assert {"monologue", "semantic_repetition"} <= sim.detected()
    monologue = sim.events_of("monologue")[0]
    assert monologue["evidence"]["kind"] == "no_action" and monologue["evidence"]["steps"] == [1, 2, 3]


def test_self_reference_planning_about_planning():
    sim = Sim("Fix the failing test in src/parser.py")
    for thought, command in [("Let me plan how to plan this task.", "ls"),
                             ("First I should think about how to think about the plan.", "ls src"),
                             ("Now let me re-plan my plan before anything else.", "ls tests")]:
        sim.step(command, f"listing of {command}", 0, thought)
    events = sim.events_of("monologue")
    assert events and events[0]["evidence"]["kind"] == "self_reference"
    assert sim.actions() and sim.actions()[0][2] == "monologue"


def test_alternation_of_actions():
    sim = Sim("Fix the build with make")
    for _ in range(3):
        sim.step("make", "main.c:3: error: unknown type name 'foo'\nmake: *** [main.o] Error 1", 2, "Build.")
        sim.step("cat main.c", "foo x;\nint main(){}", 0, "Look at the source.")
    event = sim.events_of("alternation")[0]
    assert event["evidence"]["kind"] == "actions" and event["evidence"]["period"] == 2
    assert event["evidence"]["steps"] == [1, 2, 3, 4, 5, 6]


def test_alternation_of_file_contents_edit_and_revert():
    sim = Sim("Make the service start with config.yaml")
    checks = iter(range(100))
    for _ in range(2):
        sim.step("sed -i 's/port: 80/port: 8080/' config.yaml", "", 0, "Try the other port.")
        sim.step("./check.sh", f"attempt {next(checks)}: down", 1, "Check.")
        sim.step("git checkout -- config.yaml", "", 0, "Undo that.")
        sim.step("./check.sh", f"attempt {next(checks)}: down", 1, "Check.")
    event = next(e for e in sim.events_of("alternation") if e["evidence"]["kind"] == "file")
    assert event["evidence"]["file"] == "config.yaml" and event["evidence"]["steps"] == [1, 3, 5, 7]


def test_alternation_of_heredoc_contents():
    sim = Sim("Write solve.py")
    for version in ("print(1)", "print(2)", "print(1)", "print(2)"):
        sim.step(f"cat > solve.py <<'EOF'\n{version}\nEOF", "", 0, "Rewrite it.")
        sim.step("python3 solve.py", version[-2], 0)
    assert any(e["evidence"]["kind"] == "file" for e in sim.events_of("alternation"))


def test_repeated_errors_across_variants_of_a_command():
    sim = Sim("Install the dependencies in requirements.txt")
    for command in ["pip install -r requirements.txt", "pip3 install -r requirements.txt",
                    "python3 -m pip install -r requirements.txt"]:
        sim.step(command, "Collecting foo==9.9\nERROR: No matching distribution found for foo==9.9", 1)
    event = sim.events_of("repeated_errors")[0]
    assert event["step"] == 3 and event["evidence"]["count"] == 3
    assert "No matching distribution" in event["evidence"]["error"]
    assert sim.actions() == [(3, "nudge", "repeated_errors")]


def test_repeated_timeouts_and_unknown_tools():
    sim = Sim("Download the data")
    for _ in range(3):
        sim.step("wget http://example.invalid/data.csv", "", timed_out=True)
    assert sim.events_of("repeated_errors")[0]["evidence"]["error"].startswith("timeout:")

    sim = Sim("Run the script")
    for _ in range(3):
        sim.step(None, thought="Use python directly.", tool=None,
                 error="format: unknown tool 'python' (tools: bash, read_skill, submit)")
    sim.step("ls", "script.py", 0)
    errors = sim.events_of("repeated_errors")
    assert errors and errors[0]["evidence"]["error"] == "unknown tool: python"


def test_stagnation_same_failure_after_cosmetic_edits():
    sim = Sim("Make the tests pass", detectors={"exact_repetition": {"enabled": False}})
    runners = ["pytest -q", "python3 -m pytest -q", "pytest -q tests/", "pytest -q -x", "pytest"]
    for n, runner in enumerate(runners):
        sim.step(runner, f"FAILED tests/test_a.py::test_x - AssertionError: 1 != 2\n1 failed, 4 passed in 0.{n}2s", 1)
        sim.step(f"sed -i 's/  / /' src/a{n}.py", "", 0, "Tidy the formatting.")
    event = sim.events_of("stagnation")[0]
    assert event["step"] == 5 and event["evidence"]["steps"] == [1, 3, 5] and event["evidence"]["other_steps"] == 2
    assert any(action[2] == "stagnation" for action in sim.actions())


def test_goal_drift():
    sim = Sim("Fix the failing unit test in src/parser.py so that pytest passes")
    sim.step("pytest -q", "FAILED tests/test_parser.py::test_split\n1 failed", 1, "Run the parser tests.")
    for command, output in [("cat /etc/os-release", "PRETTY_NAME=Debian"), ("uname -a", "Linux box 6.1"),
                            ("df -h", "/dev/vda 252G"), ("free -m", "Mem: 23000"), ("ls /var/log", "apt dpkg.log"),
                            ("cat /proc/cpuinfo | head -3", "processor: 0"), ("who", "root pts/0"),
                            ("date", "Mon Jan 1"), ("env | head -3", "HOME=/root")]:
        sim.step(command, output, 0, "Let me look around the machine.")
    events = sim.events_of("goal_drift")
    assert events and events[0]["step"] == 8 and events[0]["evidence"]["mean_relevance"] < 0.2
    assert events[0]["evidence"]["steps"] == list(range(1, 9))
    assert (9, "nudge", "goal_drift") in sim.actions()


@pytest.mark.parametrize(("limit", "value", "step"), [("max_steps", 3, 3), ("max_tokens", 250, 3),
                                                      ("max_cost", 0.05, 5), ("max_wall_time_sec", 4.0, 2)])
def test_hard_limits_terminate_at_once(limit, value, step):
    sim = Sim("Count to ten", limits={limit: value})
    for n in range(1, 6):
        record = StepRecord(n, "bash", f"echo {n}", f"{n}\n", 0, prompt_tokens=80, completion_tokens=20, cost=0.01,
                            duration_sec=1.5, llm_duration_sec=0.5)
        sim.trajectory.steps.append(record)
        intervention = sim.monitor.observe(record, sim.trajectory, sim.context)
        if intervention:
            break
    assert (record.index, intervention.action, intervention.detector) == (step, "terminate", "hard_limit")
    assert intervention.evidence["detections"][0]["detector"] == "hard_limit"


# -- the ladder ---------------------------------------------------------------------------------


def test_ladder_escalates_with_cooldown_and_acts_on_the_context():
    sim = Sim("Create hello.txt containing hi")
    sim.step("ls", "notes.txt", 0, "Look around.")
    for _ in range(8):
        sim.step("cat hello.txt", "cat: hello.txt: No such file or directory", 1, "Let me read the file.")
    assert [(s, a) for s, a, _ in sim.actions()] == [(4, "nudge"), (6, "restart"), (8, "rollback")]
    nudge, restart, rollback = sim.interventions[:3]
    assert nudge.message.startswith("[loop monitor]") and "cat hello.txt" in nudge.message
    # restart: system prompt and instruction, then a summary built from the record
    assert restart.context == sim.trajectory.messages[:2]
    assert "commands that worked (latest first): `ls`" in restart.message
    assert "failed 5 times: `cat hello.txt` -> " in restart.message and "No such file" in restart.message
    # rollback: the looping span (from its first step still in the context) is gone
    assert rollback.evidence["dropped_steps"] == [7, 8]
    kept = {id(m) for m in rollback.context}
    assert id(sim.trajectory.messages[sim.trajectory.steps[6].message_index]) not in kept
    assert "removed steps 7-8" in rollback.message
    sim.step("cat hello.txt", "cat: hello.txt: No such file or directory", 1)
    sim.step("cat hello.txt", "cat: hello.txt: No such file or directory", 1)
    assert sim.actions()[-1][:2] == (10, "escalate")
    summary = event_summary(sim.trajectory.events)
    assert summary["by_action"] == {"nudge": 1, "restart": 1, "rollback": 1, "escalate": 1}
    assert summary["first_intervention_step"] == 4 and summary["strongest_action"] == "escalate"
    assert summary["detected_by"]["exact_repetition"] >= 4


def test_a_custom_ladder_and_weights():
    sim = Sim("Create hello.txt", ladder=["terminate"], detectors={"repeated_errors": {"weight": 0}})
    for _ in range(3):
        sim.step("cat hello.txt", "No such file", 1)
    assert sim.actions() == [(3, "terminate", "exact_repetition")]

    sim = Sim("Create hello.txt", threshold=50.0)
    for _ in range(4):
        sim.step("cat hello.txt", "No such file", 1)
    assert sim.actions() == [] and "exact_repetition" in sim.detected()


def test_quiet_steps_walk_the_ladder_down():
    sim = Sim("Create the report in report.md", calm_steps=3)
    for _ in range(3):
        sim.step("cat report.md", "No such file", 1)
    for n in range(4):
        sim.step(f"echo line {n} >> report.md", "", 0, "Write the report.")
    for _ in range(3):
        sim.step("cat report.md", "No such file", 1)
    # the second loop starts again from a nudge, then climbs
    assert [(s, a) for s, a, _ in sim.actions()] == [(3, "nudge"), (8, "nudge"), (10, "restart")]


def test_disabled_detectors_and_monitor_without_embedder():
    config = SpiralConfig.model_validate({"detectors": {name: {"enabled": False} for name in (
        "exact_repetition", "repeated_errors", "stagnation", "alternation")}})
    monitor = SpiralMonitor(config, embedder=None)
    sim = Sim("x", config)
    sim.monitor = monitor
    for _ in range(5):
        sim.step("cat x", "No such file", 1, "Read x.")
    assert sim.actions() == [] and "semantic_repetition" not in sim.detected()


# -- healthy work must not trip -------------------------------------------------------------------


def test_retry_after_a_lock_error():
    sim = Sim("Install jq with apt")
    lock = "E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 4242 (apt-get)"
    sim.step("apt-get install -y jq", lock, 100, "Install jq.")
    sim.step("apt-get install -y jq", lock, 100, "Another apt holds the lock; try again.")
    sim.step("apt-get install -y jq", "Setting up jq (1.6-2.1) ...", 0, "Try again.")
    sim.step("jq --version", "jq-1.6", 0, "Check it.")
    healthy(sim)


def test_polling_a_server_until_it_starts():
    sim = Sim("Start the web server on port 8000 and check /health")
    sim.step("nohup python3 -m http.server 8000 > server.log 2>&1 &", "[1] 1234", 0, "Start the server.")
    refused = "curl: (7) Failed to connect to localhost port 8000 after 0 ms: Connection refused"
    for _ in range(4):
        sim.step("sleep 1; curl -sf localhost:8000/health", refused, 7, "Wait for the server to come up.")
    sim.step("sleep 1; curl -sf localhost:8000/health", "ok", 0, "Wait for the server to come up.")
    healthy(sim)


def test_a_progress_counter_polled_several_times():
    sim = Sim("Wait for the import job to finish and report the rows in /data/progress")
    for done in (10, 25, 40, 70, 90, 100):
        sim.step("cat /data/progress", f"rows imported: {done * 1000}/100000", 0, "Check the progress again.")
    healthy(sim)


def test_iterative_debugging_whose_errors_change():
    sim = Sim("Fix app.py so that python app.py prints the total")
    errors = ["NameError: name 'totl' is not defined", "TypeError: unsupported operand type(s) for +: 'int' and 'str'",
              "KeyError: 'amount'", "ValueError: invalid literal for int() with base 10: 'x'"]
    for n, error in enumerate(errors):
        sim.step("python app.py", f'Traceback (most recent call last):\n  File "app.py", line {10 + n}\n{error}', 1,
                 "Run it.")
        sim.step(f"sed -i 's/bug{n}/fix{n}/' app.py", "", 0, "Fix that.")
    sim.step("python app.py", "total: 42", 0, "Run it.")
    healthy(sim)


def test_tests_rerun_after_real_fixes():
    sim = Sim("Make the test suite in tests/ pass")
    for n, (failed, passed) in enumerate([(5, 3), (3, 5), (1, 7), (0, 8)]):
        tally = f"{failed} failed, {passed} passed" if failed else f"{passed} passed"
        sim.step("pytest -q", f"==== {tally} in 0.{n}3s ====", 1 if failed else 0, "Run the tests.")
        if failed:
            sim.step(f"sed -i 's/old{n}/new{n}/' src/mod{n}.py", "", 0, "Fix the next failure.")
    healthy(sim)



# -- issue 31: tweaks, cross-tool flips, look-ups, stalls, unasked work ---------------------------


def test_parameter_tweak_same_check_no_better_result():
    """A chunk size changed again and again with sed and Python while the benchmark's time jitters
    around 20 s: caught. The same tuning whose time falls is progress, and stays quiet."""
    sim = Sim("Make thumbs.py process data/photos in under 10 seconds")
    sim.step("python3 bench.py", "200 thumbnails in 19.62s (target 10.00s)", 0, "Baseline.")
    for old, new, seconds in [(4, 16, 19.8), (16, 1, 20.1), (1, 8, 19.7), (8, 2, 19.9), (2, 32, 20.3)]:
        sim.step(f"sed -i 's/chunksize={old}/chunksize={new}/' thumbs.py && python3 bench.py",
                 f"200 thumbnails in {seconds:.2f}s (target 10.00s)", 0, f"Try chunksize {new}.")
    event = sim.events_of("parameter_tweak")[0]
    assert event["step"] == 5 and event["evidence"]["check"] == "python3 bench.py"
    assert event["evidence"]["settings"][:2] == ["chunksize=16", "chunksize=1"]
    assert event["evidence"]["measures"]["seconds#0"][:2] == [19.62, 19.8]

    sim = Sim("Make thumbs.py process data/photos in under 10 seconds")
    sim.step("python3 bench.py", "200 thumbnails in 19.62s (target 10.00s)", 0, "Baseline.")
    for old, new, seconds in [(2, 4, 11.3), (4, 6, 7.9), (6, 8, 6.4), (8, 7, 6.9), (7, 8, 6.3), (8, 8, 5.9)]:
        sim.step(f"sed -i 's/Pool({old})/Pool({new})/' thumbs.py && python3 bench.py",
                 f"200 thumbnails in {seconds:.2f}s (target 10.00s)", 0, f"Try {new} processes.")
    healthy(sim)


def test_parameter_tweak_counts_from_the_last_real_edit():
    """A permission tweaked while the same denial comes back is a loop; the same check re-run
    after real code edits is debugging."""
    sim = Sim("Make backup.sh write dumps the monitor user can read")
    check = "sudo -u monitor gunzip -t /srv/backups/last.sql.gz"
    denied = "gzip: /srv/backups/shop-20260304T1044{:02d}.sql.gz: Permission denied"
    sim.step(check, denied.format(1), 1, "Check.")
    for n, mode in enumerate(["chmod 770 /srv/backups", "chmod g+s /srv/backups", "setfacl -m g:backup:r /srv/backups",
                              "chmod 2750 /srv/backups"], 2):
        sim.step(mode, "", 0, "Another mode.")
        sim.step(check, denied.format(n), 1, "Check again.")
    assert sim.events_of("parameter_tweak")[0]["step"] == 9
    sim = Sim("Make backup.sh write dumps the monitor user can read")
    sim.step(check, denied.format(1), 1, "Check.")
    for n in range(2, 6):
        sim.step(f"cat > backup.sh <<'EOF'\n#!/bin/sh\necho attempt {n}\nEOF", "", 0, "Rewrite the script.")
        sim.step(check, denied.format(n), 1, "Check again.")
    assert not sim.events_of("parameter_tweak")


def test_alternation_across_tools_needs_the_same_results_to_come_back():
    sim = Sim("Make etl/load.py read both exports")
    add = "sed -i \"s/open(p, newline='')/open(p, newline='', encoding='utf-8-sig')/\" load.py"
    drop = ("python3 -c \"import pathlib; f=pathlib.Path('load.py'); "
            "f.write_text(f.read_text().replace(\\\", encoding='utf-8-sig'\\\", ''))\"")
    readd = "perl -pi -e \"s/open\\(p, newline=''\\)/open(p, newline='', encoding='utf-8-sig')/\" load.py"
    bom, latin = "E   KeyError: 'order_id'\n1 failed", "E   UnicodeDecodeError: 'utf-8' codec can't decode byte 0xe9\n1 failed"
    sim.step("pytest -q", bom, 1, "Test.")
    for command, result in [(add, latin), (drop, bom), (readd, latin)]:
        sim.step(command, "", 0, "Change the encoding.")
        sim.step("pytest -q", result, 1, "Test.")
    event = next(e for e in sim.events_of("alternation") if e["evidence"]["kind"] in ("file", "value"))
    assert event["step"] == 7 and event["evidence"]["span_start"] == 2

    # both versions tried while the code is fixed in between: the results change, it is progress
    sim = Sim("Make src/parse.js work with date-fns 2 and date-fns 3")
    outcomes = ["TypeError: parse is not a function\n1 failed", "RangeError: Invalid time value\n1 failed",
                "11 passed", "11 passed"]
    for n, (pin, outcome) in enumerate(zip(["3.6.0", "2.30.0", "3.6.0", "2.30.0"], outcomes, strict=True)):
        sim.step(f"npm install date-fns@{pin}", "changed 1 package", 0, "Switch.")
        sim.step("npm test", outcome, 1 if "failed" in outcome else 0, "Test.")
        sim.step(f"sed -i 's/fix{n}/fix{n + 1}/' src/parse.js", "", 0, "Fix.")
    assert not [e for e in sim.events_of("alternation") if e["evidence"]["kind"] != "actions"]


def test_lookups_in_other_words_that_find_nothing_new():
    sim = Sim("Make backup.sh work with the PostgreSQL 16 server")
    for command, output in [("which -a pg_dump", "/usr/bin/pg_dump"),
                            ("find / -name 'pg_dump*' -type f 2>/dev/null", "/usr/lib/postgresql/15/bin/pg_dump"),
                            ("locate bin/pg_dump", "/usr/lib/postgresql/15/bin/pg_dump"),
                            ("dpkg -S bin/pg_dump", "postgresql-client-15: /usr/lib/postgresql/15/bin/pg_dump"),
                            ("apt-cache search postgresql-client | grep 16", ""),
                            ("find /opt /usr/local -name 'pg_dump*' 2>/dev/null", "")]:
        sim.step(command, output, 0, "Look for a pg_dump 16.")
    event = sim.events_of("intent_repetition")[0]
    assert event["step"] == 6 and event["evidence"]["steps"] == [3, 4, 5, 6]
    # look-ups that each find something new are exploring
    sim = Sim("Find where the page size is set and document it in README.md")
    for n in range(6):
        sim.step(f"grep -rn 'page_size' src/mod{n}", f"src/mod{n}/a.py:{n + 3}: page_size = {n}", 0, "Search.")
    healthy(sim)


def test_installs_asked_under_other_names_failing_the_same_way():
    sim = Sim("Make the time zone test pass")
    for package in ["libicu-dev", "icu-devtools", "libicu72"]:
        sim.step(f"apt-get install -y {package}", f"Reading package lists... Done\nE: Unable to locate package {package}",
                 100, "Install the ICU data.")
    assert sim.events_of("intent_repetition")[0]["step"] == 3


def test_a_stalled_job_is_a_loop_sooner_than_a_service_not_up_yet():
    sim = Sim("Generate the thumbnails of data/photos into out/")
    sim.step("nohup python3 thumbs.py data/photos out > /tmp/t.log 2>&1 &", "[1] 4704", 0, "Start it.")
    for count, wait in [(58, 10), (117, 10), (137, 10), (137, 15), (137, 20), (137, 30)]:
        sim.step(f"sleep {wait}; ls out | wc -l", str(count), 0, "How far?")
    event = sim.events_of("intent_repetition")[0]
    assert event["step"] == 7 and event["evidence"]["intent"] == "path:out"
    sim = Sim("Generate the thumbnails of data/photos into out/")
    for count in (41, 83, 126, 168, 200):
        sim.step("sleep 10; ls out | wc -l", str(count), 0, "How far?")
    healthy(sim)


def test_unasked_work_and_the_work_the_task_asks_for():
    drift = [("The loader works; while I'm here add mypy.", "pip install mypy", "Successfully installed mypy-1.10.0"),
             ("Configure it strictly.", "printf '[mypy]\\nstrict = True\\n' > mypy.ini", ""),
             ("Run the type checker.", "mypy etl/load.py", "Success: no issues found in 1 source file"),
             ("Move to a src layout with a pyproject.", "mkdir src && git mv etl src/etl && touch pyproject.toml", ""),
             ("Pre-commit hooks with ruff.", "printf 'repos: []\\n' > .pre-commit-config.yaml && pre-commit install", "ok"),
             ("A Dockerfile for local runs.", "printf 'FROM python:3.11\\n' > Dockerfile", ""),
             ("Logging setup module.", "touch src/etl/logconf.py", ""),
             ("CI workflow.", "mkdir -p .github/workflows && touch .github/workflows/ci.yml", "")]
    sim = Sim("Write etl/load.py that loads data/orders.csv into warehouse.db; tests/test_load.py must pass")
    for n in range(4):
        sim.step(f"python3 -m pytest -q tests/test_load.py -k t{n}", f"{n + 1} passed in 0.2s", 0, "Test.")
    for thought, command, output in drift:
        sim.step(command, output, 0, thought)
    event = sim.events_of("unasked_work")[0]
    assert event["step"] == 10 and {"typecheck", "packaging", "ci"} <= set(event["evidence"]["chores"])
    assert event["evidence"]["span_start"] == 5
    # the same steps when the instruction asks for them
    sim = Sim("Move etl into a src layout with pyproject.toml, mypy --strict, pre-commit with ruff, a Dockerfile, "
              "a logging setup module and a CI workflow in .github/workflows")
    for thought, command, output in drift:
        sim.step(command, output, 0, thought)
    assert not sim.events_of("unasked_work")


def test_lint_and_format_fixes_alone_are_not_unasked_work():
    """Formatting and lint fixes on the task's files (what a CI check demands) are two kinds of
    chore, not the sprawl of unasked work."""
    sim = Sim("Fix the date parsing in src/parse.js; npm test must pass")
    steps = [("Format the two files.", "npx prettier --write src/parse.js test/edit.test.js"),
             ("Lint with the CI rules.", "npx eslint --max-warnings 0 src test"),
             ("const for m.", "sed -i '14s/let m =/const m =/' src/parse.js && npx eslint src"),
             ("Remove a debug print.", "sed -i '22d' src/parse.js && npx eslint src"),
             ("Unused require.", "sed -i '3d' src/edit.js && npx eslint src"),
             ("Format check.", "npx prettier --check src test"),
             ("Lint again.", "npx eslint --max-warnings 0 src test"),
             ("Reformat after the edits.", "npx prettier --write src"),
             ("Lint.", "npm run lint"),
             ("Formatting of the tests.", "npx prettier --write test"),
             ("Lint.", "npm run lint")]
    for thought, command in steps:
        sim.step(command, "done", 0, thought)
    assert not sim.events_of("unasked_work")

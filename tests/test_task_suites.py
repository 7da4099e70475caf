"""Published-suite semantics without Docker (issue 22): per-task refusal and its exit codes, Harbor
and TB1 fields (compose sibling services included), unknown-field warnings, the TB1 parsers and the
reward.json rule."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from test_tasks import harbor, legacy

from adaptive_skill.harness.verify import reward_from_json
from adaptive_skill.tasks import TaskError, load_suite, load_task, scale_timeouts, scan_suite
from adaptive_skill.tasks.parsers import parse_mlebench, parse_pytest, parse_swebench

REPO = Path(__file__).resolve().parents[1]


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "adaptive_skill", *args], capture_output=True, text=True,
                          cwd=REPO, timeout=120)


# -- one broken task among good ones ------------------------------------------------------------

def test_scan_refuses_the_broken_task_and_keeps_the_others(tmp_path):
    harbor(tmp_path, "good")
    harbor(tmp_path, "no-tests", skip="tests/test.sh")
    legacy(tmp_path, "bad-yaml", yaml_text="instruction: [unclosed\n")
    suite = scan_suite(tmp_path)
    assert [t.id for t in suite.tasks] == ["good"]
    assert [(r.id, Path(r.file).name, r.reason) for r in suite.refused] == [
        ("bad-yaml", "task.yaml", "malformed YAML (line 2)"), ("no-tests", "test.sh", "missing")]
    assert suite.refused[1].line() == f"task no-tests refused: {tmp_path}/no-tests/tests/test.sh: missing"
    with pytest.raises(TaskError, match="no-tests"):  # the strict form still refuses the suite
        load_suite(tmp_path)


def test_scan_fails_only_when_nothing_loads(tmp_path):
    harbor(tmp_path, "a", skip="instruction.md")
    with pytest.raises(TaskError) as err:
        scan_suite(tmp_path)
    assert "task a refused" in str(err.value) and "none of its 1 task(s) could be loaded" in str(err.value)


def test_list_exit_codes_and_json(tmp_path):
    harbor(tmp_path, "good")
    harbor(tmp_path, "broken", skip="tests/test.sh")
    result = cli("tasks", "list", "--suite", str(tmp_path), "--format", "json")
    assert result.returncode == 3
    assert result.stderr == f"error: task broken refused: {tmp_path}/broken/tests/test.sh: missing\n"
    rows = json.loads(result.stdout)
    assert [(r["id"], r["split"]) for r in rows] == [("broken", "refused"), ("good", "train")]
    assert rows[0]["reason"] == "missing" and rows[0]["file"].endswith("broken/tests/test.sh")
    (tmp_path / "good" / "instruction.md").unlink()
    nothing = cli("tasks", "list", "--suite", str(tmp_path))
    assert nothing.returncode == 2 and "Traceback" not in nothing.stderr
    assert nothing.stderr.splitlines()[-1] == f"error: suite {tmp_path}: none of its 2 task(s) could be loaded"
    whole = cli("tasks", "list", "--suite", str(REPO / "tests" / "fixtures" / "legacy-suite"))
    assert whole.returncode == 0 and whole.stderr == ""


def test_run_refuses_to_name_a_refused_task(tmp_path):
    harbor(tmp_path, "good")
    harbor(tmp_path, "broken", skip="tests/test.sh")
    result = cli("run", "--suite", str(tmp_path), "--task", "broken", "--quiet")
    assert result.returncode == 2 and "task broken refused" in result.stderr


# -- fields ------------------------------------------------------------------------------------------

HARBOR_FULL = """version = "1.0"
[agent]
timeout_sec = 100
user = "agent"
[verifier]
timeout_sec = 50
user = "checker"
[verifier.env]
A = "1"
B = 2
[solution.env]
S = "x y"
[environment]
workdir = "/work"
docker_image = "prebuilt:1"
mystery = true
[environment.env]
E = "e"
[surprise]
x = 1
"""


def test_harbor_fields(tmp_path):
    path = harbor(tmp_path, "t", toml=HARBOR_FULL, skip="environment/Dockerfile")  # docker_image: no Dockerfile
    unknown: list[str] = []
    task = load_task(path, unknown)
    assert (task.docker_image, task.workdir, task.agent_user, task.verifier_user) == ("prebuilt:1", "/work",
                                                                                      "agent", "checker")
    assert (task.verifier_env, task.solution_env, task.environment_env) == (
        (("A", "1"), ("B", "2")), (("S", "x y"),), (("E", "e"),))
    assert unknown == ["task.toml: [environment] mystery", "task.toml: surprise"]
    scaled = scale_timeouts(task, 2.5)
    assert (scaled.agent_timeout_sec, scaled.verifier_timeout_sec, scaled.build_timeout_sec) == (250, 125, 1500)


@pytest.mark.parametrize("fragment,error", [
    ('[environment]\nworkdir = "relative"\n', "workdir must be an absolute path"),
    ('[verifier.env]\n"BAD-NAME" = "1"\n', "verifier.env.BAD-NAME must be a variable name"),
    ('[solution.env]\nX = [1]\n', "solution.env.X must be a string or number"),
    ('[verifier]\nuser = ""\n', "user must be a non-empty string"),
])
def test_harbor_field_errors(tmp_path, fragment, error):
    with pytest.raises(TaskError, match=error):
        load_task(harbor(tmp_path, toml='version = "1.0"\n' + fragment))


def test_harbor_without_dockerfile_or_image_is_refused(tmp_path):
    with pytest.raises(TaskError, match="environment/Dockerfile"):
        load_task(harbor(tmp_path, skip="environment/Dockerfile"))


def test_tb1_fields(tmp_path):
    unknown: list[str] = []
    task = load_task(legacy(tmp_path, yaml_text="instruction: x\nparser_name: pytest\nallow_internet: true\n"
                                                "run_tests_in_same_shell: true\nodd_key: 1\n"), unknown)
    assert (task.parser_name, task.allow_internet, task.run_tests_in_same_shell) == ("pytest", True, True)
    assert unknown == ["task.yaml: odd_key"]
    assert load_task(legacy(tmp_path, "default")).parser_name == "pytest"  # TB1's default when none is named
    assert load_task(legacy(tmp_path, "swe", yaml_text="instruction: x\nparser_name: swebench\n")).parser_name \
        == "swebench"
    with pytest.raises(TaskError, match=r"TB1's sweperf parser is not implemented: its verdict format is not "
                                        r"specified \(supported: mlebench, pytest, swebench\)"):
        load_task(legacy(tmp_path, "perf", yaml_text="instruction: x\nparser_name: sweperf\n"))
    with pytest.raises(TaskError, match=r"parser_name 'junit' is not a TB1 parser \(supported: mlebench"):
        load_task(legacy(tmp_path, "junit", yaml_text="instruction: x\nparser_name: junit\n"))


def test_unknown_fields_are_warned_once_per_suite(tmp_path):
    for name in ("a", "b", "c"):
        harbor(tmp_path, name, toml='version = "1.0"\n[environment]\nmystery = 1\n')
    suite = scan_suite(tmp_path)
    assert suite.warnings == ["unknown field task.toml: [environment] mystery in 3 task(s) (e.g. a): ignored"]


# -- TB1 docker-compose.yaml ------------------------------------------------------------------------

def compose_task(root: Path, compose: str, name: str = "c") -> Path:
    task = legacy(root, name)
    (task / "Dockerfile").unlink()
    (task / "docker-compose.yaml").write_text(compose)
    (task / "ctx").mkdir()
    (task / "ctx" / "Dockerfile").write_text("FROM debian:bookworm-slim\n")
    (task / "data").mkdir()
    return task


def test_compose_main_service_becomes_task_fields(tmp_path):
    path = compose_task(tmp_path, """services:
  client:
    build: {context: ctx}
    image: ${T_BENCH_TASK_DOCKER_CLIENT_IMAGE_NAME}
    environment: {A: "x", TEST_DIR: "${T_BENCH_TEST_DIR}"}
    working_dir: /srv
    volumes: ["./data:/srv/data:ro", "${T_BENCH_TASK_LOGS_PATH}:${T_BENCH_CONTAINER_LOGS_PATH}"]
    ports: ["80:80"]
""")
    unknown: list[str] = []
    task = load_task(path, unknown)
    assert (task.environment_dir, task.dockerfile, task.docker_image) == (path / "ctx", path / "ctx/Dockerfile", None)
    assert task.environment_env == (("A", "x"), ("TEST_DIR", "/tests")) and task.workdir == "/srv"
    assert task.files_in == ((path / "data", "/srv/data"),)
    assert unknown == ["docker-compose.yaml: services.client.ports"]
    image = load_task(compose_task(tmp_path, "services:\n  main:\n    image: prebuilt:2\n", name="img"))
    assert image.docker_image == "prebuilt:2"


def test_compose_sibling_services_become_task_services(tmp_path):
    path = compose_task(tmp_path, """services:
  client: {build: {context: ctx}, depends_on: [db, cache]}
  db:
    build: {context: ctx, dockerfile: Dockerfile}
    command: serve --port 5432 "two words"
    entrypoint: [/bin/sh, -c]
    environment: {PGUSER: me, LOGS: "${T_BENCH_CONTAINER_LOGS_PATH}"}
    working_dir: /var/db
    ports: ["5432:5432"]
    volumes: ["${T_BENCH_TASK_LOGS_PATH}:${T_BENCH_CONTAINER_LOGS_PATH}"]
    healthcheck: {test: [CMD, "true"]}
  cache: {image: "prebuilt/cache:7"}
""")
    unknown: list[str] = []
    task = load_task(path, unknown)
    db, cache = task.services
    assert (db.name, db.environment_dir, db.dockerfile, db.image) == ("db", path / "ctx", path / "ctx/Dockerfile", None)
    assert db.command == ("serve", "--port", "5432", "two words") and db.entrypoint == ("/bin/sh", "-c")
    assert db.env == (("PGUSER", "me"), ("LOGS", "/logs")) and db.workdir == "/var/db"
    assert (cache.name, cache.image, cache.environment_dir, cache.command) == ("cache", "prebuilt/cache:7", None, None)
    assert unknown == ["docker-compose.yaml: services.db.healthcheck"]  # ports, depends_on: known, ignored


@pytest.mark.parametrize("compose,reason", [
    ("services:\n  client: {image: a}\n  DB_1: {image: b}\n", "service name 'DB_1' is not a host name"),
    ("services:\n  client: {image: a}\n  db: {image: b, volumes: ['./data:/d']}\n",
     "volumes of a sibling service are not supported"),
    ("services:\n  client: {image: a}\n  db: {environment: [A=1]}\n", "services.db has neither a build nor"),
    ("services:\n  client: {image: a}\n  db: {image: b, command: {a: 1}}\n", "services.db.command must be"),
    ("services:\n  client: {image: a}\n  db: {image: b, command: 'run \"unclosed'}\n", "services.db.command:"),
    ("services:\n  client: {image: a}\n  db: {image: b, command: ['x', '${HOME}']}\n", "variable HOME is not"),
    ("services:\n  client: {image: a}\n  db: {build: {context: ../..}}\n", "leaves the task directory"),
    ("services:\n  a: {image: a}\n  b: {image: b}\n", "no 'client' service"),
    ("services:\n  client: {build: {context: ../..}}\n", "leaves the task directory"),
    ("services:\n  client: {image: a, volumes: ['/etc:/host-etc']}\n", "does not map a file of the task"),
    ("services:\n  client: {image: a, volumes: ['../../x:/x']}\n", "leaves the task directory"),
    ("services:\n  client: {image: a, environment: ['K=${HOME}']}\n", "variable HOME is not one TB1 sets"),
    ("services:\n  client: {image: '${IMG}'}\n", "neither a build nor a fixed image"),
    ("services: [\n", "malformed YAML"),
])
def test_compose_refusals_name_the_file(tmp_path, compose, reason):
    with pytest.raises(TaskError) as err:
        load_task(compose_task(tmp_path, compose))
    assert err.value.file.endswith("docker-compose.yaml") and reason in err.value.reason


# -- the TB1 parsers (captured-style outputs) --------------------------------------------------

SUMMARY = """============================= test session starts ==============================
tests/test_a.py ..F
=================================== FAILURES ===================================
PASSED fake line before the summary does not count
=========================== short test summary info ============================
PASSED tests/test_a.py::test_one
PASSED tests/test_a.py::test_two[param - 1]
{last}
========================= 1 failed, 2 passed in 0.12s ==========================
FAILED tests/test_a.py::after_the_summary
"""


def test_pytest_parser_needs_every_test_to_pass():
    failing = parse_pytest(SUMMARY.format(last="FAILED tests/test_a.py::test_three - assert 1 == 2"))
    assert not failing.passed
    assert failing.results == {"tests/test_a.py::test_one": "PASSED", "tests/test_a.py::test_two[param - 1]": "PASSED",
                               "tests/test_a.py::test_three": "FAILED"}
    assert failing.describe() == "2/3 tests pass: FAILED tests/test_a.py::test_three"
    passing = parse_pytest(SUMMARY.format(last="PASSED tests/test_a.py::test_three"))
    assert passing.passed and passing.describe() == "3/3 tests pass"
    for status in ("ERROR", "XPASS"):
        assert not parse_pytest(SUMMARY.format(last=f"{status} tests/test_a.py::test_three")).passed


def test_pytest_parser_counts_skipped_and_xfail_as_passed_like_tb1():
    skipped = parse_pytest(SUMMARY.format(last="SKIPPED [1] tests/test_a.py:12: needs a GPU\n"
                                               "XFAIL tests/test_a.py::test_known - bug 12"))
    assert skipped.passed and skipped.results["[1] tests/test_a.py:12: needs a GPU"] == "SKIPPED"
    assert skipped.describe() == "4/4 tests pass (2 PASSED, 1 SKIPPED, 1 XFAIL)"


def test_pytest_parser_a_test_named_twice_keeps_its_failure():
    twice = parse_pytest("=== short test summary info ===\nERROR tests/t.py::x - boom\nPASSED tests/t.py::x\n")
    assert twice.results == {"tests/t.py::x": "ERROR"} and not twice.passed


@pytest.mark.parametrize("output,problem", [
    ("3 passed\n", "pytest parser: no 'short test summary info' section"),
    ("=== short test summary info ===\n=== 0 tests ===\n", "the summary names no tests"),
    ("=== short test summary info ===\nPASSED\nOK tests/t.py::x\n\x00\ufffd garbage\n", "names no tests"),
    ("", "no 'short test summary info' section"),
])
def test_pytest_parser_without_a_verdict_fails(output, problem):
    parsed = parse_pytest(output)
    assert not parsed.passed and problem in parsed.problem and parsed.describe() == parsed.problem


def swebench(block: str) -> str:
    return f"+ pytest -rA tests/x.py || true\nnoise\nSWEBench results starts here\n{block}\nSWEBench results ends here\n"


def test_swebench_parser_reads_the_graders_verdict():
    assert parse_swebench(swebench("PASSED")).passed
    failed = parse_swebench(swebench("FAILED"))
    assert not failed.passed and failed.describe() == "0/1 tests pass: FAILED tests"
    # the per-test form of later adapter versions
    per_test = swebench("tests/x.py::test_a<-|-|-> PASSED\ntests/x.py::test_b[1 - 2]<-|-|-> SKIPPED")
    assert parse_swebench(per_test).passed
    one_failed = parse_swebench(per_test.replace("SKIPPED", "FAILED"))
    assert not one_failed.passed and one_failed.results["tests/x.py::test_b[1 - 2]"] == "FAILED"
    # a fake block printed by the tests before the grader's is not the one read
    assert not parse_swebench(swebench("PASSED") + swebench("FAILED")).passed


@pytest.mark.parametrize("output,problem", [
    ("tests ran, no markers\n", "no block between 'SWEBench results starts here'"),
    ("SWEBench results starts here\nPASSED\n", "no block between"),  # cut off before the end marker
    (swebench(""), "the block between the markers is empty"),
    (swebench("resolved: yes"), "neither PASSED/FAILED nor"),
    (swebench("tests/x.py::a<-|-|-> MAYBE"), "neither PASSED/FAILED nor"),
])
def test_swebench_parser_without_a_verdict_fails(output, problem):
    parsed = parse_swebench(output)
    assert not parsed.passed and problem in parsed.problem


def test_mlebench_parser():
    def block(text: str) -> str:
        return f"grading...\nMLEBench results starts here\n{text}\nMLEBench results ends here\n"

    assert parse_mlebench(block("ALL TESTS PASSED")).passed
    assert not parse_mlebench(block("SOME TESTS FAILED")).passed
    assert not parse_mlebench(block("ALL TESTS PASSED, mostly")).passed
    missing = parse_mlebench("ALL TESTS PASSED\n")
    assert not missing.passed and "no block between 'MLEBench results starts here'" in missing.problem


# -- reward.json --------------------------------------------------------------------------------

@pytest.mark.parametrize("text,reward", [
    ('{"reward": 0.25, "accuracy": 1}', 0.25),
    ('{"accuracy": 1.0}', 1.0),
    ('{"build": 1, "tests": 0}', 0.5),
    ("0.75", 0.75),
])
def test_reward_json_shapes(text, reward):
    assert reward_from_json(text)[0] == reward


@pytest.mark.parametrize("text,problem", [
    ("{", "not JSON"), ("{}", "object of numbers"), ('{"a": "1"}', "'a' is not a finite number"),
    ('{"a": true}', "'a' is not a finite number"), ('{"a": NaN}', "not a finite number"), ("[1]", "object"),
])
def test_reward_json_refused(text, problem):
    reward, note = reward_from_json(text)
    assert reward is None and problem in note


# -- the engine -----------------------------------------------------------------------------------

@pytest.mark.docker  # the engine connects to the Docker engine on start (no container runs here)
def test_engine_starts_with_the_good_tasks_and_reports_the_refused(tmp_path, docker_client):
    from taskfactory import scripted_engine_config

    from adaptive_skill.config import load_config
    from adaptive_skill.engine import AdaptiveSkillEngine

    config = load_config(scripted_engine_config(tmp_path, {"agent": []}))
    broken = config.paths.suite / "task-5" / "tests" / "test.sh"
    broken.unlink()
    lines: list[str] = []
    engine = AdaptiveSkillEngine.start(config, run_id="partial", log=lines.append)
    assert len(engine.suite) == 5 and "task-5" not in {t.id for t in engine.suite}
    engine.run_dir.root.joinpath("STOP").touch()  # stop before the first cycle: only the start is tested
    assert engine.run() == "stopped"
    (event,) = [e for e in engine.run_dir.events() if e["event"] == "tasks_refused"]
    assert event["tasks"] == [{"id": "task-5", "file": str(broken), "reason": "missing"}]
    assert f"task task-5 refused: {broken}: missing" in lines


def test_rebase_for_a_cluster_node_moves_the_compose_files(tmp_path):
    from adaptive_skill.executors.node import rebase_task

    task = load_task(compose_task(tmp_path, "services:\n  client:\n    build: ctx\n    volumes: ['./data:/d']\n"))
    moved = rebase_task(task, tmp_path / "node")
    assert moved.files_in == ((tmp_path / "node" / "data", "/d"),)
    assert moved.dockerfile == tmp_path / "node" / "ctx" / "Dockerfile"
    siblings = load_task(compose_task(tmp_path, "services:\n  client: {build: ctx}\n  db: {build: ctx}\n"
                                                "  cache: {image: 'c:1'}\n", name="sib"))
    db, cache = rebase_task(siblings, tmp_path / "node2").services
    assert (db.environment_dir, db.dockerfile) == (tmp_path / "node2" / "ctx", tmp_path / "node2" / "ctx" / "Dockerfile")
    assert cache == siblings.services[1]  # a prebuilt image has no files to move

"""Issue 23's readers one by one: volatile tokens, masked failures, intents, value flips, targets,
task objects; and a detector-level case for each new signal with its healthy twin."""

from adaptive_skill.spiral.intent import intent_of, targets
from adaptive_skill.spiral.settings import check_of, settings_of
from adaptive_skill.spiral.text import error_line, fingerprint, task_objects
from adaptive_skill.trajectory import StepRecord, step_failure
from adaptive_skill.trajectory.text import mask_error, mask_volatile


def test_volatile_tokens_are_masked_but_counters_and_small_numbers_stay():
    a = "/usr/bin/ld: /tmp/ccA1b2C3.o: in function `f':\nx.c:(.text+0x1f): undefined reference to `g'"
    b = "/usr/bin/ld: /tmp/ccZZ9y8x.o: in function `f':\nx.c:(.text+0x2a): undefined reference to `g'"
    assert mask_volatile(a) == mask_volatile(b)
    assert mask_volatile("Worker 4242 exiting (pid 4242) [4242]") == mask_volatile("Worker 77 exiting (pid 1) [9001]")
    assert mask_volatile("tests/test_a.py:17: AssertionError") == mask_volatile("tests/test_a.py:23: AssertionError")
    assert mask_volatile("/tmp/pytest-of-root/pytest-12/t0") == mask_volatile("/tmp/pytest-of-root/pytest-907/t0")
    assert mask_error("E  assert 2.513872 == 2.5") == mask_error("E  assert 2.498113 == 2.5")
    assert mask_error("E  assert 1 == 2") != mask_error("E  assert 3 == 2")
    assert mask_error("3 failed, 1200 passed") != mask_error("2 failed, 1200 passed")
    assert fingerprint("rows processed: 12000") != fingerprint("rows processed: 13000")


def test_masked_exits_with_an_error_in_the_output_are_failures():
    out = "tests/t.c:40: FAIL wrap\nmake: *** [Makefile:14: test] Error 1"
    assert step_failure(StepRecord(1, "bash", "make test 2>&1 | tail -5", out, 0)).kind == "masked"
    assert step_failure(StepRecord(1, "bash", "python3 -m app.store || true",
                                   "sqlite3.OperationalError: no such table: t", 0)).kind == "masked"
    assert step_failure(StepRecord(1, "bash", "make test 2>&1 | tail -5", "12 tests, 0 failures", 0)) is None
    assert step_failure(StepRecord(1, "bash", "ls errors.log | head", "errors.log", 0)) is None
    # one failure whatever the exit code: what it says
    line = error_line("/usr/bin/ld: /tmp/ccA1b2C3.o: undefined reference to `g'\ncollect2: error: ld returned 1")
    assert line == error_line("/usr/bin/ld: /tmp/ccQ7.o: undefined reference to `g'\ncollect2: error: ld returned 1")


def test_one_intent_in_many_words():
    installs = ["pip install 'psycopg2==2.7.3'", "python3 -m pip install 'psycopg2>=2.7,<2.8'",
                "pip3 install --user psycopg2==2.7.3.2", "pip install psycopg2 --no-binary :all:",
                "sudo apt-get install -y psycopg2"]
    assert {intent_of(c) for c in installs} == {intent_of(installs[0])}
    assert intent_of("pip install requests").key != intent_of("pip install pyyaml").key
    polls = ["curl -sf http://localhost:8000/health", "sleep 5; curl -s 127.0.0.1:8000/health",
             "timeout 30 bash -c 'until curl -sf localhost:8000/health; do sleep 2; done'",
             "wget -qO- --retry-connrefused http://localhost:8000/health"]
    assert {intent_of(c).key for c in polls} == {"localhost:8000"}  # one service, whatever the endpoint
    postgres = ["pg_isready -h localhost -p 5432", "sleep 10 && pg_isready -h 127.0.0.1", "until pg_isready -q; do sleep 2; done",
                "psql -h localhost -U postgres -c 'select 1'", "ss -ltn | grep :5432", "nc -z localhost 5432"]
    assert {intent_of(c).key for c in postgres} == {"localhost:5432"}
    assert intent_of("sleep 20; ls out | wc -l") == intent_of("sleep 5 && ls out | wc -l") == intent_of("sleep 1; ls  out|wc -l")
    incoming = ["ls -la /data/incoming/", "sleep 60; ls /data/incoming/orders-*.csv", "test -f /data/incoming/done.flag",
                "inotifywait -t 120 -e create /data/incoming"]
    assert {intent_of(c) for c in incoming} == {intent_of("sleep 1; ls /data/incoming")}  # one path looked at
    assert intent_of("sleep 9; wc -l < out.csv").key == "wait:wc -l < out.csv"
    db = ["docker inspect -f '{{.State.Health.Status}}' todo-db-1", "sleep 10; docker compose ps db", "docker ps --filter name=db"]
    assert {intent_of(c).key for c in db} == {"service:db"}
    assert intent_of("service nginx status") == intent_of("systemctl is-active nginx")
    assert intent_of("docker compose logs --tail 2 db") is None  # reading logs is not asking for a state
    lookups = ["which -a pg_dump", "locate bin/pg_dump", "dpkg -S bin/pg_dump", "apt-cache policy postgresql-client-16",
               "go doc golang.org/x/time/rate", "go list -m all | grep -i time", "compgen -c | grep pg_dump",
               "git log --all --oneline -S 'orders ('"]
    assert {intent_of(c).kind for c in lookups} == {"search"}
    assert intent_of("rg -n DEFAULT_PAGE_SIZE").kind == intent_of("git grep -n PAGE_SIZE").kind == "search"
    assert intent_of("ls -la") is None and intent_of("make test") is None


def _values(command, output=""):
    return [(s.key, s.value) for s in settings_of(command, output)]


def test_values_set_by_in_place_edits_not_their_patterns():
    assert _values("sed -i 's/^TIMEOUT = .*/TIMEOUT = 30/' app/server.py") == [("TIMEOUT", "30")]
    assert _values("perl -pi -e 's/^TIMEOUT = \\d+/TIMEOUT = 5/' app/server.py") == [("TIMEOUT", "5")]
    assert _values("echo TIMEOUT = 5") == []  # not an in-place edit
    # removed by a Python rewrite: unset, not set to the value it looked for
    assert _values("python3 -c \"import pathlib; p=pathlib.Path('e.py'); "
                   "p.write_text(p.read_text().replace(', encoding=\\'utf-8\\'', ''))\"") == [("encoding", "<unset>")]


def test_one_setting_whatever_the_tool():
    """A number changed by sed, a regex in Python or perl is one setting; so is a version pinned by
    an installer or written into a manifest, and a directory's permissions."""
    sleeps = ["sed -i 's/time.Sleep(500 \\* time.Millisecond)/time.Sleep(600 * time.Millisecond)/' l_test.go",
              "python3 -c \"import re,pathlib; p=pathlib.Path('l_test.go'); "
              "p.write_text(re.sub(r'time.Sleep\\(\\d+ \\* time.Millisecond\\)', 'time.Sleep(520 * time.Millisecond)', p.read_text()))\"",
              "perl -pi -e 's/Sleep\\(520 \\*/Sleep(505 */' l_test.go"]
    assert [_values(c) for c in sleeps] == [[("num:Sleep", "600")], [("num:Sleep", "520")], [("num:Sleep", "505")]]
    assert _values("pip install 'pillow<10.4'", "Successfully installed pillow-10.3.0") == [("pin:pillow", "10.3.0")]
    assert _values("npm i date-fns@^3") == [("pin:date-fns", "3")]
    assert _values("sed -i 's/\"date-fns\": \"^3.6.0\"/\"date-fns\": \"2.30.0\"/' package.json") == [("pin:date-fns", "2.30.0")]
    assert _values("go get golang.org/x/time/rate@latest", "go: downloading golang.org/x/time v0.6.0") == [
        ("pin:golang.org/x/time", "0.6.0")]
    assert _values("sed -i 's#golang.org/x/time v0.6.0#golang.org/x/time v0.3.0#' go.mod") == [("pin:golang.org/x/time", "0.3.0")]
    assert _values("chmod 770 /srv/backups && ls -ld /srv/backups") == [("perm:/srv/backups", "chmod 770")]
    assert _values("sed -i 's/colstat/column_stats/g' csvstat/io.py") == []  # a rename sets nothing


def test_what_a_command_checks_after_its_settings():
    assert check_of("sed -i 's/chunksize=4/chunksize=16/' thumbs.py && python3 bench.py") == "python3 bench.py"
    assert check_of("python3 bench.py") == "python3 bench.py"
    assert check_of("chmod 770 /srv/backups && ls -ld /srv/backups") is None  # sets and looks: no check
    assert check_of("cat .prettierrc") is None and check_of("npm run lint") == "npm run lint"
    assert check_of("cat > x.py <<'EOF'\nprint(1)\nEOF") is None


def test_targets_and_task_objects():
    assert targets("sed -i 's/colstat/column_stats/g' csvstat/io.py && echo renamed") == {"csvstat/io.py"}
    objects = task_objects("Fix the bug in paginate() in src/pager.py; keep tests/test_pager.py passing.")
    assert {"paginate", "src/pager.py", "pager", "test_pager"} <= objects
    assert "keep" not in objects and "bug" not in objects


def test_readers_of_hostile_text_answer():
    """Agents write these commands and outputs: every reader answers (no crash, no runaway regex)."""
    nasty = ["s/" + "/" * 5000, "a" * 50_000 + ":" + "1" * 5000, "pip install " + "x " * 20_000,
             "curl " + "localhost:" * 5000, "sed -i " + "'s/a = 1/a = 2/' " * 3000, "(" * 20_000 + "x()" * 5000]
    for text in nasty:
        assert intent_of(text) is None or intent_of(text).kind in ("install", "search", "poll")
        assert isinstance(targets(text), frozenset) and isinstance(settings_of(text), tuple)
        assert check_of(text) is None or isinstance(check_of(text), str)
        assert isinstance(mask_error(text), str) and isinstance(task_objects(text), set) and fingerprint(text)

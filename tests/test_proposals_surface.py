"""What people see of the engine's proposed tasks, without Docker: a run directory in the record
format of docs/novelty.md ("Reviewing proposals", tests/proposalrun.py) read by the report (HTML and
Markdown), the review app over HTTP (the real `adaptive-skill review` command) and `adaptive-skill
tasks list --run`. Everything a proposer wrote is hostile: it shows as text, links in its task
folder are never followed (one points at /etc/passwd), a FIFO is never opened, sizes are capped,
and a damaged or older record never stops a page."""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from proposalrun import (
    ADMITTED,
    CAPPED,
    DUPLICATE,
    HOSTILE,
    LEGACY,
    NO_BUILD,
    NOP_PASSES,
    ORACLE_FAILS,
    READS_SOLUTION,
    SECRET_MARK,
    event_lines,
    proposal_run,
    proposer_cost,
    write_proposal,
)
from test_review_units import serve, token_of  # noqa: F401 - the fixture starting the real server

from adaptive_skill.files import write_json_atomic
from adaptive_skill.ratings import Rating, RatingStore
from adaptive_skill.report import build, render_html, render_markdown
from adaptive_skill.report.proposals import read_proposals
from adaptive_skill.review.human import human_review
from adaptive_skill.review.items import collect
from adaptive_skill.review.taskfiles import MAX_FILE_BYTES, MAX_FILES, read_task_files

REPO = Path(__file__).resolve().parents[1]
ESCAPED = "&lt;script&gt;alert(&#39;proposal&#39;)&lt;/script&gt;"


@pytest.fixture
def run(tmp_path):
    return proposal_run(tmp_path, legacy=True)


def cli(*args):
    return subprocess.run([sys.executable, "-m", "adaptive_skill", *map(str, args)], cwd=REPO, capture_output=True,
                          text=True, timeout=300, env={**os.environ, "COLUMNS": "300"})  # rich: one line per row


# -- the report --------------------------------------------------------------------------------------

def test_report_counts_each_cycles_proposals_and_their_cost(run):
    report = build(run)
    first, second = report.proposal_cycles
    assert (first.cycle, first.made, first.built, first.sound, first.admitted, first.legacy) == (1, 4, 3, 1, 1, 1)
    assert first.rejected == {"oracle": 1, "nop": 1} and first.rejections == "oracle 1, nop 1"
    assert (second.made, second.built, second.sound, second.admitted) == (4, 3, 1, 0)  # the sound one hit the cap
    assert second.rejections == "build 1, reads_solution 1, duplicate 1, cap 1"
    for row in (first, second):  # the proposer's calls and the propose phase's, from costs.jsonl
        usd, tokens, seconds = proposer_cost(row.cycle)
        assert row.cost.cost == pytest.approx(usd) and row.cost.total_tokens == tokens and row.seconds == pytest.approx(seconds)
    # every call counts in its cycle's cost, the proposer's too
    assert sum(c["cost"] for row in report.rows for c in row.costs.values()) == pytest.approx(
        report.run_totals["cost"])
    assert report.rows[0].costs["proposer"]["cost"] == pytest.approx(0.009)
    # the events say the same as the records
    proposed = [e for e in event_lines(run) if e["event"] == "task_proposed"]
    assert sorted(e["task"] for e in proposed) == sorted(p.id for p in report.proposals if p.status != "legacy")
    assert {e["task"]: e["rejected_check"] for e in proposed}[NO_BUILD] == "build"


def test_report_labels_proposed_tasks_wherever_they_are_named(run):
    report = build(run)
    assert report.origin(ADMITTED) == "proposed, cycle 1"
    assert report.origin(LEGACY) == "proposed, cycle 1, unverified"
    assert report.origin("task-0") is None and report.origin(ORACLE_FAILS) is None  # rejected: never in the pool
    assert ADMITTED in report.matrix.tasks
    html = render_html(report)
    assert 'href="#proposals"' in html and 'id="proposal-cycles"' in html and 'id="proposal-list"' in html
    # the matrix row and the attempts table carry the label
    assert re.search(rf"<th>{ADMITTED} <span class=\"badge proposed\"[^>]*>proposed, cycle 1</span></th>", html)
    assert html.count('<span class="badge proposed"') == 2  # matrix + attempts (one solve attempt)
    data = json.loads(re.search(r'id="trajectory-data">(.*?)</script>', html, re.S).group(1))
    assert {v["task"]: v["origin"] for v in data.values()}[ADMITTED] == "proposed, cycle 1"
    # rejection reasons, checks and the legacy label; the proposer's text only escaped
    for text in ("rejected (oracle)", "oracle failed: the reference solution scores 0", "failed (reward 0)",
                 "too close to task-1 (0.97 &gt;= 0.90)", "yes: tests/test.sh: cat /solution/solve.sh",
                 "legacy, unverified", "build 1, reads_solution 1, duplicate 1, cap 1", "$0.0105"):
        assert text in html, text
    assert HOSTILE not in html and ESCAPED in html
    md = render_markdown(report)
    assert "## Proposed tasks" in md
    assert "| 1 | 4 | 3 | 1 | 1 | oracle 1, nop 1 | 1 | $0.0105 | 3790 | 9.0 |" in md
    assert f"| {ADMITTED} (proposed, cycle 1) | 1/1 · 9.0 |" in md
    assert f"| {NOP_PASSES} | 1 | Touch a file | rejected (nop) | the no-op agent passes" in md
    assert "\x1b" not in md and "| the image did not build?[2J?]0;owned? |" in md  # no escape reaches a terminal


def test_report_without_proposals(tmp_path):
    run = proposal_run(tmp_path)
    shutil.rmtree(run / "proposals")
    report = build(run)  # still enabled in the config: the section says none
    assert report.proposals == [] and report.proposing
    assert [row.made for row in report.proposal_cycles] == [0, 0]  # ... though the proposer was paid
    costs = run / "costs.jsonl"
    costs.write_text("".join(line + "\n" for line in costs.read_text().splitlines()
                             if '"propose"' not in line))
    report = build(run)
    assert report.proposal_cycles == [] and "No task proposed yet." in render_markdown(report)
    assert "No task proposed yet." in render_html(report)
    (run / "config.yaml").write_text("judge:\n  pass_threshold: 7\n")  # proposing off: no section at all
    report = build(run)
    assert not report.proposing
    assert 'id="proposals"' not in render_html(report) and "Proposed tasks" not in render_markdown(report)


def test_damaged_and_older_records_never_stop_a_report(run, tmp_path):
    folder = run / "proposals"
    (folder / "proposed-c002-7-torn").mkdir()
    (folder / "proposed-c002-7-torn" / "proposal.json").write_text('{"id": "proposed-c002-7-to')
    (folder / "proposed-c002-8-unfinished" / "task").mkdir(parents=True)  # the record is written last
    (folder / "proposed-c002-9-binary").mkdir()
    (folder / "proposed-c002-9-binary" / "proposal.json").write_bytes(b"\xff\xfe\x00{")
    write_json_atomic(folder / "proposed-c003-1-odd" / "proposal.json",
                      {"cycle": "three", "status": 7, "checks": "all fine", "title": ["x"], "novelty": True,
                       "rejected_check": "astrology", "cost": {"usd": "free"}, "feasibility": [1]})
    write_json_atomic(tmp_path / "elsewhere" / "proposal.json", {"id": "proposed-c001-5-linked", "status": "admitted"})
    os.symlink(tmp_path / "elsewhere", folder / "proposed-c001-5-linked")  # a link is never followed
    write_json_atomic(folder / "ideas.json", {"seed": "x", "iterations": []})  # the novelty command's file
    proposals = {p.id: p for p in read_proposals(run)}
    for skipped in ("proposed-c001-5-linked", "proposed-c002-7-torn", "proposed-c002-8-unfinished",
                    "proposed-c002-9-binary"):
        assert skipped not in proposals
    odd = proposals["proposed-c003-1-odd"]
    assert (odd.cycle, odd.status, odd.checks, odd.title, odd.novelty, odd.rejected_check, odd.cost) == \
        (3, "unknown", {}, "", None, None, {})  # the cycle from the id, nothing taken of the wrong type
    legacy = proposals[LEGACY]
    assert legacy.status == "legacy" and legacy.in_pool and legacy.label == "legacy, unverified"
    assert legacy.outcome("oracle") == ("", None) and not legacy.built
    report = build(run)
    assert [row.cycle for row in report.proposal_cycles] == [1, 2, 3]
    assert "unknown status" in render_html(report) and "unknown status" in render_markdown(report)


# -- the task's files, read without following anything ------------------------------------------------

def test_task_files_follow_no_link_and_open_no_fifo(run):
    files, note = read_task_files(run / "proposals" / ORACLE_FAILS / "task")
    by_path = {f.path: f for f in files}
    assert [f.path for f in files][:3] == ["instruction.md", "task.toml", "environment/Dockerfile"]
    assert by_path["tests/test.sh"].text is None and "not a regular file" in by_path["tests/test.sh"].note
    assert by_path["tests/expected.txt"].note == "a symbolic link to /etc/passwd: not followed"
    assert by_path["solution/solve.sh"].text is None and "/etc/passwd" in by_path["solution/solve.sh"].note
    assert by_path["environment/context"].note == "a symbolic link to /etc: not followed"
    assert not any(p.startswith("environment/context/") for p in by_path)  # the linked folder is not walked
    big = by_path["tests/big.txt"]
    assert len(big.text) == MAX_FILE_BYTES and big.note == "cut at 64.0 KB of 300.0 KB"
    assert not any(SECRET_MARK in (f.text or "") for f in files) and note == ""


def test_task_folder_that_is_a_link_or_a_maze(run, tmp_path):
    folder = run / "proposals" / NOP_PASSES
    shutil.rmtree(folder / "task")
    os.symlink("/etc", folder / "task")
    assert read_task_files(folder / "task") == ([], "the task folder is a link or not a directory: not read")
    assert read_task_files(tmp_path / "nothing")[1].startswith("no task folder")
    maze = tmp_path / "maze"
    deep = maze / "a" / "b" / "c" / "d" / "e" / "f" / "g"
    deep.mkdir(parents=True)
    (deep / "bottom.txt").write_text("deep")
    for index in range(MAX_FILES + 5):
        (maze / f"many-{index:03d}.txt").write_text(str(index))
    (maze / "bad\nname\x1b[31m.txt").write_text("x")
    (maze / "binary.bin").write_bytes(b"\x7fELF\0\0\0")
    files, note = read_task_files(maze)
    paths = [f.path for f in files]
    assert len(files) == MAX_FILES and note == "8 more entries not listed (over 60)"  # 68 entries
    assert "a/b/c/d/e/f/" in paths and not any("bottom" in p for p in paths)
    assert "bad?name?[31m.txt" in paths  # control characters in a name shown as '?'
    assert next(f for f in files if f.path == "binary.bin").note == "binary (7 bytes): not shown"


# -- the review app -----------------------------------------------------------------------------------

def test_review_items_hold_each_proposal_blind(run):
    items = {i.key: i for i in collect(run) if i.kind == "task"}
    assert set(items) == {f"task:{p}" for p in (ADMITTED, ORACLE_FAILS, NOP_PASSES, NO_BUILD, READS_SOLUTION,
                                                  DUPLICATE, CAPPED, LEGACY)}
    admitted = items[f"task:{ADMITTED}"]
    files = {f["path"]: f for f in admitted.body["files"]}
    assert set(files) == {"task.toml", "environment/Dockerfile", "tests/test.sh", "solution/solve.sh"}  # instruction above
    assert "wc -l" in files["solution/solve.sh"]["text"] and HOSTILE in files["tests/test.sh"]["text"]
    shown = json.dumps([i.body for i in items.values()]) + " ".join(i.title for i in items.values())
    for secret in ("admitted", "rejected", "oracle", "cycle", "novelty", "proposed-c0", SECRET_MARK):
        assert secret not in shown, secret
    facts = items[f"task:{ORACLE_FAILS}"].facts
    assert facts["status"] == "rejected" and facts["rejected_check"] == "oracle" and facts["verified"] is False
    assert facts["checks"]["oracle"] == ["failed (reward 0)", False]
    assert items[f"task:{CAPPED}"].facts["verified"] is True and items[f"task:{LEGACY}"].facts["verified"] is None
    assert items[f"task:{LEGACY}"].body["files"] == [] and "no task folder" in items[f"task:{LEGACY}"].body["files_note"]


def test_review_app_shows_proposals_their_files_and_checks(run, serve):  # noqa: F811
    server = serve(run, "--rater", "alice")
    client = server.client
    client.get("/", follow_redirects=True)
    pages = []
    listing = client.get("/proposals")
    assert listing.status_code == 200
    pages.append(listing.text)
    rows = re.findall(r'<tr class="proposal-(\w+)"><td><code>([^<]+)</code>', listing.text)
    assert len(rows) == 8 and ("admitted", ADMITTED) in rows and ("legacy", LEGACY) in rows
    assert "oracle failed: the reference solution scores 0" in listing.text and "Not blind" in listing.text
    links = dict(zip([task for _, task in rows], re.findall(r'href="/proposals/([0-9a-f]{12})"', listing.text),
                     strict=True))
    rejected = client.get(f"/proposals/{links[ORACLE_FAILS]}").text
    pages.append(rejected)
    assert 'id="reason">Rejected: oracle failed' in rejected and 'data-status="rejected"' in rejected
    assert "failed (reward 0)" in rejected and "a symbolic link to /etc/passwd: not followed" in rejected
    assert "not a regular file (a FIFO, socket or device): not read" in rejected and "cut at 64.0 KB" in rejected
    admitted = client.get(f"/proposals/{links[ADMITTED]}").text
    pages.append(admitted)
    assert 'id="status" class="ok">admitted' in admitted and "passed (reward 1)" in admitted
    assert "tail -n +2 /app/data.csv" in admitted and "the proposer's own attempt" in admitted
    legacy = client.get(f"/proposals/{links[LEGACY]}").text
    pages.append(legacy)
    assert 'id="legacy"' in legacy and "legacy, unverified" in legacy
    assert client.get("/proposals/000000000000").status_code == 404
    # the rating page: the task and its files, nothing the machine found
    rating = client.get(f"/item/{links[ORACLE_FAILS]}").text
    pages.append(rating)
    assert 'data-kind="task"' in rating and 'id="task-files"' in rating and "RUN printf" in rating
    body = rating.split('<article class="item"', 1)[1].split("</article>", 1)[0]
    for secret in ("rejected", "oracle", "reward", "novelty", "cycle", ORACLE_FAILS):
        assert secret not in body, secret
    for page in pages:
        assert HOSTILE not in page and ESCAPED in page and SECRET_MARK not in page
    response = client.post(f"/item/{links[ORACLE_FAILS]}", data={"token": token_of(rating), "novel": "2",
                                                                "feasible": "1"})
    assert response.status_code == 303
    server.stop()
    store = RatingStore.in_run(run)
    store.add(Rating(f"task:{CAPPED}", "task", "alice", {"novel": 4, "feasible": 2}))
    report = build(run, human_review=human_review)
    found = {c.machine: c for c in report.human.comparisons if c.kind == "task"}
    checked = next(c for machine, c in found.items() if machine.startswith("checks passed"))
    assert checked.n == 2 and checked.agreement == 0.5  # oracle failed & people: infeasible; capped & people: no


def test_a_proposal_written_while_the_app_runs_appears(tmp_path, serve):  # noqa: F811
    run = proposal_run(tmp_path)
    server = serve(run, "--rater", "bob")
    server.client.get("/", follow_redirects=True)
    before = server.client.get("/proposals").text.count('<tr class="proposal-')
    data = json.loads((run / "proposals" / ADMITTED / "proposal.json").read_text())
    write_proposal(run, {**data, "id": "proposed-c002-5-late", "title": "Late"}, {"instruction.md": "late\n"})
    after = server.client.get("/proposals").text
    assert after.count('<tr class="proposal-') == before + 1 and "proposed-c002-5-late" in after


# -- tasks list --run ---------------------------------------------------------------------------------

def test_tasks_list_says_where_each_task_came_from(run):
    result = cli("tasks", "list", "--run", run, "--format", "json")
    assert result.returncode == 0, result.stderr
    rows = {row["id"]: row for row in json.loads(result.stdout)}
    assert {row["source"] for row in rows.values()} == {"suite", "proposed"}
    assert [rows[f"task-{i}"]["split"] for i in range(4)].count("holdout") == 1  # the run's ratio 0.25, seed 1
    assert rows["task-0"] | {"split": None} == {"id": "task-0", "category": "file-operations", "difficulty": "easy",
                                                "layout": "harbor", "split": None, "source": "suite", "cycle": None,
                                                "status": None, "reason": None}
    assert rows[ADMITTED] == {"id": ADMITTED, "category": "data-processing", "difficulty": "easy", "layout": "harbor",
                              "split": "train", "source": "proposed", "cycle": 1, "status": "admitted",
                              "reason": None, "rejected_check": None}
    assert rows[ORACLE_FAILS]["split"] == "rejected" and rows[ORACLE_FAILS]["rejected_check"] == "oracle"
    assert rows[ORACLE_FAILS]["reason"] == "oracle failed: the reference solution scores 0"
    assert (rows[LEGACY]["split"], rows[LEGACY]["status"], rows[LEGACY]["layout"]) == \
        ("train", "legacy", "instruction only")
    table = cli("tasks", "list", "--run", run)
    assert table.returncode == 0, table.stderr
    assert "run proposing proposed 8, 2 in the train pool" in table.stdout
    assert "\x1b" not in table.stdout and "did not build?[2J" in table.stdout  # a reason's escape sequence, inert
    lines = {line.split("│")[1].strip(): line for line in table.stdout.splitlines() if line.count("│") > 2}
    assert "│ train    │ proposed, cycle 1: admitted" in lines[ADMITTED]
    assert "│ rejected │ proposed, cycle 1: rejected (oracle) - oracle failed: the reference" in lines[ORACLE_FAILS]
    assert "proposed, cycle 1: legacy, unverified" in lines[LEGACY] and lines["task-0"].split("│")[6].strip() == "suite"
    # the suite given explicitly, and without --run nothing about proposals
    plain = json.loads(cli("tasks", "list", "--suite", run.parent.parent / "suite", "--format", "json").stdout)
    assert len(plain) == 4 and "source" not in plain[0]


def test_tasks_list_bad_input(run, tmp_path):
    for args, message in ((("--run", tmp_path / "nope"), "no such run directory"),
                          (("--run", tmp_path), "not a run directory"),
                          ((), "give --suite DIR, or --run DIR")):
        result = cli("tasks", "list", *args)
        assert result.returncode == 2 and len(result.stderr.splitlines()) == 1 and message in result.stderr, result
    (run / "config.yaml").write_text("paths: [unclosed\n")
    broken = cli("tasks", "list", "--run", run)
    assert broken.returncode == 2 and "config.yaml: unreadable" in broken.stderr and "Traceback" not in broken.stderr
    (run / "config.yaml").write_text("seed: 1\n")
    nosuite = cli("tasks", "list", "--run", run)
    assert nosuite.returncode == 2 and "no paths.suite; give --suite DIR" in nosuite.stderr

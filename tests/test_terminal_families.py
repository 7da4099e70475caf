"""The family suite (benchmarks/terminal-families, issue 66): generated from its definitions, at least
24 families of at least 8 instances, each instance a task the loader takes, instances of a family alike
in their solution and different in their wording, no twins across families. Whether each task is
sound (oracle passes, nop fails) is `adaptive-skill tasks validate`'s, recorded in the suite's
validation.json (README there); the opt-in Docker test at the end runs it again."""

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from test_families import undeclared_twins, unlike_members

from adaptive_skill.tasks import load_suite

REPO = Path(__file__).resolve().parents[1]
SUITE = REPO / "benchmarks" / "terminal-families"


def test_the_committed_suite_is_what_its_definitions_generate():
    done = subprocess.run([sys.executable, str(SUITE / "generate.py"), "--check"], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_at_least_24_families_of_at_least_8_instances_over_the_kinds_of_work():
    tasks = load_suite(SUITE)
    families = Counter(t.family for t in tasks)
    assert None not in families  # every task is an instance of a family
    assert len(families) >= 24 and min(families.values()) >= 8
    assert len({t.category for t in tasks}) >= 8  # configs, logs, archives, git, sqlite, json/csv, ...
    for family in families:
        members = [t for t in tasks if t.family == family]
        assert len({t.instruction for t in members}) == len(members), family
        assert len({t.category for t in members}) == 1, family


# Close across families, and still two recipes: an anchored `sed -i 's/^KEY=.*/KEY=V/'` against a
# global `sed -i 's/OLD/NEW/g'` (the `g` and the anchor are each family's slip).
CLOSE_ACROSS = {("config-set-value-api-log-level", "replace-all-occurrences-nginx-host"),
                ("config-set-value-ini-port", "replace-all-occurrences-nginx-host"),
                ("config-set-value-ini-port", "replace-all-occurrences-services-ip")}


def test_instances_resemble_their_family_and_no_other():
    tasks = load_suite(SUITE)
    assert unlike_members(tasks) == []
    assert {(a, b) for a, b, _ in undeclared_twins(tasks)} <= CLOSE_ACROSS


def test_validation_record_covers_every_task_and_every_task_is_sound():
    """validation.json is `tasks validate --format json` over the whole suite, kept with it; it must
    name the generated tasks exactly (a task changed after it was validated is caught by its hash)."""
    record = json.loads((SUITE / "validation.json").read_text())
    tasks = {t.id: t for t in load_suite(SUITE)}
    rows = {row["id"]: row for row in record["tasks"]}
    assert set(rows) == set(tasks)
    assert all(row["sound"] for row in rows.values()), [i for i, r in rows.items() if not r["sound"]]
    from adaptive_skill.files import tree_hash

    assert {i: r["files"] for i, r in rows.items()} == {i: tree_hash(t.path) for i, t in tasks.items()}


@pytest.mark.skipif(not os.environ.get("ADAPTIVE_SKILL_SLOW"),
                    reason="opt-in, as the other slow suite checks: builds 232 images (about 18 min) and validates "
                           "them; set ADAPTIVE_SKILL_SLOW=1 (validation.json is the kept run, checked above)")
def test_every_instance_is_sound_in_docker():
    done = subprocess.run([sys.executable, "-m", "adaptive_skill", "tasks", "validate", "--suite", str(SUITE),
                           "--format", "json", "-q"], capture_output=True, text=True)
    report = json.loads(done.stdout)
    assert done.returncode == 0 and all(row["sound"] for row in report["tasks"]), done.stderr[-2000:]


@pytest.mark.parametrize("record", ["r0", "r1"])
def test_the_readme_holds_the_seed_rates_its_record_gives(record):
    """r0: the whole suite once; r1: the 8 families r0 never passed, measured again after their
    instructions changed. rates.py leaves families a record did not run out of nothing but the rows."""
    done = subprocess.run([sys.executable, str(SUITE / "rates.py"), str(SUITE / "_seed" / f"{record}.jsonl.gz"),
                           *(["--measured"] if record == "r1" else []), "--check", str(SUITE / "README.md")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout

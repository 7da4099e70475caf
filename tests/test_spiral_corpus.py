"""The spiral monitor on the labelled corpus (tests/fixtures/spiral-corpus/): every run replayed
through `scan` (the path behind `adaptive-skill spiral scan`) with the default config and the
lexical embedder, scored against its label. The bounds are issues 23's and 31's "Done when"."""

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

CORPUS = Path(__file__).resolve().parent / "fixtures" / "spiral-corpus"


def _score_module():
    spec = importlib.util.spec_from_file_location("spiral_corpus_score", CORPUS / "score.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


score = _score_module()


@pytest.fixture(scope="module")
def scored():
    return score.score()


def test_the_corpus_covers_every_kind_both_protocols_and_long_runs():
    labels = score.labels()
    assert len(labels) >= 40
    loops = [v for v in labels.values() if v["loop"]]
    healthy = [v for v in labels.values() if not v["loop"]]
    kinds = {v["kind"] for v in loops}
    assert {"volatile_gcc", "volatile_pytest", "masked_tail", "masked_or_true", "empty_search", "paraphrase_pip",
            "paraphrase_edit", "flipflop", "dead_service", "goal_drift"} <= kinds
    assert kinds <= {v["kind"] for v in healthy}  # a healthy look-alike for every kind of loop
    assert "batch_rename" in {v["kind"] for v in healthy}
    for group in (loops, healthy):
        assert {(v["protocol"], v["exit_codes"]) for v in group} == {
            ("chat", True), ("chat", False), ("text", True), ("text", False)}
    late_loops = [v for v in loops if v["turns"] >= 40 and v["loop_start"] > 20]
    assert len(late_loops) >= 8
    for v in loops:
        assert 1 <= v["loop_start"] < v["deadline"] <= v["turns"]


def test_issue_31_kinds_have_four_loops_and_four_look_alikes_each():
    """Goal drift, late tweak loops, cross-tool alternation, volatile errors without exit codes,
    paraphrased look-ups and installs, dead polls: at least four loops and four healthy runs each,
    written apart from the detectors (corpus_hard.py), in both protocols."""
    labels = score.labels()
    kinds = {"drift_chores", "late_tweak", "tool_alternation", "volatile_noexit", "paraphrase_lookup", "dead_poll"}
    for kind in kinds:
        runs = [v for v in labels.values() if v["kind"] == kind]
        assert sum(v["loop"] for v in runs) >= 4 and sum(not v["loop"] for v in runs) >= 4, kind
        assert {v["protocol"] for v in runs} == {"chat", "text"}, kind
    late = [v for v in labels.values() if v["kind"] == "late_tweak" and v["loop"]]
    assert sum(v["turns"] >= 38 and 20 < v["loop_start"] <= 31 for v in late) >= 4  # after 20-30 good turns
    noexit = [v for v in labels.values() if v["kind"] == "volatile_noexit"]
    assert not any(v["exit_codes"] for v in noexit) and sum(v["protocol"] == "text" for v in noexit) >= 4


def test_the_generator_reproduces_the_committed_runs(tmp_path):
    """The runs are what generate.py writes (deterministic), so they can be reviewed as code."""
    spec = importlib.util.spec_from_file_location("spiral_corpus_generate", CORPUS / "generate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    runs, labels = module.build()
    assert labels == score.labels()
    for run_id, trajectory in runs.items():
        assert json.loads((CORPUS / "runs" / f"{run_id}.json").read_text()) == trajectory


def test_the_monitor_meets_the_bounds_on_the_corpus(scored):
    overall, per_detector, reports = scored
    figures = overall.figures()
    outcomes = {run: outcome for run, outcome in overall.runs.items() if not outcome.startswith(("caught", "quiet"))}
    assert figures["early"] == 0, outcomes  # never a flag before the loop starts
    assert figures["false_alarms"] == 0, outcomes  # no healthy run flagged (issue 31), let alone stopped
    assert figures["late"] <= 2, outcomes
    assert figures["f1"] >= 0.95, (figures, outcomes)
    for kind, tally in score.per_kind(reports).items():
        assert tally.figures()["false_alarms"] == 0 and tally.recall >= 0.75, (kind, tally.runs)


def test_per_detector_figures_are_reported(scored):
    overall, per_detector, _ = scored
    assert per_detector, "no detector fired on the corpus"
    for tally in per_detector.values():
        assert tally.loops == overall.loops and 0.0 <= tally.f1 <= 1.0


def test_the_cli_agrees_with_the_replay_on_a_corpus_run(scored):
    _, _, reports = scored
    run = next(r for r, rep in sorted(reports.items()) if rep["first_step"] is not None)
    result = subprocess.run([sys.executable, "-m", "adaptive_skill", "spiral", "scan", str(CORPUS / "runs" / f"{run}.json"),
                             "--format", "json"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["first_step"] == reports[run]["first_step"]

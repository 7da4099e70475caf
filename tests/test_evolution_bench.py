"""benchmarks/evolution: the expert workspace against the skill rules, the refusals of run.py, its
settings and config, and an opt-in `--quick` smoke run (Docker + the embedded model, several minutes).
The statistics and the outputs, now adaptive_skill/curve: test_curve.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
BENCH = REPO / "benchmarks" / "evolution"
PROBES = REPO / "benchmarks" / "probes"
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(PROBES))

from adaptive_skill.curve.stats import headroom_share, paired_difference, pass_rate  # noqa: E402

SLOW_ENV = "ADAPTIVE_SKILL_SLOW"


def _cli(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, str(BENCH / "run.py"), *args], capture_output=True, text=True,
                          cwd=REPO, env=env, timeout=120)


def test_expert_workspace_passes_skills_check():
    result = subprocess.run([sys.executable, "-m", "adaptive_skill", "skills", "check", str(BENCH / "expert-workspace")],
                            capture_output=True, text=True, cwd=REPO, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    skills = [p for p in (BENCH / "expert-workspace" / "skills").iterdir() if (p / "SKILL.md").exists()]
    from adaptive_skill.config import EvolveConfig
    assert len(skills) <= EvolveConfig().max_skills


def test_the_shipped_evolved_workspace_checks_exports_and_names_its_origin(tmp_path):
    """benchmarks/evolution/evolved-workspace: an accepted tag exported as a workspace (lever 8): it
    passes `skills check`, fits the budget, `skills export` writes its skills as Agent Skills folders,
    and ORIGIN.md names the run, the tag and the gate's decision."""
    evolved = BENCH / "evolved-workspace"
    check = subprocess.run([sys.executable, "-m", "adaptive_skill", "skills", "check", str(evolved)],
                           capture_output=True, text=True, cwd=REPO, timeout=120)
    assert check.returncode == 0, check.stdout + check.stderr
    from adaptive_skill.config import EvolveConfig
    from adaptive_skill.workspace import Workspace

    names = sorted(s.name for s in Workspace(evolved).require().skills())
    assert len(names) <= EvolveConfig().max_skills and "sqlite-update-rows-worked-commands" in names
    export = subprocess.run([sys.executable, "-m", "adaptive_skill", "skills", "export", "-w", str(evolved),
                             str(tmp_path / "out")], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert export.returncode == 0, export.stderr
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == names
    assert all((tmp_path / "out" / n / "SKILL.md").read_text() == (evolved / "skills" / n / "SKILL.md").read_text()
               for n in names)
    origin = (evolved / "ORIGIN.md").read_text()
    assert "`evo-1` of the family curve" in origin and "LLR +9.90" in origin and "label-free" in origin
    # the workspace is the tag itself: the hash the gate's round cache named for the family curve's evo-1
    from adaptive_skill.evolve.rules import workspace_hash

    assert workspace_hash(evolved).startswith("c668a2b86478dcc4")


def test_unknown_embedded_model_is_one_line_exit_2(tmp_path):
    result = _cli("--out", str(tmp_path / "out"), "--model", "local/no-such-model")
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "local/no-such-model" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "out").exists()


def test_other_settings_in_the_same_out_are_refused(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "state.json").write_text(json.dumps({"settings": {"model": "local/smollm2-135m", "repeats": 5},
                                                "parts": {}}))
    result = _cli("--out", str(out), "--quick", "--model", "local/smollm2-135m")
    assert result.returncode == 2 and "other settings" in result.stderr and "Traceback" not in result.stderr


def test_which_parts_run_is_not_a_setting_and_a_resume_keeps_what_it_has(tmp_path):
    """--no-expert, --no-evolve and --workspace choose parts: a directory resumed with another choice
    keeps its parts (a --no-expert run takes the expert on later, also from a state.json written before
    the choice left the settings); any change of a setting is still refused."""
    import run as bench

    from adaptive_skill.errors import UserError

    out = tmp_path / "out"
    out.mkdir()
    args = bench.parse_args(["--out", str(out), "--no-expert", "--no-evolve", "--seed", "2"])
    s = bench.settings(args)
    assert bench.chosen_parts(args) == {"evolve": False, "expert": False, "workspaces": []}
    assert s == bench.settings(bench.parse_args(["--out", str(out), "--seed", "2"]))
    parts = {"seed": {"done": True, "scores": {"a": [1.0, 0.0]}, "windows": [[0, 1]]}}
    # as runs before 2026-11-29 stored it: --no-expert inside the settings
    (out / "state.json").write_text(json.dumps({"settings": {**s, "expert": False}, "parts": parts}))
    resumed = bench.Bench(out, s)
    assert resumed.state["settings"] == s and resumed.state["parts"] == parts
    with pytest.raises(UserError, match=r"other settings \(seed\)"):
        bench.Bench(out, bench.settings(bench.parse_args(["--out", str(out), "--seed", "3"])))


def test_a_workspace_to_evaluate_must_be_one(tmp_path):
    """--workspace names a workspace directory: anything else is one line, exit 2, before any model
    or container starts; the same directory twice too."""
    missing = _cli("--out", str(tmp_path / "out"), "--no-evolve", "--workspace", str(tmp_path / "nope"))
    assert missing.returncode == 2 and "nope: workspace directory does not exist" in missing.stderr
    assert "Traceback" not in missing.stderr
    (tmp_path / "empty").mkdir()
    empty = _cli("--out", str(tmp_path / "out"), "--workspace", str(tmp_path / "empty"))
    assert empty.returncode == 2 and "not a workspace" in empty.stderr
    ws = str(BENCH / "evolved-workspace")
    twice = _cli("--out", str(tmp_path / "out"), "--workspace", ws, "--workspace", ws + "/")
    assert twice.returncode == 2 and "the same directory twice" in twice.stderr
    assert not (tmp_path / "out").exists()


def test_a_run_without_evolve_summarises_seed_expert_and_workspaces(tmp_path):
    """--no-evolve --workspace DIR: the results hold the seed, the expert and the workspace, each
    paired with the seed and with its headroom share, no evolve row and no cycles; an interrupted
    part (not done) is left out, never a crash; the report shows the workspace and says why there
    is no evolve run."""
    import run as bench

    from adaptive_skill.curve.markdown import markdown

    seed = {"a": [0.0, 0.0], "b": [1.0, 0.0], "c": [0.0, 0.0]}
    expert = {"a": [1.0, 1.0], "b": [1.0, 1.0], "c": [0.0, 1.0]}
    evolved = {"a": [1.0, 0.0], "b": [1.0, 1.0], "c": [0.0, 0.0]}
    ws = "/somewhere/evolved-workspace"
    state = {"parts": {"seed": {"done": True, "scores": seed, "windows": [[0, 1]]},
                       "expert": {"done": True, "scores": expert, "windows": [[1, 2]]},
                       f"workspace:{ws}": {"done": True, "scores": evolved, "windows": [[2, 5]]},
                       "workspace:/half/done": {"windows": [[5, 6]]}}}
    s = bench.settings(bench.parse_args(["--out", str(tmp_path), "--no-evolve"]))
    engine = type("Engine", (), {"suite": [], "train": [],
                                 "holdout": [type("Task", (), {"id": i, "family": None})() for i in "abc"]})()
    results = bench.summarise(state, tmp_path / "runs" / "evolve", engine, s)
    assert results["evolve"] is None and results["cycles"] == [] and len(results["curve"]) == 1
    [row] = results["workspaces"]
    assert (row["label"], row["path"], row["wall_sec"]) == ("evolved-workspace", ws, 3.0)
    assert row["headroom_share"]["share"] == pytest.approx(0.5)  # (0.5 - 1/6) / (5/6 - 1/6)
    assert row["vs_seed"]["mean"] == pytest.approx(1 / 3)
    text = markdown(results)
    assert "no evolve run (curve.evolve: false; run.py --no-evolve)." in text and "| evolved-workspace |  | 50% [" in text
    assert f"evolved-workspace: {ws}" in text
    assert results["expert_unseen"] is None  # no holdout task is one the expert was written from


def test_the_headroom_again_on_the_tasks_the_expert_was_not_written_from():
    """The expert's steps come from split 0's train tasks: on split 2 the results add the rows again
    on the holdout tasks outside them (21 of 40), paired the same way; on split 0 there is no such
    subset (every holdout task is one the expert was not written from)."""
    import run as bench

    from adaptive_skill.curve.markdown import markdown
    from adaptive_skill.tasks import load_suite, split_suite

    suite = load_suite(REPO / "benchmarks" / "terminal-easy")
    written_from = {t.id for t in split_suite(suite, 0.5, 0)[0]}
    for split, unseen_count in ((2, 21), (0, None)):
        train, holdout = split_suite(suite, 0.5, split)
        engine = type("Engine", (), {"suite": suite, "train": train, "holdout": holdout})()
        ids = [t.id for t in holdout]
        seed = {i: [0.0, 0.0] for i in ids}
        expert = {i: [1.0, 1.0] for i in ids}  # +1 everywhere
        evolved = {i: [1.0, 1.0] if i in written_from else [0.0, 0.0] for i in ids}  # only where it was tuned
        state = {"parts": {"seed": {"done": True, "scores": seed, "windows": []},
                           "expert": {"done": True, "scores": expert, "windows": []},
                           "workspace:/x/evolved-workspace": {"done": True, "scores": evolved, "windows": []}}}
        s = bench.settings(bench.parse_args(["--out", "/tmp/unused", "--seed", str(split)]))
        results = bench.summarise(state, REPO / "no-such-run", engine, s)
        if unseen_count is None:
            assert results["expert_unseen"] is None
            continue
        unseen = results["expert_unseen"]
        assert len(unseen["tasks"]) == unseen_count and not set(unseen["tasks"]) & written_from
        rows = {row["label"]: row for row in unseen["rows"]}
        assert list(rows) == ["seed (evo-0)", "expert", "evolved-workspace"]
        assert rows["expert"]["vs_seed"]["mean"] == 1.0 and rows["evolved-workspace"]["vs_seed"]["mean"] == 0.0
        assert rows["evolved-workspace"]["headroom_share"]["share"] == 0.0
        # on all 40 the same workspace recovers the 19 tasks' share
        [row] = results["workspaces"]
        assert row["headroom_share"]["share"] == pytest.approx(19 / 40)
        assert "holdout tasks the expert was not written from" in markdown(results)


@pytest.mark.docker
@pytest.mark.skipif(not os.environ.get(SLOW_ENV), reason=f"opt-in: a --quick run builds task images and runs the "
                    f"embedded model in every role (14.5 min on the shared 2-core machine); set {SLOW_ENV}=1 to run it")
def test_quick_run_end_to_end_and_resume(docker_client, base_image, tmp_path):
    out = tmp_path / "out"
    args = ("--out", str(out), "--quick", "--model", "local/smollm2-135m")
    first = _cli_long(*args)
    assert first.returncode == 0, first.stdout[-3000:] + first.stderr[-3000:]
    results = json.loads((out / "results.json").read_text())
    assert len(results["holdout"]) == 2
    assert set(results["seed"]["scores"]) == set(results["holdout"])
    assert results["curve"][0]["label"].startswith("seed") and (out / "curve.html").stat().st_size > 0
    assert "| workspace |" in (out / "results.md").read_text()
    again = _cli_long(*args)  # resumed: every part is recorded as done
    assert again.returncode == 0
    assert again.stdout.count("done before, skipped") >= 3
    assert json.loads((out / "results.json").read_text())["seed"]["scores"] == results["seed"]["scores"]


def _cli_long(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, str(BENCH / "run.py"), *args], capture_output=True, text=True,
                          cwd=REPO, env=env, timeout=3600)


def test_report_table_and_page(tmp_path):
    from adaptive_skill.curve import render

    seed = {"a": [0.0, 0.0], "b": [1.0, 0.0], "c": [0.0, 0.0]}
    expert = {"a": [1.0, 1.0], "b": [1.0, 1.0], "c": [0.0, 1.0]}
    evo = {"a": [1.0, 0.0], "b": [1.0, 1.0], "c": [0.0, 0.0]}

    def row(label, cycle, scores):
        return {"label": label, "cycle": cycle, "pass_rate": pass_rate(scores).to_dict(),
                "vs_seed": paired_difference(scores, seed).to_dict(),
                "headroom_share": headroom_share(scores, seed, expert), "attempts": 6, "wall_sec": 1.0,
                "prompt_tokens": 10, "completion_tokens": 2, "llm_calls": 3, "scores": scores}

    curve = [row("seed (evo-0)", 0, seed), row("evo-1", 2, evo)]
    results = {"settings": {"model": "m", "repeats": 2, "temperature": 0.7, "cycles": 2, "max_steps": 8},
               "holdout": ["a", "b", "c"], "seed": curve[0], "expert": row("expert", None, expert), "curve": curve,
               "evolve": {"status": "max_cycles", "accepted": ["evo-1"], "wall_sec": 5.0, "prompt_tokens": 1,
                          "completion_tokens": 1, "llm_calls": 1}}
    render(results, tmp_path)
    table = (tmp_path / "results.md").read_text()
    evo_line = next(line for line in table.splitlines() if line.startswith("| evo-1 |"))
    assert "| 2 | 50% [" in evo_line  # cycle 2, pass rate 3/6
    assert "0.50 [" in evo_line  # (0.5 - 0.167) / (0.833 - 0.167) = 0.5
    assert "<svg" in (tmp_path / "curve.html").read_text()
    # --no-expert: no expert row, and the headroom column says why it is empty
    for r in curve:
        r["headroom_share"] = {"share": None, "low": None, "high": None, "note": "expert not evaluated"}
    render({**results, "expert": None}, tmp_path)
    table = (tmp_path / "results.md").read_text()
    assert "| expert |" not in table and "| – (expert not evaluated) |" in table
    assert "<td>expert</td>" not in (tmp_path / "curve.html").read_text()


def test_the_evolver_mode_is_a_setting_and_reaches_the_config(tmp_path):
    import run as bench

    structured = bench.settings(bench.parse_args(["--out", str(tmp_path / "a")]))
    single = bench.settings(bench.parse_args(["--out", str(tmp_path / "b"), "--evolver", "single"]))
    assert structured["evolver"] == "structured" and single["evolver"] == "single"
    assert bench.build_config(structured, tmp_path / "a").evolver.mode == "structured"
    assert bench.build_config(single, tmp_path / "b").evolver.mode == "single"
    assert _cli("--out", str(tmp_path / "c"), "--evolver", "nonsense").returncode == 2


def test_the_defaults_fit_the_1_5b_and_bad_values_are_one_line_exit_2(tmp_path):
    """The skill in the prompt (the 1.5B reads none by itself), half the suite held out for the gate's
    power, no judge on verifier-scored holdout attempts; each can be set, and a bad value is refused."""
    import run as bench

    default = bench.build_config(bench.settings(bench.parse_args(["--out", str(tmp_path / "a")])), tmp_path / "a")
    assert default.skill_in_prompt_tokens == 300 and default.holdout_ratio == 0.5
    assert not default.gating.judge_check and default.gating.min_rounds == default.gating.max_rounds == 2
    assert default.max_cycles == 1  # what fits the 2-hour budget at measured times (run.py, Sizing)
    other = bench.build_config(bench.settings(bench.parse_args(
        ["--out", str(tmp_path / "b"), "--skill-in-prompt", "0", "--holdout-ratio", "0.15", "--judge-check"])),
        tmp_path / "b")
    assert other.skill_in_prompt_tokens == 0 and other.holdout_ratio == 0.15 and other.gating.judge_check
    for bad in (["--holdout-ratio", "1.5"], ["--skill-in-prompt", "-3"], ["--explore", "11"],
                ["--explore", "2", "--explore-temperature", "0"], ["--batch-size", "0"], ["--explore-reflect"]):
        result = _cli("--out", str(tmp_path / "c"), *bad)
        assert result.returncode == 2 and result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
        assert not (tmp_path / "c").exists()


def test_evolver_samples_and_show_before_submit_leave_old_settings_alone(tmp_path):
    """--evolver-samples N asks up to N questions a cycle at temperature 0.7 (at 0 they would repeat);
    without it the settings have no new key, so a directory of an earlier run still resumes."""
    import run as bench

    plain = bench.settings(bench.parse_args(["--out", str(tmp_path / "a")]))
    assert "evolver_samples" not in plain
    config = bench.build_config(plain, tmp_path / "a")
    assert config.evolver.samples == 1 and config.models.evolver.temperature == 0
    sampled = bench.settings(bench.parse_args(["--out", str(tmp_path / "b"), "--evolver-samples", "3"]))
    config = bench.build_config(sampled, tmp_path / "b")
    assert config.evolver.samples == 3 and config.models.evolver.temperature == 0.7
    assert config.models.evolver.seed == 0
    shown = bench.settings(bench.parse_args(["--out", str(tmp_path / "c"), "--show-before-submit"]))
    assert "show_before_submit" not in plain and bench.build_config(shown, tmp_path / "c").models.agent.show_before_submit
    assert "explore" not in plain and config.explore.passes == 0
    distilled = bench.settings(bench.parse_args(["--out", str(tmp_path / "d"), "--evolver", "distill", "--explore", "3",
                                                 "--explore-temperature", "0.9", "--batch-size", "40"]))
    config = bench.build_config(distilled, tmp_path / "d")
    assert config.evolver.mode == "distill" and (config.explore.passes, config.explore.temperature) == (3, 0.9)
    assert config.batch_size == 40 and "batch_size" not in plain
    assert not config.explore.reflect and "explore_reflect" not in distilled
    reflected = bench.settings(bench.parse_args(["--out", str(tmp_path / "e"), "--explore", "2", "--explore-reflect"]))
    assert bench.build_config(reflected, tmp_path / "e").explore.reflect


def test_the_reflect_probe_statistics_on_known_counts():
    import reflect_probe

    assert reflect_probe.sign_test(8, 0) == pytest.approx(2 / 2 ** 8)  # 0.0078: run 24's git probe
    assert reflect_probe.sign_test(3, 3) == 1.0 and reflect_probe.sign_test(0, 0) == 1.0
    assert reflect_probe.sign_test(5, 1) == pytest.approx(2 * 7 / 64)
    low, high = reflect_probe.wilson(0, 16)
    assert low == 0.0 and high == pytest.approx(0.194, abs=1e-3)
    low, high = reflect_probe.wilson(8, 16)
    assert (round(low, 3), round(high, 3)) == (0.280, 0.720)
    assert reflect_probe.wilson(0, 0) == (0.0, 1.0)


def test_the_reflect_probe_refuses_a_task_outside_the_split_in_one_line(tmp_path):
    result = subprocess.run([sys.executable, str(PROBES / "reflect_probe.py"), "--out", str(tmp_path / "p"),
                             "--task", "no-such-task"], capture_output=True, text=True, cwd=REPO)
    assert result.returncode == 2 and result.stderr == "error: --task: not a train task of split 2: no-such-task\n"
    assert not (tmp_path / "p").exists()


def test_next_reply_probe_counts_a_copied_observation():
    sys.path.insert(0, str(PROBES))
    from next_reply import copies, observation

    output = "cp: cannot create regular file '/app/backup/x': No such file or directory"
    assert copies(output, output) and copies("cp: command not found", "cp: command not found\n")
    assert not copies("mkdir -p /app/backup && cp a /app/backup/x", output)
    assert observation(output, 1, "plain") == f"Observation (bash):\n{output}\n[exit code 1]"
    assert observation(output, 1, "question").startswith(observation(output, 1, "plain") + "\n\n")


def test_cycle_evidence_reads_each_cycle_and_the_report_shows_it(tmp_path):
    """The learning-curve results carry, per cycle, the skills written and the gate's evidence; the
    tasks moved are the gate's own count (GateResult.moved), and a torn or odd gate.json is a cycle
    without a gate, never a crash."""
    import run as bench

    from adaptive_skill.curve.markdown import markdown
    from adaptive_skill.engine.records import GateResult

    gate = GateResult(accepted=True, reason="LLR 2.6", gated=True, rounds=2, rollouts=8, mutated_mean=0.75,
                      baseline_mean=0.5, per_task=[{"task": "a", "difference": 0.5}, {"task": "b", "difference": None},
                                                   {"task": "c", "difference": 0.0}]).to_dict()
    files = {"001": {"evolve.json": {"summary": "added a|b", "candidate": "c0ffee",
                                     "changes": {"added": ["skills/zip/SKILL.md", "skills/zip/x.sh"]}},
                     "gate.json": gate, "commit.json": {"tag": "evo-1"}},
             "002": {"evolve.json": {"skipped": "no failure"}, "gate.json": "{torn"},
             "003": {"gate.json": {"gated": True, "per_task": "odd"}}}
    for name, contents in files.items():
        (tmp_path / "cycles" / name).mkdir(parents=True)
        for file, data in contents.items():
            (tmp_path / "cycles" / name / file).write_text(data if isinstance(data, str) else json.dumps(data))

    class Repo:
        def read_file(self, commit, path):
            return f"---\nname: zip\n---\n{commit} {path}\n"

    cycles = bench.cycle_evidence(tmp_path, type("Engine", (), {"repo": Repo()})())
    assert [(c["cycle"], c["gated"], c["tasks_better"], c["tasks_worse"], c["tasks_same"]) for c in cycles] == [
        (1, True, 1, 0, 1), (2, False, 0, 0, 0), (3, True, 0, 0, 0)]
    assert list(cycles[0]["skills"]) == ["skills/zip/SKILL.md"] and cycles[0]["tag"] == "evo-1"
    # the paired interval of the gate's numeric differences (a +0.5, c 0; b unscored is left out)
    paired = cycles[0]["vs_baseline"]
    assert (paired["mean"], paired["low"], paired["high"], paired["n"]) == (0.25, 0.0, 0.5, 2)
    assert cycles[1]["vs_baseline"] is None and cycles[2]["vs_baseline"] is None
    scores = {"a": [1.0]}
    expert = {"label": "expert", "cycle": None, "pass_rate": pass_rate(scores).to_dict(),
              "vs_seed": paired_difference(scores, scores).to_dict(),
              "headroom_share": headroom_share(scores, scores, scores), "attempts": 1,
              "wall_sec": 1.0, "prompt_tokens": 1, "completion_tokens": 1, "llm_calls": 1, "scores": scores}
    results = {"settings": {"model": "m", "repeats": 1, "temperature": 0.7, "cycles": 3, "max_steps": 3},
               "holdout": ["a"], "seed": expert, "expert": expert, "curve": [], "cycles": cycles[:2],
               "evolve": {"status": "max_cycles", "accepted": ["evo-1"], "wall_sec": 1.0, "prompt_tokens": 1,
                          "completion_tokens": 1, "llm_calls": 1}}
    text = markdown(results)
    assert "| 1 | added a/b | 2 / 8 | 75% / 50% | 25% [0%, 50%] | 1 / 0 / 1 | accepted as evo-1: LLR 2.6 |" in text
    assert "| 2 | no failure | not gated |" in text and "c0ffee skills/zip/SKILL.md" in text


def test_replace_check_refuses_what_it_cannot_check_in_one_line(tmp_path):
    """benchmarks/probes/replace_check.py: a directory run.py did not write, and a run whose cycle
    has no candidate (its evolve phase not reached), are one line and exit 2, never a traceback."""
    import subprocess

    import run as bench

    script = [sys.executable, str(REPO / "benchmarks" / "probes" / "replace_check.py")]
    missing = subprocess.run([*script, "--out", str(tmp_path / "nothing")], capture_output=True, text=True, timeout=120)
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1 and "not a run.py --out directory" in missing.stderr
    out = tmp_path / "out"
    s = bench.settings(bench.parse_args(["--out", str(out), "--quick", "--evolver", "distill"]))
    out.mkdir()
    (out / "state.json").write_text(json.dumps({"settings": s, "parts": {}}))
    early = subprocess.run([*script, "--out", str(out)], capture_output=True, text=True, timeout=300)
    assert early.returncode == 2 and "Traceback" not in early.stderr, early.stderr
    assert early.stderr.count("\n") == 1 and "cycle 1 has no candidate" in early.stderr


def test_a_kept_records_tag_is_rebuilt_to_the_byte_and_a_tampered_one_refused(tmp_path):
    """tag_workspace.py: runs 25's and 26's evo-1 rebuilt from their kept records hash as the gate's
    round cache named them; a record whose skill text was changed, that names a path outside skills/,
    or asks for a tag no cycle made, is one line, exit 2, and leaves no directory behind."""
    import shutil

    from tag_workspace import main, rebuild

    from adaptive_skill.errors import UserError
    from adaptive_skill.evolve.rules import workspace_hash

    records = BENCH / "results"
    for name, want in (("curve-25", "7e8f4ac770c446af"), ("curve-26", "debd31562602ba0d")):
        out = tmp_path / name
        assert rebuild(records / name, "evo-1", out).startswith(want)
        assert workspace_hash(out).startswith(want) and (out / "skills" / "check-your-work" / "SKILL.md").is_file()
    copy = tmp_path / "tampered"
    shutil.copytree(records / "curve-26", copy)
    results = json.loads((copy / "results.json").read_text())
    skills = results["cycles"][0]["skills"]
    first = next(iter(skills))
    skills[first] = skills[first].replace("/app/", "/tmp/", 1)
    (copy / "results.json").write_text(json.dumps(results))
    assert main([str(copy), "--tag", "evo-1", "--out", str(tmp_path / "a")]) == 2
    assert not (tmp_path / "a").exists()
    skills[first] = skills[first].replace("/tmp/", "/app/", 1)
    depth = len(tmp_path.parts) + 8  # far above the scratch directory: at the filesystem's root
    skills["skills/" + "../" * depth + str(tmp_path / "escaped" / "SKILL.md").lstrip("/")] = "x"
    (copy / "results.json").write_text(json.dumps(results))
    done = subprocess.run([sys.executable, str(BENCH / "tag_workspace.py"), str(copy), "--tag", "evo-1", "--out",
                           str(tmp_path / "b")], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "not a skills/<name>/SKILL.md" in done.stderr
    assert not (tmp_path / "b").exists() and not (tmp_path / "escaped").exists()
    assert main([str(records / "curve-26"), "--tag", "evo-2", "--out", str(tmp_path / "c")]) == 2
    # a seed workspace holding a link is not followed out of it, it is refused
    seed = tmp_path / "seed"
    shutil.copytree(REPO / "workspace", seed)
    (seed / "memory" / "elsewhere").symlink_to("/etc")
    with pytest.raises(UserError, match="symlinks are not allowed"):
        rebuild(records / "curve-26", "evo-1", tmp_path / "d", seed=seed)
    assert not (tmp_path / "d").exists()


def test_a_tag_gated_per_skill_is_rebuilt_with_the_skills_it_kept_alone(tmp_path):
    """tag_workspace.py on the family curve's record: its gate per skill kept 1 of the candidate's 16
    skills, and evo-1 is rebuilt as the seed plus that skill, to the gate's hash; a record claiming a
    dropped skill was kept no longer matches, and dropped skills that are not a list of names are
    refused: one line, exit 2, no directory."""
    import shutil

    from tag_workspace import main, rebuild

    record = BENCH / "results" / "curve-families"
    out = tmp_path / "evo-1"
    assert rebuild(record, "evo-1", out).startswith("c668a2b86478dcc4")
    assert sorted(p.name for p in (out / "skills").iterdir()) == ["check-your-work", "sqlite-update-rows-worked-commands"]
    results = json.loads((record / "results.json").read_text())
    assert len(results["cycles"][0]["skills"]) == 16
    copy = tmp_path / "tampered"
    shutil.copytree(record, copy)
    results["cycles"][0]["skills_dropped"].remove("csv-sum-column-worked-commands")
    (copy / "results.json").write_text(json.dumps(results))
    assert main([str(copy), "--tag", "evo-1", "--out", str(tmp_path / "a")]) == 2
    assert not (tmp_path / "a").exists()
    results["cycles"][0]["skills_dropped"] = "count-lines-worked-commands"
    (copy / "results.json").write_text(json.dumps(results))
    done = subprocess.run([sys.executable, str(BENCH / "tag_workspace.py"), str(copy), "--tag", "evo-1", "--out",
                           str(tmp_path / "b")], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "not a list of names" in done.stderr
    assert not (tmp_path / "b").exists()


def test_the_show_probe_reads_a_run_and_compares_the_judge_with_the_baselines(tmp_path):
    """show_probe.py: the export reads each estimate, its tests' result and whether the first submit
    was held (a submit that is not the record's last step); the summary pairs the tasks with the
    baseline's batch attempts and counts precision, recall and what changed."""
    from show_probe import export, main, summary

    run = tmp_path / "run"
    (run / "estimates").mkdir(parents=True)
    (run / "trajectories").mkdir()
    held_shown = {"tool": "submit", "error": "not submitted yet", "output": "-rw-r--r-- 1 root root 6 /app/x"}
    held_asked = {"tool": "submit", "error": "not submitted yet: look at your result first"}
    final = {"tool": "submit", "argument": "done", "output": "done"}
    cases = {"a": (10.0, True, [{"tool": "bash"}, held_shown, {"tool": "bash"}, final]),
             "b": (10.0, False, [{"tool": "bash"}, final]),
             "c": (0.0, True, [{"tool": "bash"}, held_asked, final]), "d": (1.0, False, [{"tool": "bash"}])}
    for task, (score, tests, steps) in cases.items():
        (run / "estimates" / f"{task}.json").write_text(json.dumps({"task": task, "score": score,
                                                                    "tests_passed": tests}))
        (run / "trajectories" / f"{task}.json").write_text(json.dumps({"steps": steps}))
    rows = export(run)
    assert [(r["task"], r["held"], r["shown"]) for r in rows] == [
        ("a", True, True), ("b", False, False), ("c", True, False), ("d", False, False)]
    base = [{"kind": "attempt", "cycle": 1, "attempt": 0, "task": "a", "score": 10.0, "tests": True},
            {"kind": "attempt", "cycle": 1, "attempt": 0, "task": "b", "score": 10.0, "tests": False},
            {"kind": "attempt", "cycle": 1, "attempt": 0, "task": "c", "score": 10.0, "tests": False},
            {"kind": "attempt", "cycle": 1, "attempt": 1, "task": "d", "score": 10.0, "tests": True},  # explore's
            {"kind": "distilled", "task": "a"}]
    out = summary(rows, base)
    assert out["tasks"] == 3 and out["held"] == 2 and out["shown_files"] == 1  # d: no batch attempt of it
    assert (out["shown"]["tp"], out["shown"]["fp"], out["shown"]["fn"]) == (1, 1, 1)
    assert (out["baseline"]["tp"], out["baseline"]["fp"], out["baseline"]["fn"]) == (1, 2, 0)
    assert out["tests_changed"] == ["c"] and out["verdict_changed"] == ["c"]
    assert out["wrong_passes"] == {"shown": ["b"], "baseline": ["b", "c"]}
    assert main(["--export", str(tmp_path / "nothing"), "--out", str(tmp_path / "r.jsonl")]) == 2


def test_a_tag_rewritten_with_its_lessons_differs_only_by_its_rules(tmp_path, capsys):
    """tag_workspace.py --lessons: run 27's evo-1 (made without lessons) rewritten with them off is
    the record's workspace to the byte; with them on, its skills gain only `Rule: ` lines, the
    entries and frontmatter unchanged, and the hash printed is not the record's."""
    from tag_workspace import main

    from adaptive_skill.evolve.distill import read_entries
    from adaptive_skill.evolve.lessons import PREFIX

    record = BENCH / "results" / "curve-27"
    assert main([str(record), "--tag", "evo-1", "--out", str(tmp_path / "off"), "--lessons", "off"]) == 0
    assert "87f7056a97bcc11f (the record's)" in capsys.readouterr().out.splitlines()[-1]
    assert main([str(record), "--tag", "evo-1", "--out", str(tmp_path / "on"), "--lessons", "on"]) == 0
    assert "(not the record's)" in capsys.readouterr().out.splitlines()[-1]
    added = 0
    for path in sorted((tmp_path / "off" / "skills").glob("*/SKILL.md")):
        on = tmp_path / "on" / path.relative_to(tmp_path / "off")
        before, after = path.read_text().splitlines(), on.read_text().splitlines()
        assert [line for line in after if not line.startswith(PREFIX)] == before, path
        added += sum(1 for line in after if line.startswith(PREFIX))
        assert read_entries(on) == read_entries(path)
    assert added == 3  # git and write-to-file in the shared skill, write-to-file for text-processing


def test_a_distill_record_run_again_gives_the_gates_candidate_and_a_changed_one_is_refused(tmp_path):
    """distill_workspace.py: the distilling evolver run again on the entries of runs 25's and 27's
    distill records writes the workspace their gates judged, to the byte (the round cache's hash); a
    record whose written skills no longer follow from its entries, that names a task the suite does
    not have, or run with another evolver, is one line, exit 2, and leaves no directory behind."""
    import shutil

    from distill_workspace import main, rebuild

    from adaptive_skill.errors import UserError

    records, config = BENCH / "results", REPO / "configs" / "curve-split2-labelfree.yaml"
    for name, sets, want in (("curve-25", [], "7e8f4ac770c446af"), ("curve-27", ["seed=3"], "87f7056a97bcc11f"),
                              ("curve-29", [], "8333034333cdb69a")):  # the candidate docs/results.md measures
        assert rebuild(records / name, config, tmp_path / name, sets).startswith(want)
    copy = tmp_path / "tampered"
    copy.mkdir()
    record = json.loads((records / "curve-29" / "distill.json").read_text())
    record["written"]["archives-worked-commands"].append("rename-draft-file")
    (copy / "distill.json").write_text(json.dumps(record))
    done = subprocess.run([sys.executable, str(BENCH / "distill_workspace.py"), str(copy), "--config", str(config),
                           "--out", str(tmp_path / "a")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "'written' differs" in done.stderr, done.stderr
    assert not (tmp_path / "a").exists()
    record = json.loads((records / "curve-29" / "distill.json").read_text())
    record["passed"][0]["task"] = "../../etc"
    (copy / "distill.json").write_text(json.dumps(record))
    assert main([str(copy), "--config", str(config), "--out", str(tmp_path / "b")]) == 2
    assert main([str(records / "curve-29"), "--config", str(config), "--set", "evolver.mode=single",
                 "--out", str(tmp_path / "c")]) == 2
    assert not (tmp_path / "b").exists() and not (tmp_path / "c").exists()
    shutil.rmtree(copy)
    # a seed workspace holding a link is refused by the engine's own copy, not followed out of it
    seed = tmp_path / "seed"
    shutil.copytree(REPO / "workspace", seed)
    (seed / "skills" / "elsewhere").symlink_to("/etc")
    with pytest.raises(UserError, match="symlinks are not allowed"):
        rebuild(records / "curve-29", config, tmp_path / "d", seed=seed)
    assert not (tmp_path / "d").exists()

"""adaptive-skill curve without Docker: the statistics on known inputs, the summary and the outputs of a
small hand-written curve against what benchmarks/evolution/run.py wrote before the work moved into the
package (tests/fixtures/curve: results.json from its summarise, results.md from its report, as of
dcf99ee, from the state below), the page, the shipped config against run.py's flags, and the command's
refusals (one line, exit 2).

The scripted run end to end and its resume: test_curve_docker.py; the page in a browser:
test_curve_browser.py."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from adaptive_skill.curve import describe, identity, render, summarise
from adaptive_skill.curve.provenance import cpu_model
from adaptive_skill.curve.stats import headroom_share, paired_difference, pass_rate, task_means
from adaptive_skill.errors import UserError

REPO = Path(__file__).resolve().parents[1]
FIXTURE = REPO / "tests" / "fixtures" / "curve"
BENCH = REPO / "benchmarks" / "evolution"
RUN_24 = ["--evolver", "distill", "--explore", "2", "--explore-reflect", "--batch-size", "40", "--labels", "--seed", "2"]
RUN_25 = ["--evolver", "distill", "--explore", "2", "--explore-reflect", "--explore-agree", "--batch-size", "40",
          "--seed", "2", "--no-expert"]

TASKS = ["count-log-lines", "git-branch-feature", "json-count-status", "make-backup-dir", "sqlite-insert-row",
         "zip-two-files"]
SEED = dict(zip(TASKS, [[1.0, 0.0], [0.0, 0.0], [0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [0.0, 0.0]], strict=True))
EVO = dict(zip(TASKS, [[1.0, 1.0], [1.0, 0.0], [0.0, 0.0], [1.0, 1.0], [1.0, 1.0], [0.0, None]], strict=True))
EXPERT = dict(zip(TASKS, [[1.0, 1.0], [1.0, 1.0], [1.0, 0.0], [1.0, 1.0], [1.0, 1.0], [0.0, 1.0]], strict=True))
SKILL = ("---\nname: worked-commands\ndescription: Use for <files> & logs.\n---\n## Steps\n1. `wc -l < app.log`\n"
         "## Verification\n- cat it\n")


def _cli(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "adaptive_skill", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=120)


def _bench():
    sys.path.insert(0, str(BENCH))
    import run as bench

    return bench


# -- the statistics -------------------------------------------------------------------------------

def test_task_means_average_repeats_and_drop_unscored():
    assert task_means({"a": [1.0, 0.0], "b": [None, 1.0], "c": [None, None]}) == {"a": 0.5, "b": 1.0}


def test_pass_rate_mean_and_degenerate_interval():
    rate = pass_rate({"a": [1.0, 1.0], "b": [0.0, 1.0], "c": [0.0, 0.0], "d": [1.0, 0.0]})
    assert rate.mean == pytest.approx(0.5) and rate.n == 4
    assert 0.0 <= rate.low < 0.5 < rate.high <= 1.0
    constant = pass_rate({"a": [1.0], "b": [1.0]})
    assert (constant.mean, constant.low, constant.high) == (1.0, 1.0, 1.0)
    assert pass_rate({"a": [None]}).mean is None


def test_bootstrap_is_seeded():
    scores = {f"t{i}": [float(i % 3 == 0), float(i % 2 == 0)] for i in range(12)}
    assert pass_rate(scores, seed=3) == pass_rate(scores, seed=3)
    assert pass_rate(scores, seed=3).low != pass_rate(scores, seed=4).low or \
        pass_rate(scores, seed=3).high != pass_rate(scores, seed=4).high


def test_paired_difference_uses_task_pairs():
    # Every task gains exactly 0.5: paired, the interval is a point; unpaired it would be wide.
    base = {f"t{i}": [0.0 if i % 2 else 0.5] for i in range(10)}
    better = {t: [v[0] + 0.5] for t, v in base.items()}
    diff = paired_difference(better, base)
    assert (diff.mean, diff.low, diff.high) == (0.5, 0.5, 0.5)
    # Only tasks both sides scored count.
    partial = paired_difference({"a": [1.0], "b": [1.0]}, {"a": [0.0], "b": [None]})
    assert partial.mean == 1.0 and partial.n == 1


def test_headroom_share_known_values():
    seed = {"a": [0.0], "b": [0.0], "c": [1.0], "d": [0.0]}
    expert = {"a": [1.0], "b": [1.0], "c": [1.0], "d": [0.0]}
    same_as_expert = headroom_share(expert, seed, expert)
    assert same_as_expert["share"] == 1.0 and same_as_expert["headroom"] == 0.5
    assert same_as_expert["low"] == 1.0 and same_as_expert["high"] == 1.0
    half = headroom_share({"a": [1.0], "b": [0.0], "c": [1.0], "d": [0.0]}, seed, expert)
    assert half["share"] == 0.5
    assert 0.0 <= half["low"] <= 0.5 <= half["high"] <= 1.0
    assert half["undefined_resamples"] > 0  # resamples without a (a, b) task have no headroom
    assert headroom_share(seed, seed, expert)["share"] == 0.0
    assert headroom_share({"a": [0.0], "b": [0.0], "c": [0.0], "d": [0.0]}, seed, expert)["share"] == -0.5


def test_headroom_share_without_headroom_has_no_point_estimate():
    same = {"a": [1.0], "b": [0.0]}
    out = headroom_share({"a": [1.0], "b": [1.0]}, same, same)
    assert out["share"] is None and out["headroom"] == 0.0
    assert out["low"] is None and out["undefined_resamples"] == out["resamples"]
    worse_expert = headroom_share({"a": [1.0], "b": [0.0]}, {"a": [1.0], "b": [0.0]}, {"a": [0.0], "b": [0.0]})
    assert worse_expert["share"] is None and worse_expert["headroom"] == -0.5


# -- the summary and the outputs, against what run.py wrote ----------------------------------------

def _hand_written_run(root: Path):
    """The parts of a finished curve, a cycle's files and a cost journal, and an engine that knows the
    holdout and the tag: the inputs tests/fixtures/curve/results.json was written from."""
    from adaptive_skill.engine.records import GateResult

    run_dir = root / "runs" / "evolve"
    state = {"parts": {"seed": {"done": True, "scores": SEED, "windows": [[100.0, 160.5]]},
                       "evolve": {"done": True, "status": "max_cycles", "accepted": ["evo-1"],
                                  "windows": [[160.5, 400.0]]},
                       "tag:evo-1": {"done": True, "scores": EVO, "windows": [[400.0, 401.0]]},
                       "expert": {"done": True, "scores": EXPERT, "windows": [[401.0, 470.0]]},
                       "workspace:/half/done": {"windows": [[470.0, 480.0]]}}}  # interrupted: left out
    (run_dir / "cycles" / "001").mkdir(parents=True)
    gate = GateResult(accepted=True, reason="LLR +3.1 after 2 round(s)", gated=True, rounds=2, rollouts=24,
                      mutated_mean=0.625, baseline_mean=0.333,
                      per_task=[{"task": t, "difference": d} for t, d in zip(TASKS, [0.5, 0.5, 0, 0, 0.5, 0],
                                                                               strict=True)]).to_dict()
    files = {"evolve.json": {"summary": "distilled 1 skill", "candidate": "abc123",
                             "changes": {"added": ["skills/worked-commands/SKILL.md"]}},
             "gate.json": gate, "commit.json": {"tag": "evo-1"}}
    for name, data in files.items():
        (run_dir / "cycles" / "001" / name).write_text(json.dumps(data))
    (run_dir / "costs.jsonl").write_text("".join(json.dumps(
        {"v": 1, "status": "ok", "model": "local/qwen2.5-coder-1.5b", "session": "s", "cost": 0.0, "ts": ts,
         "role": "agent", "prompt_tokens": p, "completion_tokens": c}) + "\n"
        for ts, p, c in [(120.0, 900, 40), (200.0, 800, 30), (420.0, 1200, 50)]))

    class Repo:
        def tag_info(self, tag):
            return type("Tag", (), {"metrics": {"cycle": 1}})()

        def read_file(self, commit, path):
            return SKILL

    holdout = [type("Task", (), {"id": t, "family": None})() for t in TASKS]
    return state, run_dir, type("Engine", (), {"suite": [], "train": [], "holdout": holdout, "repo": Repo()})()


def test_the_summary_is_the_one_run_py_wrote(tmp_path):
    """The same parts give, key for key and number for number, the results.json run.py's summarise
    wrote: the schema its readers rely on, every interval and share, the costs per part's windows."""
    bench = _bench()
    state, run_dir, engine = _hand_written_run(tmp_path)
    s = bench.settings(bench.parse_args(["--out", str(tmp_path), "--seed", "2", "--evolver", "distill", "--labels"]))
    results = summarise(state, run_dir, engine, s)
    results["run"] = "/somewhere/curve-old/runs/evolve"
    results["settings"]["suite"] = "/somewhere/benchmarks/terminal-easy"
    expected = json.loads((FIXTURE / "results.json").read_text())
    assert results.pop("twins") is None  # no family declared: nothing to tell apart (added after run.py)
    assert json.loads(json.dumps(results)) == expected
    assert results["curve"][1]["vs_seed"]["mean"] == 0.25 and results["seed"]["wall_sec"] == 60.5
    # the script's own wrapper adds the expert's split: no holdout task here is among its train tasks
    assert bench.summarise(state, run_dir, engine, s)["expert_unseen"] is None


def test_render_writes_the_table_run_py_wrote_and_the_page(tmp_path):
    """`--render`'s work on a results.json written by the old run.py: results.md byte for byte its
    report's, and curve.html with both charts, the table and the task matrix."""
    results = json.loads((FIXTURE / "results.json").read_text())
    render(results, tmp_path)
    assert (tmp_path / "results.md").read_text() == (FIXTURE / "results.md").read_text()
    page = (tmp_path / "curve.html").read_text()
    assert page.count("<svg") == 2 and page.count('<g class="estimate">') == 3 + 2  # 3 rates, 2 differences
    matrix = page[page.index('<section id="matrix">'):page.index('<section id="cycles">')]
    cells = re.findall(r'<td class="cell"[^>]*>([^<]*)</td>', matrix)
    assert cells == ["1/2", "2/2", "2/2", "0/2", "1/2", "2/2", "0/2", "0/2", "1/2", "2/2", "2/2", "2/2",
                     "1/2", "2/2", "2/2", "0/2", "0/1", "1/2"]  # task by task: seed, evo-1, expert
    assert "58% [25%, 92%]" in page and "0.50 [0.17, 0.83]" in page and "accepted as evo-1" in page
    # the skill's text is escaped, never markup; nothing is fetched from anywhere
    assert "Use for &lt;files&gt; &amp; logs." in page and "<files>" not in page
    assert not re.search(r"<script|<link|<img|src=|@import|url\(", page)
    assert "default-src 'none'" in page


def test_the_page_of_a_curve_without_expert_or_evolve_run(tmp_path):
    results = json.loads((FIXTURE / "results.json").read_text())
    seed = results["seed"]
    tagless = {**results, "expert": None, "curve": [seed], "cycles": [], "evolve": None, "expert_unseen": None,
               "workspaces": [{**results["curve"][1], "label": "evolved-workspace", "cycle": None,
                               "path": "/x/evolved-workspace"}]}
    render(tagless, tmp_path)
    page = (tmp_path / "curve.html").read_text()
    assert page.count('<g class="estimate">') == 2 + 1 and "No evolve run" in page
    assert "<td>expert</td>" not in page and "/x/evolved-workspace" in page
    assert "no evolve run (curve.evolve: false; run.py --no-evolve)." in (tmp_path / "results.md").read_text()


# -- the shipped config is run.py's run 24 ---------------------------------------------------------

def test_the_shipped_config_is_run_24s_flags(tmp_path):
    """configs/curve-split2.yaml and run.py's flags of run 24 give the same EvolveConfig (but where the
    run directory sits, which the curve puts under its --out), and the same settings in results.json:
    the two cannot drift apart."""
    from adaptive_skill.config import load_config

    bench = _bench()
    s = bench.settings(bench.parse_args(["--out", str(tmp_path), *RUN_24]))
    built = bench.build_config(s, tmp_path).model_dump(mode="json")
    loaded = load_config(REPO / "configs" / "curve-split2.yaml").model_dump(mode="json")
    assert built["paths"].pop("runs_dir") == str(tmp_path / "runs")
    loaded["paths"].pop("runs_dir")
    assert loaded == built
    assert describe(load_config(REPO / "configs" / "curve-split2.yaml")) == s
    # and a flag that changes the run changes the config: the comparison is not vacuous
    other = bench.build_config(bench.settings(bench.parse_args(["--out", str(tmp_path), *RUN_24, "--repeats", "3"])),
                               tmp_path).model_dump(mode="json")
    other["paths"].pop("runs_dir")
    assert other != loaded and other["curve"]["repeats"] == 3


def test_the_label_free_config_is_run_25s_flags(tmp_path):
    """configs/curve-split2-labelfree.yaml and run.py's flags of run 25 (label-free, no expert) give
    the same EvolveConfig but where the run directory sits, and the same settings."""
    from adaptive_skill.config import load_config

    bench = _bench()
    args = bench.parse_args(["--out", str(tmp_path), *RUN_25])
    s = bench.settings(args)
    built = bench.Bench(tmp_path, s, bench.chosen_parts(args)).config.model_dump(mode="json")
    loaded = load_config(REPO / "configs" / "curve-split2-labelfree.yaml").model_dump(mode="json")
    built["paths"].pop("runs_dir")
    loaded["paths"].pop("runs_dir")
    built["curve"]["expert_written_from"] = None  # run.py names the expert's split; with no expert it is unread
    assert loaded == built
    assert loaded["trajectory_only"] and loaded["explore"]["agree"] and loaded["curve"]["expert"] is None
    assert describe(load_config(REPO / "configs" / "curve-split2-labelfree.yaml")) == s


def test_the_identity_leaves_out_only_the_parts_and_the_run_directory():
    from adaptive_skill.config import load_config

    config = load_config(REPO / "configs" / "curve-split2.yaml")
    parts = load_config(REPO / "configs" / "curve-split2.yaml",
                        ["curve.evolve=false", "curve.expert=null", "curve.workspaces=[workspace]", "paths.runs_dir=/x",
                         "curve.expert_written_from=null"])
    assert identity(config) == identity(parts)
    assert identity(config) != identity(load_config(REPO / "configs" / "curve-split2.yaml", ["gating.temperature=0.5"]))


# -- the command's refusals ------------------------------------------------------------------------

def _scripted_config(tmp_path: Path, **curve) -> Path:
    from taskfactory import scripted_engine_config

    path = scripted_engine_config(tmp_path, {"agent": []}, curve=curve)
    return path


def test_bad_input_is_one_line_and_exit_2(tmp_path):
    missing = _cli("curve", "--config", str(tmp_path / "nope.yaml"), "--out", str(tmp_path / "out"))
    assert missing.returncode == 2 and missing.stderr == f"error: {tmp_path / 'nope.yaml'}: no such config file\n"
    config = tmp_path / "bad.yaml"
    config.write_text("seed: 1\ncurve:\n  repeat: 3\n")
    bad_key = _cli("curve", "--config", str(config), "--out", str(tmp_path / "out"))
    assert bad_key.returncode == 2 and bad_key.stderr == f"error: {config}:3: curve.repeat: unknown key\n"
    config.write_text("curve:\n  repeats: 0\n")
    zero = _cli("curve", "--config", str(config), "--out", str(tmp_path / "out"))
    assert zero.returncode == 2 and zero.stderr.count("\n") == 1 and "curve.repeats" in zero.stderr
    no_out = _cli("curve", "--config", str(config))
    assert no_out.returncode == 2 and no_out.stderr.count("\n") == 1 and "--out DIR" in no_out.stderr
    nothing = _cli("curve")
    assert nothing.returncode == 2 and nothing.stderr.count("\n") == 1
    no_results = _cli("curve", "--render", str(tmp_path))
    assert no_results.returncode == 2 and f"{tmp_path / 'results.json'}: no such file" in no_results.stderr
    (tmp_path / "results.json").write_text('{"settings": {}}')
    not_curve = _cli("curve", "--render", str(tmp_path))
    assert not_curve.returncode == 2 and "not a curve's results.json" in not_curve.stderr
    both = _cli("curve", "--render", str(tmp_path), "--config", str(config))
    assert both.returncode == 2 and "takes no --config" in both.stderr
    for result in (missing, bad_key, zero, no_out, nothing, no_results, not_curve, both):
        assert "Traceback" not in result.stderr
    assert not (tmp_path / "out").exists()


def test_a_workspace_to_evaluate_must_be_one_and_models_known(tmp_path):
    config = _scripted_config(tmp_path, expert=str(tmp_path / "nope"))
    result = _cli("curve", "--config", str(config), "--out", str(tmp_path / "out"))
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert "nope: workspace directory does not exist" in result.stderr
    data = yaml.safe_load(config.read_text())
    data["curve"] = {}
    data["models"]["judge"] = {"model": "local/no-such-model"}
    config.write_text(yaml.safe_dump(data))
    unknown = _cli("curve", "--config", str(config), "--out", str(tmp_path / "out"))
    assert unknown.returncode == 2 and unknown.stderr.count("\n") == 1
    assert "models.judge.model local/no-such-model: not an embedded model" in unknown.stderr
    assert not (tmp_path / "out").exists()


def test_another_config_with_the_same_out_is_refused(tmp_path):
    """The directory's state.json names the config it was run with: another one is one line, exit 2,
    naming the keys that differ, and nothing starts; which parts run is not a setting."""
    from adaptive_skill.config import load_config

    config = _scripted_config(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    earlier = load_config(config, ["seed=7", "curve.evolve=false"])
    (out / "state.json").write_text(json.dumps({"settings": identity(earlier), "parts": {}}))
    refused = _cli("curve", "--config", str(config), "--out", str(out))
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1 and "Traceback" not in refused.stderr
    assert "this directory was run with other settings (config.seed); use another --out" in refused.stderr
    assert sorted(p.name for p in out.iterdir()) == ["state.json"]



def test_a_directory_of_an_older_version_resumes_when_only_a_defaulted_key_was_added(tmp_path):
    """A key the config gained since the directory was started (explore.judge, 2026-12-07) compares as
    its default: the directory resumes; a key whose value differs is still refused."""
    from adaptive_skill.config import load_config
    from adaptive_skill.curve import Bench

    config = load_config(_scripted_config(tmp_path))
    older = identity(config)
    del older["config"]["explore"]["judge"]  # as a version before the key recorded it
    out = tmp_path / "out"
    out.mkdir()
    (out / "state.json").write_text(json.dumps({"settings": older, "parts": {}}))
    Bench(out, config, identity(config))  # not refused
    older["config"]["seed"] = config.seed + 1
    (out / "state.json").write_text(json.dumps({"settings": older, "parts": {}}))
    with pytest.raises(UserError, match=r"other settings \(config.seed\)"):
        Bench(out, config, identity(config))

def test_render_rewrites_the_page_and_table_of_a_directory(tmp_path):
    (tmp_path / "results.json").write_text((FIXTURE / "results.json").read_text())
    result = _cli("curve", "--render", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(tmp_path / "curve.html")
    assert (tmp_path / "results.md").read_text() == (FIXTURE / "results.md").read_text()
    elsewhere = _cli("curve", "--render", str(tmp_path), "--out", str(tmp_path / "docs"))
    assert elsewhere.returncode == 0 and (tmp_path / "docs" / "curve.html").read_text() == \
        (tmp_path / "curve.html").read_text()


def test_the_gain_on_twin_holdout_tasks_is_told_apart_from_the_rest():
    """twin_rows: a holdout task whose family has a member in the train pool is a twin; the rows are
    paired with the seed on the twins and on the others separately."""
    from adaptive_skill.curve.summary import twin_rows

    def task(name, family=None):
        return type("Task", (), {"id": name, "family": family})()

    train = [task("greet-script", "hello"), task("count-lines")]
    holdout = [task("hello-script", "hello"), task("tar-list", "tar"), task("sum-column")]
    parts = {"seed": {"scores": {"hello-script": [0.0, 0.0], "tar-list": [1.0, 0.0], "sum-column": [0.0, 0.0]}},
             "tag:evo-1": {"scores": {"hello-script": [1.0, 1.0], "tar-list": [1.0, 0.0], "sum-column": [0.0, 1.0]}}}
    rows = twin_rows(parts, 0, train, holdout)
    assert rows["twins"] == {"hello-script": ["greet-script"]} and rows["others"] == ["sum-column", "tar-list"]
    tag = rows["rows"][1]
    assert tag["label"] == "evo-1" and tag["on_twins"]["vs_seed"]["mean"] == 1.0
    assert tag["on_others"]["vs_seed"]["mean"] == 0.25  # (0 + 0.5) / 2
    assert twin_rows(parts, 0, [task("count-lines")], holdout) is None


# -- fresh sampling seeds ---------------------------------------------------------------------------

def test_first_round_samples_each_repeat_with_a_later_gate_rounds_seed(tmp_path):
    """curve.first_round K: repeat r samples with gate round K + r's seed, kept in that round's own
    cache; results.json says the seeds are fresh when K reaches the gate's rounds, and results.md and
    the page say so; at 0 they say a tag's figures include the rounds that accepted it."""
    from adaptive_skill.config import load_config
    from adaptive_skill.curve import Bench
    from adaptive_skill.curve.markdown import markdown

    config = load_config(_scripted_config(tmp_path, first_round=2, repeats=2, evolve=False))
    asked = []

    class Held:
        scores = {t: 1.0 for t in TASKS}

    class Engine:
        holdout = [type("Task", (), {"id": t})() for t in TASKS]

        def holdout_rounds_dir(self, key):
            return tmp_path / "out" / "rounds" / key

        def evaluate_holdout(self, workspace, rounds_dir, label, round_index):
            asked.append(round_index)
            return Held()

    bench = Bench(tmp_path / "out", config, identity(config), log=lambda line: None)
    bench.engine = Engine()
    scores = bench.evaluate("(a) seed", REPO / "workspace")["scores"]
    assert asked == [2, 3] and scores == {t: [1.0, 1.0] for t in TASKS}
    state, run_dir, engine = _hand_written_run(tmp_path)
    s = {**_bench().settings(_bench().parse_args(["--out", str(tmp_path), "--seed", "2"])), "repeats": 2}
    fresh = summarise(state, run_dir, engine, s, rounds={"first": 2, "gate_rounds": 2})
    gated = summarise(state, run_dir, engine, s, rounds={"first": 0, "gate_rounds": 2})
    assert fresh["rounds"]["fresh"] and not gated["rounds"]["fresh"]
    assert "gate rounds 2-3: fresh seeds, on which no gate decided" in markdown(fresh)
    assert "include the rounds its gate accepted it on (curve.first_round 2" in markdown(gated)
    render(fresh, tmp_path / "page")
    assert "gate round 2 + r's seed: fresh seeds" in (tmp_path / "page" / "curve.html").read_text()
    assert "rounds" not in summarise(state, run_dir, engine, s)  # as run.py wrote it: no claim either way


# -- where a part ran -------------------------------------------------------------------------------

def test_each_part_records_the_code_machine_and_load_it_ran_beside(tmp_path):
    """Bench.part keeps, per session, the project's commit (and whether tracked files differed), the
    CPUs and memory, and the load average sampled while the work ran; results.json carries them per
    part and results.md shows them. An interrupted session is kept too; a record without them (before
    2026-12-03) renders as it did."""
    from adaptive_skill.config import load_config
    from adaptive_skill.curve import Bench
    from adaptive_skill.curve.markdown import markdown
    from adaptive_skill.curve.provenance import LoadSampler, code_version

    config = load_config(_scripted_config(tmp_path, evolve=False))
    bench = Bench(tmp_path / "out", config, identity(config), log=lambda line: None)
    bench.load_interval = 0.05
    (tmp_path / "out").mkdir()

    def slow():
        time.sleep(0.3)  # a few samples of the load while it works
        return {"scores": SEED}

    bench.part("seed", slow)
    one = bench.state["parts"]["seed"]["sessions"][0]
    assert one["code"] == code_version() and one["machine"]["cpus"] >= 1
    assert one["machine"]["cpu"] == cpu_model()  # the processor's name where /proc/cpuinfo gives one
    if (REPO / ".git").exists():  # a checkout (CI's clean clone): the commit itself, and a clean tree reads clean
        assert re.fullmatch(r"[0-9a-f]{40}", one["code"]["commit"]) and isinstance(one["code"]["dirty"], bool)
    # sampled on entry, at least once while the work ran (every 0.05 s for 0.3 s) and on exit
    assert one["load"]["samples"] >= 3 and isinstance(one["load"]["mean"], float)
    assert one["start"] <= one["end"] and one["start"].endswith("Z")

    def broken():
        raise RuntimeError("killed")

    with pytest.raises(RuntimeError):
        bench.part("expert", broken)
    assert len(bench.state["parts"]["expert"]["sessions"]) == 1  # an interrupted session still counts
    saved = json.loads((tmp_path / "out" / "state.json").read_text())
    assert saved["parts"]["seed"]["sessions"] == [one]

    state, run_dir, engine = _hand_written_run(tmp_path)
    state["parts"]["seed"]["sessions"] = [one]
    s = _bench().settings(_bench().parse_args(["--out", str(tmp_path), "--seed", "2"]))
    results = summarise(state, run_dir, engine, s)
    assert results["provenance"] == {"seed": [one]}
    table = markdown(results)
    assert f"| seed | {one['start']} - {one['end']} |" in table and f"{one['load']['mean']} / " in table
    old = json.loads((FIXTURE / "results.json").read_text())
    assert "Where each part ran" not in markdown(old)
    render(results, tmp_path / "page")
    page = (tmp_path / "page" / "curve.html").read_text()
    assert '<section id="provenance">' in page and f"{one['load']['mean']} / {one['load']['max']}" in page
    # outside a git checkout the commit is unknown, not a guess; the sampler reads this machine's load
    assert code_version(tmp_path) == {"commit": None, "dirty": None}
    with LoadSampler(0.01) as sampler:
        time.sleep(0.05)
    assert sampler.summary()["samples"] >= 2 and sampler.summary()["mean"] == pytest.approx(
        sum(sampler.samples) / len(sampler.samples), abs=0.01)


def test_a_stop_during_an_evaluation_is_one_line_and_the_part_resumes(tmp_path):
    """A Stop (a signal, the STOP file, a budget) between the attempts of a workspace's evaluation
    ends the curve with a one-line error; the part is not recorded as done, its session's time is."""
    from adaptive_skill.config import load_config
    from adaptive_skill.curve import Bench
    from adaptive_skill.engine.stopping import Stop

    config = load_config(_scripted_config(tmp_path))
    bench = Bench(tmp_path / "out", config, identity(config), log=lambda line: None)
    (tmp_path / "out").mkdir()

    def stopped():
        raise Stop("stopped")

    with pytest.raises(UserError, match=r"^seed: stopped \(stopped\); run the same command again to resume$"):
        bench.part("seed", stopped)
    record = json.loads((tmp_path / "out" / "state.json").read_text())["parts"]["seed"]
    assert "done" not in record and len(record["sessions"]) == 1


def test_the_gate_per_skill_is_in_the_curves_record_and_table(tmp_path):
    """A cycle decided per skill: results.json keeps each skill's decision and what the pruned library
    places untried, and results.md shows them as a table and a line."""
    from adaptive_skill.curve.markdown import markdown
    from adaptive_skill.curve.summary import cycle_evidence
    from adaptive_skill.engine.records import GateResult

    state, run_dir, engine = _hand_written_run(tmp_path)
    cycle = run_dir / "cycles" / "001"
    stat = {"llr": 3.4, "delta": 0.75, "se": 0.1, "tasks": 4, "pairs": 8, "identical": False}
    gate = GateResult(accepted=True, reason="per skill: kept a-recipe; dropped b-recipe", gated=True, rounds=2,
                      rollouts=24, skills=[
                          {"skill": "a-recipe", "tasks": ["t1", "t2", "t3", "t4"], "verdict": "keep",
                           "reason": "LLR +3.4", "statistic": stat},
                          {"skill": "b-recipe", "tasks": ["t5"], "verdict": "drop",
                           "reason": "placed for 1 holdout task(s): too few | to judge", "statistic": None}],
                      kept_skills=["a-recipe"], dropped_skills=["b-recipe"]).to_dict()
    (cycle / "gate.json").write_text(json.dumps(gate))
    (cycle / "commit.json").write_text(json.dumps({"tag": "evo-1", "commit": "c", "rolled_back": False,
                                                   "untried_placements": {"t5": "a-recipe"}}))
    [row] = cycle_evidence(run_dir, engine)
    assert row["skill_decisions"] == [
        {"skill": "a-recipe", "tasks": 4, "delta": 0.75, "verdict": "keep", "reason": "LLR +3.4"},
        {"skill": "b-recipe", "tasks": 1, "delta": None, "verdict": "drop",
         "reason": "placed for 1 holdout task(s): too few | to judge"}]
    assert row["untried_placements"] == {"t5": "a-recipe"} and row["skills_dropped"] == ["b-recipe"]
    results = json.loads((FIXTURE / "results.json").read_text())
    text = markdown({**results, "cycles": [row]})
    assert "| a-recipe | 4 | +75.0 pts | keep | LLR +3.4 |" in text
    assert "| b-recipe | 1 |  | drop | placed for 1 holdout task(s): too few / to judge |" in text
    assert "where no gate round ran that skill: t5 -> a-recipe." in text
    (cycle / "commit.json").write_text(json.dumps({"tag": "evo-1", "commit": "c", "rolled_back": False,
                                                   "untried_placements": {}}))
    [row] = cycle_evidence(run_dir, engine)
    assert "was placed there by a gate round with that text" in markdown({**results, "cycles": [row]})
    # a gate.json of odd types (the run's files are read back from disk) gives rows, not a crash
    gate["skills"] = [{"skill": "x|y", "tasks": 5, "verdict": ["keep"], "statistic": {"delta": "NaN"}}, "junk"]
    (cycle / "gate.json").write_text(json.dumps(gate))
    [row] = cycle_evidence(run_dir, engine)
    assert row["skill_decisions"] == [{"skill": "x|y", "tasks": 0, "delta": None, "verdict": "['keep']",
                                       "reason": ""}]
    assert "| x/y | 0 |  | ['keep'] |  |" in markdown({**results, "cycles": [row]})
    # gating.skill_max_rounds: the skills' own rounds are counted beside the whole ones; junk is no crash
    gate["skill_round_scores"] = [{"t1": [0, 1], "t2": [0, 0]}]
    (cycle / "gate.json").write_text(json.dumps(gate))
    [row] = cycle_evidence(run_dir, engine)
    assert row["skill_rounds"] == 1
    assert "| 2 (+1 of the skills' own) / 24 |" in markdown({**results, "cycles": [row]})
    gate["skill_round_scores"] = 7
    (cycle / "gate.json").write_text(json.dumps(gate))
    [row] = cycle_evidence(run_dir, engine)
    assert "skill_rounds" not in row and "| 2 / 24 |" in markdown({**results, "cycles": [row]})


def test_the_processor_is_named_in_the_record_and_the_table(tmp_path):
    """Two 2-core VMs ran the 1.5B 2-3x apart: each session says which processor it ran on."""
    from adaptive_skill.curve.markdown import provenance

    info = tmp_path / "cpuinfo"
    info.write_text("processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC  7B13 |x\n\n"
                    "processor\t: 1\nmodel name\t: AMD EPYC 7B13\n")
    assert cpu_model(info) == "AMD EPYC 7B13 |x"
    assert cpu_model(tmp_path / "absent") is None
    (tmp_path / "arm").write_text("processor\t: 0\nBogoMIPS\t: 50.00\n")
    assert cpu_model(tmp_path / "arm") is None
    lines = provenance({"provenance": {"seed": [{"start": "a", "end": "b", "code": {"commit": "c" * 40},
                                                 "machine": {"cpus": 2, "memory_gb": 23.5, "cpu": "AMD EPYC |x"},
                                                 "load": {"mean": 1.9, "max": 2.3}}]}})
    assert lines[-1] == "| seed | a - b | cccccccccccc | 2 CPUs, 23.5 GB, AMD EPYC /x | 1.9 / 2.3 |"

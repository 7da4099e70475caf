"""The spiral monitor's detection quality on the labelled corpus (tests/fixtures/spiral-corpus/).

    .venv/bin/python benchmarks/perf/bench_spiral_corpus.py [--runs] [--json out.json] [--set key=value ...]

Replays every run through `scan` (what `adaptive-skill spiral scan` does) with the lexical
embedder and prints precision, recall, F1, loops caught in time, early flags (before the loop
starts), late flags (after the deadline), misses, healthy runs flagged and escalated: overall and
per detector (a detector's own first detection, whatever the risk). `--set` overrides spiral
settings (e.g. `--set threshold=2`) to see how the figures move. Deterministic: no repeats needed.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path

import yaml

from adaptive_skill.config import SpiralConfig

CORPUS = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "spiral-corpus"


def _score_module():
    spec = importlib.util.spec_from_file_location("spiral_corpus_score", CORPUS / "score.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _settings(pairs: list[str]) -> dict:
    settings: dict = {}
    for pair in pairs:
        key, _, value = pair.partition("=")
        node = settings
        *parents, leaf = key.split(".")
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = yaml.safe_load(value)
    return settings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--runs", action="store_true", help="also print each run's outcome")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args()
    score = _score_module()
    overall, per_detector, reports = score.score(SpiralConfig.model_validate(_settings(args.set)))
    rows = {"monitor": overall.figures(), **{d: t.figures() for d, t in sorted(per_detector.items())}}
    header = (f"{'':22} {'P':>6} {'R':>6} {'F1':>6} {'caught':>6} {'early':>5} {'late':>4} {'missed':>6} "
              f"{'false':>5} {'esc':>3}")
    print(f"{len(reports)} runs, {overall.loops} loops")
    print(header)
    for name, f in rows.items():
        print(f"{name:22} {f['precision']:6.3f} {f['recall']:6.3f} {f['f1']:6.3f} {f['caught']:6d} {f['early']:5d} "
              f"{f['late']:4d} {f['missed']:6d} {f['false_alarms']:5d} {f['escalated']:3d}")
    kinds = score.per_kind(reports)
    print(f"\n{'kind':22} {'runs':>4} {'loops':>5} {'P':>6} {'R':>6} {'F1':>6} {'caught':>6} {'late':>4} {'missed':>6} "
          f"{'false':>5}")
    for kind, t in sorted(kinds.items()):
        f = t.figures()
        print(f"{kind:22} {len(t.runs):4d} {f['loops']:5d} {f['precision']:6.3f} {f['recall']:6.3f} {f['f1']:6.3f} "
              f"{f['caught']:6d} {f['late']:4d} {f['missed']:6d} {f['false_alarms'] + f['early']:5d}")
    if args.runs:
        for run, outcome in overall.runs.items():
            label = reports[run]["label"]
            window = f"[{label['loop_start']}, {label['deadline']}]" if label["loop"] else "healthy"
            print(f"  {run:48} {outcome:16} {window:10} {reports[run]['detections']}")
    if args.json:
        args.json.write_text(json.dumps({"figures": rows, "kinds": {k: t.figures() for k, t in sorted(kinds.items())},
                                         "runs": overall.runs}, indent=1) + "\n")


if __name__ == "__main__":
    main()

"""Trajectory compression: raw vs compressed tokens on suite-like trajectories, and whether every
error line survives.

    .venv/bin/python benchmarks/perf/bench_compression.py [--budget 2000] [--json out.json]

The trajectories are real runs of the terminal agent (scripted model, LocalSandbox: commands run
on this machine in a temporary directory) through four scenarios shaped like terminal-core tasks:
repairing a C Makefile, debugging a Python package, processing a log, resolving a git merge. They
have what real runs have: large outputs (cut at 10,000 characters for the model), heredoc edits,
repeated commands, a timeout, tracebacks and compiler errors. Raw = the chat messages as the agent's
model saw them (with and without the system prompt). An error line is a line of a failing step's
full output that failures.ERROR_LINE matches (or the tool's error message). Prints figures; it is
not a timed test.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import warnings
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

MAIN_C = r'''#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include "calc.h"

int main(void) {
    char op;
    double a, b;
    while (scanf(" %c %lf %lf", &op, &a, &b) == 3) {
        switch (op) {
        case '+': printf("%g\n", add(a, b)); break;
        case '-': printf("%g\n", sub(a, b)); break;
        case 'r': printf("%g\n", root(a)); break;
        default: fprintf(stderr, "unknown op %c\n", op); return 1;
        }
    }
    return 0;
}'''
OPS_C = r'''#include <math.h>
#include "calc.h"

double add(double a, double b) { return a + b; }
double sub(double a, double b) { return a - b; }
double root(double a) { return sqrt(a); }'''
MAKEFILE = """CC = gcc
CFLAGS = -Wall -O2
LDLIBS =
SRC = $(wildcard src/*.c)
OBJ = $(patsubst src/%.c,build/%.o,$(SRC))

bin/calc: $(OBJ)
\tmkdir -p bin
\t$(CC) $(OBJ) -o $@ $(LDLIBS)

build/%.o: src/%.c
\tmkdir -p build
\t$(CC) $(CFLAGS) -c $< -o $@

test: bin/calc
\t./bin/calc < tests/cases.txt | diff - tests/expected.txt

clean:
\trm -rf build bin
.PHONY: test clean"""


def heredoc(path: str, body: str, then: str = "") -> str:
    return f"cat > {path} <<'EOF'\n{body}\nEOF" + (f"\n{then}" if then else "")


C_BUILD = [
    ("I will look at the project layout first.", "mkdir -p calc/src calc/inc calc/tests && cd calc && ls -la"),
    ("Write the sources as shipped.", heredoc("src/main.c", MAIN_C)),
    ("", heredoc("src/ops.c", OPS_C)),
    ("", heredoc("inc/calc.h", "double add(double, double);\ndouble sub(double, double);\ndouble root(double);")),
    ("", heredoc("Makefile", MAKEFILE)),
    ("", "printf '+ 1 2\\n- 5 3\\nr 16 0\\n' > tests/cases.txt && printf '3\\n2\\n4\\n' > tests/expected.txt"),
    ("Let me build it.", "make"),
    ("The header is not found. Let me read the Makefile.", "cat Makefile"),
    ("", "ls -R"),
    ("", "grep -rn include src/"),
    ("Move the header where the sources expect it.", "mkdir -p include && mv inc/calc.h include/ && make"),
    ("Add the include path.", "sed -i 's/^CFLAGS =.*/CFLAGS = -Wall -O2 -Iinclude/' Makefile && make"),
    ("Link error. Try again.", "make"),
    ("", "make"),
    ("", "make 2>&1 | tail -5"),
    ("sqrt needs libm.", "sed -i 's/^LDLIBS =.*/LDLIBS = -lm/' Makefile && make"),
    ("", "./bin/calc < tests/cases.txt"),
    ("", "make test; echo status=$?"),
    ("Check incremental builds.", "make -q; echo $?"),
    ("", "touch include/calc.h && make"),
    ("Read stdio.h to check scanf's declaration.", "cat /usr/include/stdio.h"),
    ("", "find /usr/include -name '*.h' | head -200"),
    ("", "gcc -v 2>&1 | tail -3"),
    ("", "make clean && ls"),
    ("", "make && make test && echo ALL GOOD"),
]

APP_INIT = "from .core import summarize\n"
APP_CORE = """import statistics
from .helpers import parse_line


def summarize(lines):
    values = [parse_line(line)["value"] for line in lines if line.strip()]
    return {"n": len(values), "mean": statistics.mean(values), "max": max(values)}
"""
APP_TEST = """import unittest
from app import summarize


class T(unittest.TestCase):
    def test_mean(self):
        self.assertEqual(summarize(["a=1", "b=3"])["mean"], 2)

    def test_max(self):
        self.assertEqual(summarize(["a=1", "b=3"])["max"], 3)

    def test_empty(self):
        self.assertEqual(summarize([])["n"], 0)


if __name__ == "__main__":
    unittest.main()
"""
HELPERS_BAD = """def parse_line(line):
    key, value = line.split(":")
    return {"key": key, "value": int(value)}
"""
HELPERS_GOOD = """def parse_line(line):
    key, value = line.replace(":", "=").split("=", 1)
    return {"key": key.strip(), "value": int(value)}
"""

PARSE_ONE = "python3 -c 'from app.helpers import parse_line; print(parse_line(\"a=1\"))'"

PY_DEBUG = [
    ("Set up and look around.", "mkdir -p proj/app && cd proj && ls"),
    ("", heredoc("app/__init__.py", APP_INIT)),
    ("", heredoc("app/core.py", APP_CORE)),
    ("", heredoc("test_app.py", APP_TEST)),
    ("Run the tests.", "python3 -m unittest -v"),
    ("helpers is missing.", "grep -rn helpers app/"),
    ("", heredoc("app/helpers.py", HELPERS_BAD, "python3 -m unittest -v")),
    ("The parser splits on ':' but lines use '='.", PARSE_ONE),
    ("", PARSE_ONE),
    ("", PARSE_ONE),
    ("", heredoc("app/helpers.py", HELPERS_GOOD, "python3 -m unittest -v")),
    ("Empty input breaks statistics.mean.", "sed -n 1,20p app/core.py"),
    ("", "python3 - <<'EOF'\nimport re\np = 'app/core.py'\ns = open(p).read()\ns = s.replace('    return {\"n\"', "
         "'    if not values:\\n        return {\"n\": 0, \"mean\": None, \"max\": None}\\n    return {\"n\"')\n"
         "open(p, 'w').write(s)\nEOF\npython3 -m unittest -v"),
    ("", "python3 -c 'import this'"),
    ("", "python3 -m pydoc statistics | head -150"),
    ("", "python3 -m unittest -v 2>&1 | tail -3"),
    ("", "git --version; python3 --version"),
]

LOG_PROC = [
    ("Generate the sample log the task describes.",
     "mkdir -p logs && cd logs && awk 'BEGIN{srand(7); for(i=0;i<4000;i++) "
     "printf \"10.0.%d.%d - - [21/Nov/2026:10:%02d:%02d] \\\"GET /api/v%d/items/%d HTTP/1.1\\\" %d %d\\n\", "
     "i%7, i%251, (i/60)%60, i%60, i%3, i%97, (i%13==0?500:(i%7==0?404:200)), 100+i%900}' > access.log "
     "&& wc -l access.log"),
    ("Look at the log.", "cat access.log"),
    ("", "head -5 access.log"),
    ("Count statuses.", "awk '{print $9' access.log | sort | uniq -c"),
    ("Syntax error, retry.", "awk '{print $9}' access.log | sort | uniq -c | sort -rn"),
    ("Top paths.", "awk '{print $7}' access.log | sort | uniq -c | sort -rn | head -20"),
    ("Follow new lines.", "tail -f access.log"),
    ("Now the report script.", heredoc("report.py", "import json, collections\ncounts = collections.Counter()\n"
                                       "for line in open('access.log'):\n    parts = line.split()\n"
                                       "    counts[parts[8]] += 1\n"
                                       "print(json.dumps({'errors': counts['500'] + counts['404'], "
                                       "'by_status': counts['missing']['x']}))", "python3 report.py")),
    ("", "python3 report.py"),
    ("", heredoc("report.py", "import json, collections\ncounts = collections.Counter()\n"
                 "for line in open('access.log'):\n    counts[line.split()[8]] += 1\n"
                 "json.dump({'errors': counts['500'] + counts['404'], 'by_status': dict(counts)}, "
                 "open('report.json', 'w'), indent=2)", "python3 report.py && cat report.json")),
    ("", "grep -c ' 500 ' access.log; grep -c ' 404 ' access.log"),
    ("", "sort -k1,1 access.log | awk '{print $1}' | uniq -c | sort -rn | head -50"),
    ("", "python3 -c \"import json; d = json.load(open('report.json')); print(d['errors'])\""),
    ("", "ls -la"),
]

GIT_MERGE = [
    ("Create the repository from the task.",
     "mkdir repo && cd repo && git init -q -b main && git config user.email a@b.c && git config user.name agent "
     "&& seq 1 60 > numbers.txt && git add . && git commit -qm base && git log --oneline"),
    ("", "git checkout -qb feature && sed -i 's/^30$/thirty/' numbers.txt && git commit -qam 'feature: words' && "
         "git checkout -q main && sed -i 's/^30$/XXX/' numbers.txt && git commit -qam 'main: mark'"),
    ("Merge the feature.", "git merge feature"),
    ("", "git status"),
    ("", "git diff"),
    ("", "git merge feature"),
    ("", "git merge --continue"),
    ("Resolve: keep the feature's word.", "python3 - <<'EOF'\nimport re\ns = open('numbers.txt').read()\n"
     "s = re.sub(r'<<<<<<< HEAD\\n.*?\\n=======\\n(.*?)\\n>>>>>>> feature\\n', r'\\1\\n', s, flags=re.S)\n"
     "open('numbers.txt', 'w').write(s)\nEOF\ngrep -n thirty numbers.txt"),
    ("", "git add numbers.txt && git commit -qm 'merge feature' && git log --oneline --graph --all"),
    ("", "git log -p"),
    ("", "git show HEAD~1:numbers.txt | sed -n 28,32p"),
    ("", "git push origin main"),
    ("", "git status --short && git branch -a"),
]

SCENARIOS = {"c-makefile-repair": C_BUILD, "python-debug": PY_DEBUG, "log-processing": LOG_PROC,
             "git-merge-conflict": GIT_MERGE}


def run_scenario(name: str, steps: list[tuple[str, str]], out: Path) -> dict:
    from adaptive_skill.agent.loop import AgentLimits, TerminalAgent
    from adaptive_skill.llm.scripted import ScriptedLLM
    from adaptive_skill.sandbox.local_sandbox import LocalSandbox
    from adaptive_skill.workspace import Workspace

    replies = [{"content": thought or None, "tool_calls": [{"name": "bash", "arguments": {"command": command}}],
                "usage": {"prompt_tokens": 1500, "completion_tokens": 60}} for thought, command in steps]
    replies.append({"content": "Done and checked.", "tool_calls": [{"name": "submit", "arguments": {
        "answer": f"{name}: finished, see the last commands"}}]})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sandbox = LocalSandbox()
    sandbox.start()
    try:
        agent = TerminalAgent(ScriptedLLM(replies), Workspace(REPO / "workspace"),
                              AgentLimits(max_steps=len(replies) + 1, command_timeout_sec=2))
        agent.run(name, f"Scenario {name}", sandbox, out / f"{name}.json")
    finally:
        sandbox.close()
    return json.loads((out / f"{name}.json").read_text())


def error_lines_kept(data: dict, text: str) -> tuple[int, int]:
    from adaptive_skill.trajectory import as_view, find_failures

    total = kept = 0
    for failure in find_failures(as_view(data).steps):
        for line in failure.lines:
            total += 1
            kept += line in text
    return kept, total


def as_sent(messages: list[dict]) -> str:
    """Every message as the agent's model saw it (system prompt and instruction included): the raw
    side of the comparison. compress's own raw_text leaves both out (it is what a reader is given
    besides the instruction), so it cannot serve here."""
    from adaptive_skill.trajectory import call_text, message_text

    parts = []
    for message in messages:
        parts.append(f"{message.get('role')}: {message_text(message.get('content'))}")
        parts += [f"call {name}: {argument}" for name, argument in map(call_text, message.get("tool_calls") or [])]
    return "\n".join(parts)


def measure(name: str, data: dict, budget: int, counter) -> dict:
    from adaptive_skill.observe import compress, extract_signals

    result = compress(data, budget, counter)
    raw = counter.count(as_sent(data["messages"]))
    kept, total = error_lines_kept(data, result.text)
    signals = extract_signals(data)
    return {"trajectory": name, "steps": len(data["steps"]), "errors": signals.n_errors,
            "timeouts": signals.n_timeouts, "raw_tokens": raw,
            "raw_tokens_no_system": counter.count(as_sent([m for m in data["messages"] if m["role"] != "system"])),
            "transcript_tokens": result.raw_tokens, "compressed_tokens": result.tokens,
            "ratio": round(result.tokens / raw, 3), "level": result.level,
            "error_lines_kept": kept, "error_lines": total, "errors_agree": result.n_errors == signals.n_errors}


def main() -> None:
    from adaptive_skill.observe import TokenCounter

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, action="append", help="token budget (repeatable; default 2000 and 1000)")
    parser.add_argument("--keep", metavar="DIR", help="keep the generated trajectories in DIR")
    parser.add_argument("--json", metavar="PATH")
    args = parser.parse_args()
    budgets = args.budget or [2000, 1000]
    counter = TokenCounter()

    with tempfile.TemporaryDirectory(prefix="bench-compression-") as scratch:
        out = Path(args.keep or scratch)
        out.mkdir(parents=True, exist_ok=True)
        trajectories = {name: run_scenario(name, steps, out) for name, steps in SCENARIOS.items()}
    rows = [{"budget": budget, **measure(name, data, budget, counter)}
            for budget in budgets for name, data in trajectories.items()]

    print(f"tokens counted with {counter.name}" + (f"; trajectories kept in {args.keep}" if args.keep else ""))
    print(f"{'trajectory':<20} {'budget':>6} {'steps':>5} {'err':>4} {'raw':>7} {'raw-sys':>7} {'compr':>6} "
          f"{'ratio':>6} {'level':<17} error lines kept")
    for row in rows:
        print(f"{row['trajectory']:<20} {row['budget']:>6} {row['steps']:>5} {row['errors']:>4} {row['raw_tokens']:>7} "
              f"{row['raw_tokens_no_system']:>7} {row['compressed_tokens']:>6} {row['ratio']:>6} {row['level']:<17} "
              f"{row['error_lines_kept']}/{row['error_lines']}")
    for budget in budgets:
        chosen = [r for r in rows if r["budget"] == budget]
        raw, compressed = sum(r["raw_tokens"] for r in chosen), sum(r["compressed_tokens"] for r in chosen)
        kept, total = sum(r["error_lines_kept"] for r in chosen), sum(r["error_lines"] for r in chosen)
        print(f"budget {budget}: {compressed} of {raw} raw tokens ({compressed / raw:.3f}); error lines kept "
              f"{kept}/{total}; error counts agree with the signals: {all(r['errors_agree'] for r in chosen)}")
    if args.json:
        Path(args.json).write_text(json.dumps({"counter": counter.name, "rows": rows}, indent=2))


if __name__ == "__main__":
    main()

"""What does a text-protocol model reply after its first observation? A probe for the worked example.

    python benchmarks/probes/next_reply.py TRAJECTORIES_DIR [--variants plain,question,demo] [--seeds 1,2]

Takes the first bash step of each saved attempt in TRAJECTORIES_DIR (an `adaptive-skill run --agent
llm --out DIR` writes DIR/trajectories), rebuilds the conversation up to that step's observation, and
asks the agent model (default the embedded Qwen2.5-Coder-0.5B at temperature 0.3, under the text
protocol's grammar) for the next reply once per seed. Only the text after the first command varies:

  plain     the observation as the agent sends it ("Observation (bash):\\n...\\n[exit code N]")
  question  the same, then "reply with your next command, not the output above"
  demo      the plain observation, with the protocol's worked example sent before the task (what the
            agent does now: agent/protocol.py, TEXT_PROTOCOL_DEMO)

A reply "copies" when its command holds a line of the observation. It prints one line per reply and a
count per variant; docs/llm.md ("The protocol's worked example") has the figures.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from adaptive_skill.agent.protocol import FormatProblem, parse_text, text_protocol_grammar, with_demo
from adaptive_skill.config import ModelConfig
from adaptive_skill.llm import Accounting
from adaptive_skill.llm.factory import make_llm


def observation(output: str, code: object, variant: str) -> str:
    text = f"Observation (bash):\n{output}\n[exit code {code}]"
    if variant == "question":
        text += ("\n\nThat was the output of your command. Reply with one sentence on what it shows, then your next "
                 "```bash command (not the output above), or ```submit when the task is done.")
    return text


def copies(command: str, output: str) -> bool:
    lines = [line.strip() for line in output.splitlines() if line.strip()][:20]
    return any(line in command or command.strip() in line for line in lines)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("trajectories", type=Path)
    p.add_argument("--variants", default="plain,question,demo")
    p.add_argument("--seeds", default="1,2")
    p.add_argument("--model", default="local/qwen2.5-coder-0.5b")
    p.add_argument("--temperature", type=float, default=0.3)
    args = p.parse_args()
    grammar = text_protocol_grammar(("bash", "read_skill", "submit"), max_tokens=256)
    counts: dict[str, list[int]] = {}
    for path in sorted(args.trajectories.glob("*.json")):
        saved = json.loads(path.read_text())
        steps, messages = saved.get("steps") or [], saved["messages"]
        if not steps or steps[0].get("tool") != "bash" or len(messages) < 3:
            continue
        output = (steps[0].get("output") or "").strip()
        for variant in args.variants.split(","):
            context = [messages[0], messages[1], messages[2],
                       {"role": "user", "content": observation(output, steps[0].get("exit_code"), variant)}]
            sent = with_demo(context) if variant == "demo" else context
            for seed in (int(s) for s in args.seeds.split(",")):
                llm = make_llm(ModelConfig(model=args.model, max_tokens=256, temperature=args.temperature, seed=seed),
                               Accounting(), "agent")
                reply = llm.complete(sent, grammar=grammar)
                try:
                    action = parse_text(reply.content)
                    tool, argument = action.tool, action.argument
                except FormatProblem as problem:
                    tool, argument = "malformed", str(problem)
                copied = tool == "bash" and copies(argument, output)
                counts.setdefault(variant, [0, 0])
                counts[variant][0] += copied
                counts[variant][1] += 1
                print(f"{variant:9} {saved['task_id']:28} seed {seed} {tool:10} {'COPY ' if copied else '     '}"
                      f"{argument[:90]!r}", flush=True)
    for variant, (copied, total) in counts.items():
        print(f"{variant}: {copied} of {total} next commands copy the observation")


if __name__ == "__main__":
    main()

"""What the evolver is told. The rules it reads here are also enforced in code (rules.py)."""

from __future__ import annotations

INDEX_CHARS = 3000  # how much of the observations' index the evolver's first message shows inline

EVOLVER_SYSTEM_TEMPLATE = """You improve the skill library of a terminal agent. You work in a Linux sandbox with bash.

/workspace is a copy of the agent's workspace: prompts/system.md (its system prompt, a jinja2
template), skills/<name>/SKILL.md (its skills), memory/*.jsonl (notes, one JSON object per line).
/observations holds what the agent did on its last batch of tasks (read-only): index.md first.
The observations contain no test results: judge scores are estimates from behaviour.

A SKILL.md looks like this:
---
name: kebab-case-name          (lower-case letters, digits, single hyphens; equal to its directory)
description: Use when ...      (what it is for and WHEN to use it; at most 1024 characters)
---
## Steps
1. ...
## Verification
- how to check that the result is right

{usage}

Write general, reusable knowledge (commands, pitfalls, checks), never the answer to one task.
Change files only under /workspace with bash (cat > file <<'EOF' ... EOF, sed, mkdir).
When you are done, call submit with a short summary of what you changed and why."""


def skill_usage(body_limit: int) -> str:
    """What the solving agent sees of a skill. Shared by the single and the team evolver."""
    from adaptive_skill.agent.skillfiles import MAX_SKILL_BYTES, MAX_SKILL_FILES, SKILLS_ROOT

    return f"""- Of each skill the system prompt shows only the name and description; the agent decides from the
  description whether to call read_skill, which returns the SKILL.md body (at most {body_limit} characters)
  and the list of the skill's files with their paths.
- Each valid skill's directory (SKILL.md, scripts/, references/) is copied read-only to
  {SKILLS_ROOT}/<name>/ in the task's container before the agent starts (at most {MAX_SKILL_FILES} files and
  {MAX_SKILL_BYTES} bytes per skill; symlinks are never copied). Scripts keep their executable bit; in SKILL.md
  refer to them by that path, e.g. `bash {SKILLS_ROOT}/<name>/scripts/check.sh`. The container usually has no
  network and only the task image's tools."""


def workspace_usage(*, memory_budget_tokens: int, body_limit: int) -> str:
    """What the solving agent sees of each part of the workspace, and when (docs/engine.md, "What the
    agent sees"), so the evolver knows what its writes are for."""
    from adaptive_skill.agent.skillfiles import SKILLS_ROOT

    return f"""How the agent uses what you write (at the start of each task attempt):
- prompts/system.md is rendered into its system prompt. Variables: skills (name, description, path),
  memory (entries: text, tags, source, created; left_out), skills_root ({SKILLS_ROOT}). If the template
  never uses `memory`, a default notes section is appended.
{skill_usage(body_limit)}
- memory/*.jsonl: one JSON object per line, {{"text": "...", "tags": [...], "source": "...", "created":
  "ISO 8601"}} (text required). The entries most relevant to the task's instruction (embedding similarity,
  newer first on ties) are put in the system prompt until {memory_budget_tokens} tokens are used; the rest
  is left out. Short, specific notes fit; a line that is not such an object is rejected."""


def evolver_system(*, memory_budget_tokens: int, body_limit: int) -> str:
    return EVOLVER_SYSTEM_TEMPLATE.replace("{usage}", workspace_usage(memory_budget_tokens=memory_budget_tokens,
                                                                      body_limit=body_limit))


def evolution_instruction(*, skills: list[str], max_skills: int, body_limit: int, permissions: dict[str, bool],
                          protect_skills: bool, history: list[str], has_drafts: bool, index: str = "") -> str:
    """The evolver's task. `index` is the observations' index.md, shown inline (cut at INDEX_CHARS) so
    that even a small model starts from the failures rather than from the example in its system prompt."""
    can_create = len(skills) < max_skills
    allowed = [name for name, ok in permissions.items() if ok]
    lines = [
        f"Skills now ({len(skills)} of a budget of {max_skills}): {', '.join(skills) or 'none'}.",
        "You may CREATE a new skill." if can_create else
        "The budget is full: do NOT create skills; refine the closest existing skill instead.",
        f"You may change: {', '.join(f'/workspace/{a}/' for a in allowed) or 'nothing'}.",
    ]
    if protect_skills:
        lines.append("Existing skills are read-only: only new skills may be written.")
    lines += [
        f"Each SKILL.md body must stay under {body_limit} characters and have a '## Verification' section.",
        "",
        "Procedure:",
        "1. Read /observations/index.md (shown at the end): tasks sorted by judge score, lowest first; "
        "what the agent did on a task is in /observations/<task>/.",
        "2. Take the failures (score below 7) and group them by category and failure reason.",
        "3. Act only on patterns shared by 2 or more failed tasks; skip one-offs.",
        "4. For the biggest pattern: create a skill if the budget allows, else refine the closest skill.",
        "   A new skill is one command (NAME in kebab-case, the same in both places; real steps, not these words):",
        "",
        "mkdir -p /workspace/skills/NAME && cat > /workspace/skills/NAME/SKILL.md <<'EOF'",
        "---",
        "name: NAME",
        "description: Use when <the situation in which the agent should read it>",
        "---",
        "## Steps",
        "1. <a concrete command or rule>",
        "## Verification",
        "- <a command that shows the result is right>",
        "EOF",
        "",
        "5. Check your SKILL.md (frontmatter, name = directory, size, Verification) with cat, then submit.",
    ]
    if index.strip():
        shown = index.strip()
        if len(shown) > INDEX_CHARS:
            shown = shown[:INDEX_CHARS].rstrip() + "\n[... cut: read /observations/index.md for the rest]"
        lines += ["", "/observations/index.md:", "", shown]
    if has_drafts:
        lines.append("Drafts proposed by the solver are in /workspace/skills/_drafts/: generalise what is "
                     "useful into real skills; the drafts themselves are discarded after this step.")
    if history:
        lines += ["", "Earlier proposals and what happened to them:", *[f"- {h}" for h in history[-8:]]]
    return "\n".join(lines)


def repair_instruction(violations: list[str]) -> str:
    listed = "\n".join(f"- {v}" for v in violations)
    return ("Your changes in /workspace break these rules; fix them now (edit or remove the offending "
            f"files), then submit. Anything still broken afterwards is reverted.\n{listed}")


# -- the structured evolver (evolver.mode: structured): one question, one JSON reply ----------------

STRUCTURED_SYSTEM = """You improve the skill library of a terminal agent. The agent solves tasks in a Linux terminal.
Before it acts it sees each skill's name and description, and it can read a skill's steps.
You get the tasks the agent failed on its last batch: what it ran, the exit codes and the errors.
You find what those failures have in common and propose ONE skill that would have avoided it.
You do not run commands: you reply with one JSON object, and it is written as a SKILL.md for you."""

# The rules of the reply, as the structured evolver's question states them. The rules step refuses a
# skill that restates them (evolve/relevance.py): a small model asked for "a name in lower-case words
# joined by hyphens" wrote a skill about joining words with hyphens.
STRUCTURED_RULES = (
    "- diagnosis: first, what the failures above have in common, quoting the evidence: the error or wrong "
    "result, the command that caused it and its exit code (for example: zip is not installed, exit 127 in "
    "two tasks).",
    '- action: "add" a new skill, "replace" an existing one, or "none".',
    "- name: a short name for the skill's topic, taken from your diagnosis.",
    '- description: starts with "Use when" and names the situation of the diagnosis, so the agent reads the '
    "skill when it meets it again.",
    "- steps: 1 to 6 short, concrete instructions or commands that avoid the failure, for every task of this "
    "kind: no task ids and no file names or values from the tasks above.",
    "- verification: 1 to 3 checks the agent runs to see that its result is right.",
)


NO_NETWORK = ("The tasks run in containers without a network: nothing can be downloaded or installed "
              "(no apt-get, pip or curl). A skill must use the tools the container already has.")


def structured_instruction(*, skills: list[tuple[str, str]], max_skills: int, protect_skills: bool, digest: str,
                           history: list[str], skill_use: str = "", network: bool = True, programs: str = "") -> str:
    """The structured evolver's one question. `skills`: (name, description) of the current library;
    `history`: earlier changes and the gate's decision on each; `skill_use`: how the agent used each
    skill (observe/attribution.py); `network`: whether a task's container can have a network
    (sandbox.allow_network). Without one the question says so: told nothing, Qwen2.5-Coder-1.5B wrote
    a skill that installs jq with apt-get (docs/log/results-runs.md, runs 7 and 8). `programs`: which common
    programs the failures' containers have and lack (sandbox/programs.py), so that a skill can name
    one they have: told only that there is no network, it answered `none` or installed jq anyway."""
    environment = [line for line in ([] if network else [NO_NETWORK]) + [programs.strip()] if line]
    lines = ["Failed tasks of the last batch (the judge's scores are estimates from behaviour):", "",
             digest or "(none)", "", *environment, *([""] if environment else []), "Skills now:"]
    lines += [f"- {name}: {description}" for name, description in skills] or ["- (none)"]
    if skill_use.strip():
        lines += ["", skill_use.strip()]
    if history:
        lines += ["", "Earlier changes and what the holdout check decided (do not propose a rejected skill "
                  "again; refine an accepted one instead):", *[f"- {' '.join(h.split())[:300]}" for h in history[-6:]]]
    can_add = len(skills) < max_skills
    lines += ["", "Actions:",
              '- "add": a new skill with a new name.' if can_add else
              f'- "add" is not possible: the library is full ({max_skills} skills). Replace the skill that helps '
              "least (read rarely, or no better when read) with one for these failures.",
              '- "replace": rewrite an existing skill (its name from the list above): to fix a skill that is read '
              "but does not help, or to reuse one nobody reads." if not protect_skills else
              '- "replace" is not possible: existing skills are read-only.',
              '- "none": no change, only when the failures share nothing a skill could teach.']
    lines += ["", "Reply with the fields in this order:", *STRUCTURED_RULES]
    return "\n".join(lines)


# The structured evolver's worked example (models.evolver.evolver_demo): one question of the real
# form and the reply it wants, sent before the real question to a model measured to need it (never to
# an API model). Its situation is in no shipped suite (no task reads network interfaces), so a copy
# teaches no task's answer, and the rules refuse a skill that copies it (structured.copies_demo). What
# it shows is what the 1.5B does not do on its own (docs/llm.md, "The structured evolver"): a name for
# the kind of failure, not the task; no install without a network; a program the containers have; the
# task's own file as a placeholder.
DEMO_DIGEST = """### report-interfaces (score 2/10)
Instruction: Write the names of the network interfaces to `/srv/net/interfaces.txt`, one per line.
Last commands:
- $ ifconfig -a > /srv/net/interfaces.txt -> exit 127
- $ apt-get install -y net-tools -> exit 100
Errors:
- $ ifconfig -a > /srv/net/interfaces.txt -> exit 127: bash: ifconfig: command not found
- $ apt-get install -y net-tools -> exit 100: E: Unable to locate package net-tools
Judge: ifconfig is not installed and the output file is empty"""
DEMO_PROGRAMS = ("Installed in the tasks' containers: python3, perl, awk, sed, grep, find. "
                 "Not installed there: ifconfig, ip, jq, curl.")
DEMO_REPLY = {
    "diagnosis": "ifconfig is not installed: `ifconfig -a` exited 127 (command not found), and apt-get could not "
                 "fetch net-tools (exit 100) because the container has no network.",
    "action": "add",
    "name": "network-interfaces-without-ifconfig",
    "description": "Use when ifconfig or ip is missing (command not found, exit 127) and a task asks about the "
                   "network interfaces.",
    "steps": ["Nothing can be fetched without a network: take the facts from what the container has.",
              "The kernel lists every interface as a directory: `ls /sys/class/net`.",
              "Write that list where the task asks, one name per line: `ls -1 /sys/class/net > OUTPUT_FILE`."],
    "verification": ["`cat OUTPUT_FILE` shows the same names as `ls /sys/class/net`."],
}


def structured_demo(*, network: bool) -> list[dict[str, str]]:
    """The worked example as two turns of the conversation: its question (the real question's form,
    with an empty library) and its reply."""
    import json

    question = structured_instruction(skills=[], max_skills=3, protect_skills=False, digest=DEMO_DIGEST,
                                      history=[], network=network, programs=DEMO_PROGRAMS)
    return [{"role": "user", "content": "An example question and a good reply first.\n\n" + question},
            {"role": "assistant", "content": json.dumps(DEMO_REPLY)}]


def structured_repair(problems: list[str]) -> str:
    listed = "\n".join(f"- {p}" for p in problems)
    return (f"Your skill was not written, because:\n{listed}\n"
            "Reply again with one corrected JSON object (or action \"none\"). Anything still wrong is dropped.")

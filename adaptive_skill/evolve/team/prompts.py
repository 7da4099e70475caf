"""What the team members are told. Each prompt opens with a heading naming its stage, so a reader
of the transcript (and a scripted test model) can tell the stages apart. The rules stated here
are also enforced in code (rules.py); the prompts only save a repair turn."""

from __future__ import annotations

from collections.abc import Sequence

from adaptive_skill.config import TeamMemberConfig
from adaptive_skill.evolve.library import SkillText
from adaptive_skill.evolve.prompts import skill_usage
from adaptive_skill.evolve.team.novelty import Figures
from adaptive_skill.evolve.team.schemas import Idea
from adaptive_skill.skills import SkillFormatError, parse_skill_text

MEMBER_SYSTEM = """You are {name}, one of a team that improves the skill library of an autonomous terminal agent.
Your expertise: {expertise}.
{background}

The agent solves tasks in a Linux terminal and reads skills (SKILL.md files) before it acts. The team
reads what the agent did on its last batch of tasks (judge scores are estimates from behaviour; there
are no test results), agrees on a failure pattern, proposes skill changes, checks them for novelty
and writes one SKILL.md. Speak from your expertise and be concrete: commands, pitfalls, checks.
Write general, reusable knowledge, never the answer to one task."""

GUEST_SYSTEM = """You are {name}, an outside expert. Your expertise: {expertise}.
{background}

A team that improves the skill library of an autonomous terminal agent consults you once. You are
not on the team: give the view its members may lack, briefly and concretely."""

SKILL_FORMAT = """A SKILL.md looks like this:
---
name: kebab-case-name          (equal to the skill's directory name)
description: Use when ...      (what it is for and WHEN to use it; at most 1024 characters)
---
## Steps
1. ...
## Verification
- how to check that the result is right"""


def persona(member: TeamMemberConfig, guest: bool = False) -> str:
    template = GUEST_SYSTEM if guest else MEMBER_SYSTEM
    return template.format(name=member.name, expertise=member.expertise, background=member.background).strip()


def library_text(skills: Sequence[SkillText], max_skills: int) -> str:
    lines = [f"{len(skills)} skill(s) of a budget of {max_skills}:"]
    for skill in skills:
        lines.append(f"- {skill.name}: {_description(skill.text)}")
    return "\n".join(lines) if skills else f"No skills yet (budget: {max_skills})."


def discussion_prompt(turn: int, turns: int, digest: str, library: str, history: list[str],
                      said: list[tuple[str, str]], guest: bool) -> str:
    parts = [f"# Topic discussion, turn {turn} of {turns}", "## What the agent did on its last batch", digest,
             "## The skill library", library]
    if history:
        parts += ["## Earlier proposals and what happened to them", "\n".join(f"- {h}" for h in history[-8:])]
    if said:
        parts += ["## The discussion so far", _dialogue(said)]
    ask = ("The team asks for your outside view: what do its members miss?" if guest else
           "Which failure pattern, shared by several tasks, matters most? What should the agent have done, "
           "and what could a skill teach it?")
    parts.append(f"{ask} Add something new in a few sentences; do not repeat what was said.")
    return "\n\n".join(parts)


def summary_prompt(said: list[tuple[str, str]], library: str) -> str:
    return "\n\n".join([
        "# Topic summary", "As the team's leader, close the discussion.", "## The skill library", library,
        "## The discussion", _dialogue(said) or "(nobody spoke)",
        "Name the failure pattern(s) the team will address, the tasks that show them, and in one sentence "
        "what a skill should teach."])


def idea_prompt(turn: int, turns: int, topic: str, library: str, *, can_create: bool, protect_skills: bool,
                earlier: list[Idea], discarded: list[str]) -> str:
    rules = ["A change either creates a skill (a new kebab-case name) or edits an existing one (its name)."]
    if not can_create:
        rules.append("The skill budget is full: propose an EDIT of the closest existing skill.")
    if protect_skills:
        rules.append("Existing skills are read-only: propose a new skill.")
    parts = [f"# Idea generation, turn {turn} of {turns}", "## Topic", topic, "## The skill library", library,
             "## Rules", "\n".join(rules)]
    if earlier:
        parts += ["## Ideas so far", "\n".join(f"{i}. {idea_line(idea)}" for i, idea in enumerate(earlier, 1))]
    if discarded:
        parts += ["## Discarded after self-review (do not propose these again)", "\n".join(f"- {d}" for d in discarded)]
    parts.append("Propose ONE skill change that addresses the topic: refine an idea above or propose a better "
                 "one. Give its steps and how the agent verifies its result, and your confidence (0 to 1) that "
                 "it helps the agent.")
    return "\n\n".join(parts)


def review_prompt(library: str, candidates: list[tuple[int, Idea, Figures]]) -> str:
    blocks = []
    for number, idea, figures in candidates:
        blocks.append("\n".join([
            f"### Candidate {number}: {idea.action} `{idea.target}`", idea.description,
            "Steps:", *[f"- {s}" for s in idea.steps], "Verification:", *[f"- {v}" for v in idea.verification],
            f"Novelty figures: dissimilarity to the library {figures.library_dissimilarity:.2f} "
            f"(nearest: {figures.nearest_skill or 'none'}); to earlier versions "
            f"{figures.historical_dissimilarity:.2f} (nearest: {figures.nearest_past or 'none'}); overlap with "
            f"rejected skills {figures.rejected_overlap:.2f} (nearest: {figures.nearest_rejected or 'none'})."]))
    return "\n\n".join([
        "# Novelty review",
        "Judge these candidates on their own: you have not seen how they came about. Figures range 0 to 1; "
        "a high dissimilarity and a low overlap mean new.",
        "## The skill library", library, "## Candidates", *blocks,
        "Vote for the candidate that is new relative to the library and its history and most likely to help "
        "the agent. Reply with its number and your reason."])


def draft_prompt(idea: Idea, current: str | None, body_limit: int) -> str:
    parts = ["# Skill writing: first draft", "As the team's leader, write the skill the team chose.",
             "## The idea", idea_block(idea)]
    if current is not None:
        parts += [f"## The current skills/{idea.target}/SKILL.md (you rewrite it)", current]
    parts += ["## Rules", _rules(idea.target, body_limit), "Write the complete SKILL.md."]
    return "\n\n".join(parts)


def revise_prompt(turn: int, turns: int, idea: Idea, draft: str, body_limit: int) -> str:
    return "\n\n".join([
        f"# Skill writing: review, turn {turn} of {turns}", "## The idea", idea_block(idea),
        "## The current draft", draft, "## Criteria", _rules(idea.target, body_limit) +
        "\n- Concrete and general: commands and checks that work for every task of this kind."
        "\n- Nothing the agent already does without the skill.",
        "Evaluate the draft against the criteria, then give the complete revised SKILL.md "
        "(unchanged if it needs nothing)."])


def self_review_prompt(draft: str, figures: Figures, similar: list[tuple[SkillText, float]]) -> str:
    parts = ["# Self-review", "Before the team hands in its skill, check that it is new.", "## The draft", draft,
             f"## Figures\nnovelty {figures.novelty:.2f}; dissimilarity to the library "
             f"{figures.library_dissimilarity:.2f}; to earlier versions {figures.historical_dissimilarity:.2f}; "
             f"overlap with rejected skills {figures.rejected_overlap:.2f}", "## The most similar skills"]
    parts += [f"### {skill.name} ({skill.source}, similarity {similarity:.2f})\n{skill.text}"
              for skill, similarity in similar] or ["(none)"]
    parts.append("Does the draft teach something these skills do not? Name any skill it duplicates and say "
                 "what to change to make it distinct.")
    return "\n\n".join(parts)


def rework_prompt(idea: Idea, draft: str, feedback: str, body_limit: int) -> str:
    return "\n\n".join([
        "# Skill writing: revision after self-review", "## The idea", idea_block(idea), "## The draft", draft,
        "## The self-review found", feedback, "## Rules", _rules(idea.target, body_limit),
        "Revise the draft so that it is distinct from the skills named; write the complete SKILL.md."])


def repair_prompt(violations: list[str], action: str, target: str, content: str, library: str,
                  body_limit: int) -> str:
    listed = "\n".join(f"- {v}" for v in violations)
    return "\n\n".join([
        "# Rules repair", f"The team's change ({action} `{target}`) breaks these rules, checked in code:", listed,
        "## The skill library", library, "## The SKILL.md", content, "## Rules", _rules(target, body_limit),
        "Reply with the corrected change: create or edit, the skill name, and the complete SKILL.md. To stay "
        "within the budget, fold the pattern into an existing skill (edit). Anything still broken is reverted."])


def idea_line(idea: Idea) -> str:
    return f"{idea.action} `{idea.target}`: {idea.description} (confidence {idea.confidence:.2f})"


def idea_block(idea: Idea) -> str:
    return "\n".join([f"{idea.action} `{idea.target}`: {idea.description}", "Steps:",
                      *[f"- {s}" for s in idea.steps], "Verification:", *[f"- {v}" for v in idea.verification]])


def _rules(target: str, body_limit: int) -> str:
    return (f"{SKILL_FORMAT}\n- The frontmatter name must be `{target}`.\n- The body stays under {body_limit} "
            "characters and has a '## Verification' section.\n- The team writes only this SKILL.md: an edited "
            "skill keeps its other files (scripts/, references/).\n\nHow the agent uses it:\n"
            + skill_usage(body_limit))


def _dialogue(said: list[tuple[str, str]]) -> str:
    return "\n\n".join(f"{name}: {text}" for name, text in said)


def _description(text: str) -> str:
    try:
        data, _ = parse_skill_text(text)
    except SkillFormatError:
        return "(unreadable SKILL.md)"
    return " ".join(str(data.get("description", "")).split())[:300]

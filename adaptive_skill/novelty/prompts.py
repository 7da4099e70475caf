"""The proposer's chat messages, in English or Chinese. The JSON schema instruction is added by
`complete_json`; field names and enum values stay English in both languages."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from adaptive_skill.novelty.perspectives import Language, Perspective


@dataclass(frozen=True)
class _Texts:
    system: str
    expert: str  # {name} {field}
    domain: str  # {code} {name} {main_class}
    hybrid: str  # {name} {field} {code} {domain}
    none: str  # no perspective at all: the unperturbed baseline
    ask: str  # {seed} {perspective}
    contrastive: str
    open_cells: str
    categories: str


_TEXTS: dict[Language, _Texts] = {
    "en": _Texts(
        system=("You propose training tasks for an AI agent that works in a Linux terminal. You take the "
                "perspective you are given seriously: its habits, tools and priorities shape the task."),
        expert="a {name} (field: {field})",
        domain="an expert in the knowledge domain {code} {name} (Dewey class: {main_class})",
        hybrid="a {name} (field: {field}) who borrows ideas from {code} {domain}",
        none="a task designer",
        ask=("Problem: {seed}\n\nYou are {perspective}.\nWhat task would you set to improve this problem? "
             "Propose ONE concrete task an agent can complete offline in a Linux terminal with files, "
             "scripts and standard tools. The instruction must say what to produce and how success is checked. "
             "Be brief: a title of a few words, an instruction under 80 words, a one-sentence rationale, "
             "each on one line."),
        contrastive="Recent tasks. Do not repeat their idea, angle or wording; propose something clearly unlike them:",
        open_cells="Kinds of task not proposed yet (category/difficulty); prefer one of them if it fits:",
        categories="Choose the category from: {categories}.",
    ),
    "zh": _Texts(
        system=("你为一个在 Linux 终端里工作的 AI 智能体设计训练任务。请认真代入给定的视角："
                "这个视角的习惯、工具和关注点决定任务的样子。"),
        expert="一名{name}（领域：{field}）",
        domain="知识领域 {code} {name}（杜威大类：{main_class}）的专家",
        hybrid="一名{name}（领域：{field}），并借鉴 {code} {domain} 的思路",
        none="一名任务设计者",
        ask=("问题：{seed}\n\n你是{perspective}。\n为了改进这个问题，你会布置什么任务？"
             "请提出一个具体任务，智能体能在离线的 Linux 终端里用文件、脚本和常用工具完成。"
             "instruction 要写清楚产出什么以及如何检验成功。标题、说明和理由用中文写，并保持简短："
             "标题几个词，instruction 不超过 150 字，rationale 一句话，每项不换行。"),
        contrastive="最近的任务。不要重复它们的想法、角度或措辞，提出明显不同的任务：",
        open_cells="还没有出现过的任务类型（类别/难度），合适的话优先选其中之一：",
        categories="category 从下列取值中选择：{categories}。",
    ),
}


def describe(perspective: Perspective, language: Language) -> str:
    texts = _TEXTS[language]
    expert, domain = perspective.expert, perspective.domain
    if expert and domain:
        return texts.hybrid.format(name=expert.name, field=expert.field, code=domain.code, domain=domain.name)
    if expert:
        return texts.expert.format(name=expert.name, field=expert.field)
    if domain is None:
        return texts.none
    return texts.domain.format(code=domain.code, name=domain.name, main_class=domain.main_class)


def proposal_messages(seed: str, perspective: Perspective, language: Language, categories: Sequence[str], *,
                      recent: Sequence[str] = (), open_cells: Sequence[tuple[str, str]] = ()) -> list[dict[str, Any]]:
    """`recent`: short forms of the latest tasks (contrastive prompting); `open_cells`: empty
    (category, difficulty) cells of the archive."""
    texts = _TEXTS[language]
    parts = [texts.ask.format(seed=seed, perspective=describe(perspective, language)),
             texts.categories.format(categories=", ".join(categories))]
    if recent:
        parts.append(texts.contrastive + "\n" + "\n".join(f"- {line}" for line in recent))
    if open_cells:
        parts.append(texts.open_cells + " " + ", ".join(f"{c}/{d}" for c, d in open_cells))
    return [{"role": "system", "content": texts.system}, {"role": "user", "content": "\n\n".join(parts)}]

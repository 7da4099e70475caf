"""The one place a role's model is made from its config: `make_llm` picks the embedded model
(llm/local.py), a scripted one (llm/scripted.py, tests) or the litellm client (llm/client.py) by the
model name's prefix. It sits above the three, which do not import it."""

from __future__ import annotations

from adaptive_skill.config import ModelConfig
from adaptive_skill.llm.accounting import Accounting
from adaptive_skill.llm.client import LLMClient
from adaptive_skill.protocols import LLM


def make_llm(config: ModelConfig, accounting: Accounting, role: str) -> LLM:
    """The model for one role: `local/...` embedded, `scripted/<path>` (tests), else litellm."""
    if config.model.startswith("scripted/"):
        from adaptive_skill.llm.scripted import ScriptedLLM

        return ScriptedLLM(config.model.removeprefix("scripted/"), accounting, role=role,
                           temperature=config.temperature)
    if config.model.startswith("local/"):
        from adaptive_skill.llm.local import make_local_llm

        return make_local_llm(config, accounting, role=role)
    return LLMClient(config, accounting, role=role)

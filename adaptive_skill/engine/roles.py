"""The models and sandboxes of the engine's roles, each made when first needed: the agent (at the run's
sampling, and at a gate round's or an explore pass's), the judge and its checks of the final state,
the evolver and its sandbox, the proposer's sandbox and the agent that tries an admitted proposal."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from adaptive_skill.config import EvolveConfig
from adaptive_skill.errors import UserError
from adaptive_skill.evolve.evolver import EVOLVER_USER
from adaptive_skill.runs import RunDir


class Roles:
    def __init__(self, config: EvolveConfig, accounting, run_dir: RunDir, provider,
                 evolver_sandbox_factory: Callable[[], Any] | None = None):
        self.config = config
        self.accounting = accounting
        self.run_dir = run_dir
        self.provider = provider
        self.evolver_sandbox_factory = evolver_sandbox_factory
        self._llms: dict[str, Any] = {}
        self._judge = None
        self._checker = None

    def llm(self, role: str):
        if role not in self._llms:
            from adaptive_skill.llm import make_llm

            self._llms[role] = make_llm(getattr(self.config.models, role), self.accounting, role=role)
        return self._llms[role]

    def agent_llm(self, config: EvolveConfig):
        """The agent's model with `config`'s sampling (a gate round's, an explore pass's), one per setting."""
        agent = config.models.agent
        if agent == self.config.models.agent:
            return self.llm("agent")
        key = f"agent@{agent.model}@{agent.temperature:g}/{agent.seed}"  # explore.confirm_model: another model
        if key not in self._llms:
            from adaptive_skill.llm import make_llm

            self._llms[key] = make_llm(agent, self.accounting, role="agent")
        return self._llms[key]

    def evolver_at(self, seed: int):
        """The evolver's model at sampling seed `seed` (the structured evolver's further samples)."""
        from adaptive_skill.llm import make_llm

        return make_llm(self.config.models.evolver.model_copy(update={"seed": seed}), self.accounting, role="evolver")

    def endpoints(self) -> list:
        """How each role that asks for JSON (the judge; the structured evolver) takes a structured reply,
        and where a served agent model takes the text protocol's grammar (llm/negotiate.py): kept in
        the run's endpoints.json, else found now and kept, so a resumed run asks nothing. A role
        with no way that gives a valid reply stops the run here, in one line (LLMConfigError).
        Embedded and scripted models hold replies to the schema themselves."""
        from adaptive_skill.files import read_json, write_json_atomic
        from adaptive_skill.llm.base import LLMConfigError
        from adaptive_skill.llm.negotiate import Negotiated

        schemas = {"judge": self.judge().schema}
        if self.config.evolver.mode == "structured":
            from adaptive_skill.evolve.structured import SkillReply

            schemas["evolver"] = SkillReply
        path = self.run_dir.root / "endpoints.json"
        kept = read_json(path, {})
        kept = kept if isinstance(kept, dict) else {}
        found = []
        for role, schema in schemas.items():
            llm = self.llm(role)
            if not hasattr(llm, "negotiate"):
                continue
            saved = kept.get(role)
            if isinstance(saved, dict) and saved.get("model") == llm.model and saved.get("way") \
                    and saved.get("api_base") in (None, llm.config.api_base):
                one = Negotiated.from_dict(saved)
                llm.structured_way = one.way
            else:
                one = llm.negotiate(schema)
                kept[role] = one.to_dict()
                write_json_atomic(path, kept)
            if one.way is None:
                raise LLMConfigError(one.line())
            found.append(one)
        grammar = self._agent_grammar(kept, path)
        return found + ([grammar] if grammar else [])

    def _agent_grammar(self, kept: dict, path: Path):
        """Where the agent's served model takes the text protocol's grammar (llm/negotiate.py
        settle_grammar): kept in endpoints.json under "agent", else asked now and kept; the answer
        goes into models.agent.grammar, so every agent client made from then on uses it."""
        from adaptive_skill.files import write_json_atomic
        from adaptive_skill.llm.negotiate import Negotiated, settle_grammar

        model = self.config.models.agent
        saved = kept.get("agent")
        if model.grammar == "auto" and model.api_base and isinstance(saved, dict) \
                and saved.get("model") == model.model and saved.get("api_base") == model.api_base \
                and saved.get("way") in ("grammar", "guided_grammar", "none"):
            one = Negotiated.from_dict(saved)
            model.grammar = one.way
        else:
            one = settle_grammar(model, self.llm("agent"))
            if one is None:
                return None
            kept["agent"] = one.to_dict()
            write_json_atomic(path, kept)
        self._llms.pop("agent", None)  # made again from the settled config
        return one

    def judge(self):
        if self._judge is None:
            from adaptive_skill.observe.judge import Judge

            self._judge = Judge(self.llm("judge"), self.config.judge, self.run_dir.judge_cache)
        return self._judge

    def checks_on(self) -> bool:
        """Whether train attempts keep their final state and the judge reads checks of it (judge.check_state)."""
        return self.config.judge.check_state  # the config refuses it without sandbox.kind: docker

    def keeps_state(self) -> bool:
        """Whether train attempts keep their final state: for the checks, or for explore.agree's vote
        (the digest of the files an attempt left)."""
        agree = self.config.explore.agree and self.config.trajectory_only and self.config.sandbox.kind == "docker"
        return self.checks_on() or agree

    def checker(self):
        """The checks of the final state: the judge's model writes them, cached by instruction."""
        if self._checker is None:
            from adaptive_skill.observe.checks import Checker

            self._checker = Checker(self.llm("judge"), self.run_dir.judge_cache / "checks",
                                    timeout=self.config.judge.check_timeout_sec)
        return self._checker

    def evolver_sandbox(self):
        if self.evolver_sandbox_factory is not None:
            return self.evolver_sandbox_factory()
        if self.config.sandbox.kind != "docker":
            raise UserError("the evolver runs only in a Docker sandbox (sandbox.kind: docker)")
        from adaptive_skill.sandbox.untrusted import untrusted_sandbox

        return untrusted_sandbox(self.provider.client, "evolver", EVOLVER_USER)

    def proposer_sandbox(self):
        from adaptive_skill.proposals import PROPOSER_USER
        from adaptive_skill.sandbox.untrusted import untrusted_sandbox

        return untrusted_sandbox(self.provider.client, "proposer", PROPOSER_USER)  # docker: the config requires it

    def feasibility_agent(self, trajectories: Path):
        """The agent model with the accepted workspace, for one attempt on an admitted proposal."""
        from adaptive_skill.harness.agents import build_agent

        return build_agent("llm", self.config, workspace=self.run_dir.workspace, trajectories_dir=trajectories,
                           llm=self.agent_llm(self.config))

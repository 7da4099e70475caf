"""The models of each role (agent, judge, evolver, proposer) and the embedder."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator, model_validator

from adaptive_skill.config.base import _Strict


class CostPerToken(_Strict):
    """Dollars per token, for a model litellm has no price for (a model behind your own server)."""

    input: float = Field(ge=0.0)
    output: float = Field(ge=0.0)


class ModelConfig(_Strict):
    """One LLM role. `model` is a litellm model name, e.g. `anthropic/claude-sonnet-4-5` or
    `local/smollm2-135m` for the embedded offline model."""

    model: str = Field("local/smollm2-135m", min_length=1)
    temperature: float = Field(0.0, ge=0.0, le=2.0)
    max_tokens: int = Field(2048, gt=0)
    api_base: str | None = None
    api_key: str | None = None
    timeout_sec: float = Field(120.0, gt=0)
    max_retries: int = Field(4, ge=0, le=20)
    seed: int | None = None  # sampling seed, where the provider takes one (the gate sets one per round)
    # What a call costs, declared: `free: true` (a model you serve yourself) or `cost_per_token:
    # {input, output}` in dollars. Declared, it is used in place of litellm's price map; left out, a
    # model litellm cannot price counts as 0 and the run says so once (docs/llm.md).
    free: bool = False
    cost_per_token: CostPerToken | None = None
    # How the agent talks to this model: `auto` is the model's own (an API model's native tool calls
    # where litellm knows them; an embedded model's as measured per model, docs/llm.md), `tools`
    # native tool calls, `text` the fenced-block text protocol. `protocol_demo` sends the text
    # protocol's worked example before each task (null: as measured for the model; API models never).
    protocol: Literal["auto", "tools", "text"] = "auto"
    protocol_demo: bool | None = None
    # How the text protocol's grammar (GBNF) reaches a model behind your own server (`api_base`):
    # `auto` asks the endpoint once at the run's start (llm/negotiate.py) and keeps what it takes;
    # `grammar` the body's `grammar` field (llama.cpp's server, llama-cpp-python's), `guided_grammar`
    # vLLM's; `none` sends no grammar. Embedded models take theirs by themselves; API models none.
    grammar: Literal["auto", "grammar", "guided_grammar", "none"] = "auto"
    # The structured evolver's worked example (one example question and its reply) before its
    # question (null: as measured for the model, docs/llm.md; API models never). Only the evolver reads it.
    evolver_demo: bool | None = None
    # The first submit of a task attempt is answered with CHECK_FIRST (look at the result, then
    # submit again) instead of ending it: for a model that submits after one unchecked command (the
    # 1.5B, docs/log/results-runs.md, run 8). Off unless measured to help the model; only the agent reads it.
    check_before_submit: bool = False
    # The first submit is answered with what the attempt's commands wrote (each file a redirection or tee
    # named: `ls -ld` and its first lines, agent/written.py) instead of a request to look: the run-9
    # follow-up for the 1.5B (docs/results.md). Off unless measured to help the model.
    show_before_submit: bool = False

    @field_validator("api_key", "api_base")
    @classmethod
    def _empty_is_unset(cls, value: str | None) -> str | None:
        return value or None  # `${KEY:-}` with KEY unset means "not configured"

    @model_validator(mode="after")
    def _one_price(self) -> ModelConfig:
        if self.free and self.cost_per_token is not None:
            raise ValueError("free: true and cost_per_token exclude each other: set one")
        return self


class EmbedderConfig(_Strict):
    """`lexical` needs nothing; `sentence-transformers` needs the [embed] extra; anything else
    is a litellm embedding model name."""

    model: str = Field("lexical", min_length=1)
    dimensions: int = Field(512, gt=0)
    api_base: str | None = None
    api_key: str | None = None
    timeout_sec: float = Field(60.0, gt=0)

    _empty_is_unset = field_validator("api_key", "api_base")(ModelConfig._empty_is_unset.__func__)


class ModelsConfig(_Strict):
    agent: ModelConfig = Field(default_factory=ModelConfig)
    judge: ModelConfig = Field(default_factory=ModelConfig)
    evolver: ModelConfig = Field(default_factory=ModelConfig)
    proposer: ModelConfig = Field(default_factory=lambda: ModelConfig(temperature=0.7))
    embedder: EmbedderConfig = Field(default_factory=EmbedderConfig)

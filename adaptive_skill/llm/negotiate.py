"""How an endpoint takes a structured reply, found once per run per role (issue 67).

litellm knows what a hosted API takes (a JSON schema, or a bare JSON object); it cannot know what a
model behind your own OpenAI-compatible server takes. Each server takes a schema its own way:
vLLM and recent llama.cpp servers an OpenAI `json_schema` response format; llama-cpp-python's
server refuses that (a 500: "Input should be 'text' or 'json_object'") but holds the reply to a
`json_object` response format that carries a `schema`; llama.cpp's own server also takes a
`json_schema` field in the body; vLLM's older versions `guided_json`. A bare JSON object lets the
model write any object, and the 1.5B's then lacks the verdict's fields (0 verdicts of 6, measured).

So for a role whose model is served by you (`api_base` set) or that litellm cannot place, the run
asks one small question of the role's schema each way, strongest first, and keeps the first whose
reply validates; where every way fails, the run stops before it starts, in one line naming the
role, the model and what the endpoint said. What was found is kept in the run (`endpoints.json`)
and reused on resume. An API model litellm knows is not probed: its way is litellm's.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from adaptive_skill.protocols import Schema

GrammarWay = Literal["grammar", "guided_grammar"]
# Where a served model takes a GBNF grammar: the body's `grammar` (llama.cpp's server and
# llama-cpp-python's), vLLM's `guided_grammar`. Asked in this order; none taken: no grammar.
GRAMMAR_WAYS: tuple[GrammarWay, ...] = ("grammar", "guided_grammar")
# The probe's grammar admits one word, and the question asks for another: a server that applies the
# grammar answers with the grammar's word, one that ignores it with the asked one (or anything else).
PROBE_GRAMMAR = 'root ::= "kiwi"'
PROBE_GRAMMAR_MESSAGES = [{"role": "user", "content": "Reply with the single word banana, nothing else."}]


def grammar_fields(way: str, grammar: str) -> dict[str, Any]:
    """What a request to a served model adds to hold its reply to `grammar` (GBNF) this way."""
    return {"extra_body": {way: grammar}}

Way = Literal["json_schema", "json_object_schema", "body_json_schema", "guided_json", "json_object", "prompt"]
# Strongest first: a schema the server enforces, then a JSON object, then the prompt alone.
WAYS: tuple[Way, ...] = ("json_schema", "json_object_schema", "body_json_schema", "guided_json", "json_object",
                         "prompt")


def request_fields(way: Way, schema: type[Schema]) -> dict[str, Any]:
    """What a request adds to ask for `schema` this way (litellm arguments; `extra_body` goes to the
    server as it is)."""
    body = schema.model_json_schema()
    if way == "json_schema":
        return {"response_format": {"type": "json_schema", "json_schema": {"name": schema.__name__, "schema": body}}}
    if way == "json_object_schema":
        return {"response_format": {"type": "json_object", "schema": body}}
    if way == "body_json_schema":
        return {"extra_body": {"json_schema": body}}
    if way == "guided_json":
        return {"extra_body": {"guided_json": body}}
    if way == "json_object":
        return {"response_format": {"type": "json_object"}}
    return {}


@dataclass
class Tried:
    way: str
    outcome: str  # "ok", "refused: ...", "no valid reply: ..."


@dataclass
class Negotiated:
    """One role's way, and what each way tried said."""

    role: str
    model: str
    api_base: str | None
    way: str | None  # None: no way gave a valid reply
    probed: bool  # False: litellm's own knowledge of the model, no question asked
    tried: list[Tried] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Negotiated:
        return cls(role=data["role"], model=data["model"], api_base=data.get("api_base"), way=data.get("way"),
                   probed=bool(data.get("probed")), tried=[Tried(**t) for t in data.get("tried", [])])

    def line(self) -> str:
        """What the run says of it, in one line."""
        if self.way == "none":
            said = "; ".join(f"{t.way}: {t.outcome}" for t in self.tried)
            return (f"models.{self.role} ({self.model}): takes no grammar, replies are parsed as they come"
                    + (f" ({said})" if said else ""))
        if self.way in GRAMMAR_WAYS:
            return f"models.{self.role} ({self.model}): the text protocol's grammar by the body's {self.way}"
        if self.way is None:
            said = "; ".join(f"{t.way}: {t.outcome}" for t in self.tried)
            return (f"models.{self.role} ({self.model}{' at ' + self.api_base if self.api_base else ''}) gave no "
                    f"reply of its schema in any way the run knows: {said}")
        how = "probed" if self.probed else "litellm's model map"
        return f"models.{self.role} ({self.model}): structured replies by {self.way} ({how})"


def probe_messages(schema: type[Schema]) -> list[dict[str, Any]]:
    """A small question whose answer is one object of `schema`: an example built from the schema's
    own fields, which any model that follows it can copy."""
    example = {name: _example(prop) for name, prop in schema.model_json_schema().get("properties", {}).items()}
    return [{"role": "system", "content": "You answer with one JSON object."},
            {"role": "user", "content": "Reply with this JSON object exactly, nothing else:\n"
                                        + json.dumps(example)}]


def _example(prop: dict[str, Any]) -> Any:
    kinds = [prop.get("type")] + [p.get("type") for p in prop.get("anyOf", []) if isinstance(p, dict)]
    if "enum" in prop:
        return prop["enum"][0]
    for kind, value in (("integer", 5), ("number", 5), ("boolean", True), ("string", "ok"), ("array", []),
                        ("null", None)):
        if kind in kinds:
            return value
    return None


def settle_grammar(model: Any, llm: Any) -> Negotiated | None:
    """For the agent's model config `model` (a ModelConfig) and its client `llm`: when it is served by
    you (`api_base`), talks the text protocol and says `grammar: auto`, ask its endpoint once where it
    takes a grammar (LLMClient.negotiate_grammar) and write the answer into `model.grammar`, so every
    client made from it afterwards (each attempt's, a Ray node's) sends the grammar that way or none.
    None when there was nothing to ask."""
    if model.grammar != "auto" or not model.api_base or not hasattr(llm, "negotiate_grammar") \
            or getattr(llm, "supports_tools", False):
        return None
    found = llm.negotiate_grammar()
    model.grammar = found.way
    return found

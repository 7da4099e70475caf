"""Token estimates without network: tiktoken's cl100k_base when its vocabulary file is already on
disk, else characters / 4.

tiktoken downloads vocabularies on first use; a run overnight on a machine without network must
not stall on that, so the file is only ever read from a local cache (tiktoken's own cache, or the
copy litellm ships). Which estimator ran is in `TokenCounter.name`, so figures say what they mean.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import importlib.util
import os
import tempfile
from pathlib import Path

_CL100K_URL = "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken"
_CL100K_SHA256 = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"
# cl100k_base's pre-tokenisation pattern (tiktoken_ext.openai_public), needed to build the
# encoding from a local file without the function that would fetch it.
_CL100K_PATTERN = (r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
                   r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s""")
CHARS_PER_TOKEN = 4
_SLICE = 4096


class TokenCounter:
    """Counts tokens of text. `TokenCounter()` picks tiktoken when it works offline."""

    def __init__(self, use_tiktoken: bool = True):
        self._encoding = _load_cl100k() if use_tiktoken else None
        self.name = "tiktoken cl100k_base" if self._encoding is not None else f"chars/{CHARS_PER_TOKEN}"

    def count(self, text: str) -> int:
        if not text:
            return 0
        if self._encoding is not None:
            # In slices: BPE slows down badly on long runs without whitespace (a 2 MB line of
            # output), and a slice edge shifts the count by a token at most.
            return sum(len(self._encoding.encode_ordinary(text[i:i + _SLICE]))
                       for i in range(0, len(text), _SLICE))
        return -(-len(text) // CHARS_PER_TOKEN)  # ceiling: an estimate should not undercount


def _cache_dirs() -> list[Path]:
    dirs = [os.environ.get("TIKTOKEN_CACHE_DIR"), os.environ.get("DATA_GYM_CACHE_DIR"),
            os.path.join(tempfile.gettempdir(), "data-gym-cache")]
    spec = importlib.util.find_spec("litellm")  # finds the package without importing it (seconds)
    if spec is not None and spec.submodule_search_locations:
        dirs.append(os.path.join(spec.submodule_search_locations[0], "litellm_core_utils", "tokenizers"))
    return [Path(d) for d in dirs if d]


@functools.cache  # the vocabulary is immutable data; parse it once per process
def _load_cl100k():
    try:
        import tiktoken
    except ImportError:
        return None
    name = hashlib.sha1(_CL100K_URL.encode()).hexdigest()  # tiktoken's cache key for the file
    for directory in _cache_dirs():
        try:
            data = (directory / name).read_bytes()
        except OSError:
            continue
        if hashlib.sha256(data).hexdigest() != _CL100K_SHA256:
            continue
        ranks = {base64.b64decode(token): int(rank)
                 for token, rank in (line.split() for line in data.splitlines() if line)}
        return tiktoken.Encoding("cl100k_base", pat_str=_CL100K_PATTERN, mergeable_ranks=ranks,
                                 special_tokens={"<|endoftext|>": 100257})
    return None

"""Which file a command writes and to what content, as far as the command text tells: here-
documents and echo/printf redirections give the content; `sed -i s/a/b/` is an edit whose
inverse undoes it; `git checkout -- f` / `git restore f` go back to the committed version.
The alternation detector compares these versions to see edit-revert loops."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

_HEREDOC = re.compile(
    r"(?:cat|tee)\b[^\n<>]*?(?:>\s*(?P<out1>[^\s<>|;&]+)\s*)?<<-?\s*(?P<q>['\"]?)(?P<tag>\w+)(?P=q)"
    r"(?:\s*>\s*(?P<out2>[^\s<>|;&]+))?[^\n]*\n(?P<body>.*?)\n(?P=tag)\s*(?:\n|$)", re.DOTALL)
_TEE_TARGET = re.compile(r"\btee\s+(?:-a\s+)?(?P<out>[^\s<>|;&]+)")
_ECHO = re.compile(r"^\s*(?:echo|printf)\s+(?P<body>.+?)\s*(?P<op>>>?)\s*(?P<out>[^\s<>|;&]+)\s*$")
_SED = re.compile(r"^\s*sed\s+-i(?:\s*'')?\s+(?:-e\s+)?(?P<q>['\"])s(?P<d>[/|#,:])(?P<a>.*?)(?P=d)(?P<b>.*?)(?P=d)"
                  r"(?P<flags>[a-zA-Z0-9]*)(?P=q)\s+(?P<out>[^\s;&|]+)\s*$")
_GIT_RESTORE = re.compile(r"^\s*git\s+(?:checkout\s+(?:HEAD\s+)?--|restore)\s+(?P<out>[^\s;&|]+)\s*$")


@dataclass(frozen=True)
class FileWrite:
    path: str
    kind: str  # content | edit | restore | append
    content_hash: str = ""  # for content and append
    edit: tuple[str, str, str] | None = None  # (pattern, replacement, flags) for sed


def _hash(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()


def file_writes(command: str) -> list[FileWrite]:
    writes: list[FileWrite] = []
    for match in _HEREDOC.finditer(command):
        target = match.group("out1") or match.group("out2")
        if target is None and (tee := _TEE_TARGET.search(match.group(0).split("\n", 1)[0])):
            target = tee.group("out")
        if target:
            writes.append(FileWrite(target, "content", _hash(match.group("body"))))
    if writes:
        return writes
    for line in command.split("\n"):
        if match := _ECHO.match(line):
            kind = "append" if match.group("op") == ">>" else "content"
            writes.append(FileWrite(match.group("out"), kind, _hash(match.group("body").strip("'\""))))
        elif match := _SED.match(line):
            writes.append(FileWrite(match.group("out"), "edit",
                                    edit=(match.group("a"), match.group("b"), match.group("flags"))))
        elif match := _GIT_RESTORE.match(line):
            writes.append(FileWrite(match.group("out"), "restore"))
    return writes


class FileVersions:
    """The version history of each file the agent wrote, as opaque version ids."""

    def __init__(self) -> None:
        self._base: dict[str, str] = {}  # last full content (or "git") of each file
        self._edits: dict[str, list[tuple[str, str, str]]] = {}  # sed edits applied since then
        self.history: dict[str, list[tuple[int, str]]] = {}  # path -> [(step, version id)]

    def apply(self, step: int, write: FileWrite, path: str) -> str:
        edits = self._edits.setdefault(path, [])
        if write.kind == "content":
            self._base[path], edits[:] = write.content_hash, []
        elif write.kind == "restore":
            self._base[path], edits[:] = "git", []
        elif write.kind == "append":
            self._base[path] = _hash(f"{self.current(path)}+{write.content_hash}")
            edits[:] = []
        elif write.edit is not None:
            pattern, replacement, flags = write.edit
            if edits and edits[-1] == (replacement, pattern, flags):
                edits.pop()  # s/b/a/ right after s/a/b/: back to where it was
            else:
                edits.append(write.edit)
        version = self.current(path)
        history = self.history.setdefault(path, [])
        history.append((step, version))
        del history[:-16]  # enough for any alternation worth seeing; a long run stays cheap
        return version

    def current(self, path: str) -> str:
        # Before any full write a file is as the task left it, which is what git restores too.
        base = self._base.get(path, "git")
        edits = self._edits.get(path, [])
        return base if not edits else f"{base}+{_hash(repr(edits))}"

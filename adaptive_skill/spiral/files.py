"""Which file a command writes and how, as far as the command text tells: whole contents
(here-documents, echo/printf redirections), appends, substitutions made by any tool (`sed -i`,
`perl -pi`, `ed`, a Python `str.replace` or `re.sub` on a `Path`), and `git checkout -- f` /
`git restore f` going back to the committed version.

FileVersions follows each file through these writes as far as the text is known: a file written
whole is known whole; a file only edited is known by the snippets the edits touched, learnt as
they come (an edit's literal "before" was in the file, its "after" is now). Two versions are the
same when their known text is the same, so `sed -i s/a/b/` undone by a Python `.replace('b', 'a')`
and redone by `perl -pi -e s/a/b/` reads as X, Y, X, Y: the alternation detector sees edit-revert
loops whatever the tool."""

from __future__ import annotations

import ast
import hashlib
import re
from dataclasses import dataclass
from functools import lru_cache

from adaptive_skill.trajectory.text import command_segments, split_command

_HEREDOC = re.compile(
    r"(?:cat|tee)\b[^\n<>]*?(?:>\s*(?P<out1>[^\s<>|;&]+)\s*)?<<-?\s*(?P<q>['\"]?)(?P<tag>\w+)(?P=q)"
    r"(?:\s*>\s*(?P<out2>[^\s<>|;&]+))?[^\n]*\n(?P<body>.*?)\n(?P=tag)\s*(?:\n|$)", re.DOTALL)
_TEE_TARGET = re.compile(r"\btee\s+(?:-a\s+)?(?P<out>[^\s<>|;&]+)")
_ECHO = re.compile(r"^\s*(?:echo|printf)\s+(?P<body>.+?)\s*(?P<op>>>?)\s*(?P<out>[^\s<>|;&]+)\s*$")
_GIT_RESTORE = re.compile(r"^\s*git\s+(?:checkout\s+(?:HEAD\s+)?--|restore)\s+(?P<out>[^\s;&|]+)\s*$")
_PY_HEREDOC = re.compile(r"^\s*python3?\s+-\s*<<-?\s*['\"]?(?P<tag>\w+)['\"]?[^\n]*\n(?P<body>.*?)\n(?P=tag)\s*$",
                         re.DOTALL | re.MULTILINE)
_ED = re.compile(r"^\s*(?:ed|ex)\s+-s\s+(?P<out>[^\s<]+)\s*<<-?\s*['\"]?(?P<tag>\w+)['\"]?[^\n]*\n"
                 r"(?P<body>.*?)\n(?P=tag)", re.DOTALL | re.MULTILINE)
_LIMIT = 4000  # a longer command is a file written inline; its edits are not worth parsing


@dataclass(frozen=True)
class Edit:
    """A substitution: a Python regex and its replacement template; `literal` is the text the
    pattern stands for when it is a plain string (it was in the file before the edit)."""

    pattern: str
    replacement: str
    literal: str | None
    count: int = 1  # 0: every match (sed's g flag)


@dataclass(frozen=True)
class FileWrite:
    path: str
    kind: str  # content | edit | restore | append
    content_hash: str = ""  # for content and append
    content: str = ""  # the text written whole, when short enough to follow edits through it
    edit: tuple[str, str, str] | None = None  # (pattern, replacement, flags) as written, for sed/perl/ed
    edits: tuple[Edit, ...] = ()  # the same as Python regexes (any tool), those understood
    partial: bool = False  # some of the command's edits were not understood: the new version is unknown


def _hash(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()


@lru_cache(maxsize=1024)
def file_writes(command: str) -> list[FileWrite]:
    writes: list[FileWrite] = []
    for match in _HEREDOC.finditer(command):
        target = match.group("out1") or match.group("out2")
        if target is None and (tee := _TEE_TARGET.search(match.group(0).split("\n", 1)[0])):
            target = tee.group("out")
        if target:
            body = match.group("body")
            writes.append(FileWrite(target, "content", _hash(body), content=body if len(body) <= _LIMIT else ""))
    if writes or len(command) > _LIMIT:
        return writes
    if match := _PY_HEREDOC.search(command):
        return _python_edits(match.group("body"))
    if match := _ED.search(command):
        edits = [e for line in match.group("body").split("\n") if (e := _substitution(_ed_command(line), "ed"))]
        return [_edit_write(match.group("out"), edits)] if edits else []
    for segment in command_segments(command):
        writes += _segment_writes(segment)
    return writes


def _segment_writes(segment: str) -> list[FileWrite]:
    if match := _ECHO.match(segment):
        kind = "append" if match.group("op") == ">>" else "content"
        return [FileWrite(match.group("out"), kind, _hash(match.group("body").strip("'\"")))]
    if match := _GIT_RESTORE.match(segment):
        return [FileWrite(match.group("out"), "restore")]
    words = split_command(segment)
    if not words:
        return []
    if words[0] == "sed" and any(w.startswith("-i") for w in words[1:]):
        return _sed_writes(words)
    if words[0] == "perl" and any(w.startswith("-") and "i" in w and "p" in w for w in words[1:3]):
        return _perl_writes(words)
    if words[0] in ("python", "python3") and len(words) >= 3 and words[1] == "-c":
        return _python_edits(words[2])
    return []


def _sed_writes(words: list[str]) -> list[FileWrite]:
    scripts, files, extended, expect_script = [], [], False, False
    for word in words[1:]:
        if expect_script:
            scripts.append(word)
            expect_script = False
        elif word in ("-e", "--expression"):
            expect_script = True
        elif word in ("-E", "-r", "--regexp-extended"):
            extended = True
        elif word.startswith("-"):
            continue
        elif not scripts:
            scripts.append(word)
        else:
            files.append(word)
    edits, raw = [], None
    for script in scripts:
        for command in _split_script(script):
            edit = _substitution(command, "sed-E" if extended else "sed")
            edits.append(edit)
            if raw is None and (parts := _s_parts(command)):
                raw = parts
    return [_edit_write(path, edits, raw) for path in files]


def _perl_writes(words: list[str]) -> list[FileWrite]:
    script = next((w for i, w in enumerate(words) if i and words[i - 1] == "-e"), None)
    files = [w for i, w in enumerate(words[1:], 1) if not w.startswith("-") and words[i - 1] != "-e"]
    if script is None:
        return []
    edits = [_substitution(c, "perl") for c in _split_script(script)]
    return [_edit_write(path, edits, _s_parts(script.strip())) for path in files]


def _edit_write(path: str, edits: list, raw: tuple[str, str, str] | None = None) -> FileWrite:
    """An edit of `path`; when one of the edits is not understood, the file's new version is unknown."""
    return FileWrite(path, "edit", edit=raw, edits=tuple(e for e in edits if e), partial=not edits or not all(edits))


def _split_script(script: str) -> list[str]:
    """sed/perl commands of a script, split on `;` and newlines outside s/// parts (roughly)."""
    commands, current, depth, delimiter, escaped = [], "", 0, None, False
    for i, char in enumerate(script):
        if escaped:
            current += char
            escaped = False
            continue
        if char == "\\":
            current += char
            escaped = True
            continue
        if delimiter is None and char == "s" and current.strip(" 0-9,$") == "" and i + 1 < len(script):
            delimiter, depth = script[i + 1], 0
            current += char
            continue
        if delimiter is not None and char == delimiter:
            depth += 1
            if depth == 3:
                delimiter = None
        if delimiter is None and char in ";\n":
            if current.strip():
                commands.append(current.strip())
            current = ""
            continue
        current += char
    if current.strip():
        commands.append(current.strip())
    return commands


def _s_parts(command: str) -> tuple[str, str, str] | None:
    """(pattern, replacement, flags) of `s<d>a<d>b<d>flags`, escapes of the delimiter undone."""
    if len(command) < 4 or command[0] != "s" or command[1].isalnum() or command[1] in " \\\n":
        return None
    delimiter, parts, current, escaped = command[1], [], "", False
    for char in command[2:]:
        if escaped:
            current += char if char == delimiter else "\\" + char
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == delimiter and len(parts) < 2:
            parts.append(current)
            current = ""
        else:
            current += char
    if len(parts) != 2 or not re.fullmatch(r"[a-zA-Z0-9]*", current):
        return None
    return parts[0], parts[1], current


def _ed_command(line: str) -> str:
    """The s command of an ed line, without its address (`/^x$/s/a/b/`, `12s/a/b/`)."""
    line = line.strip()
    if match := re.match(r"^(?:/(?:[^/\\]|\\.)*/|\d+|\.|\$|%|,)?(s.*)$", line):
        return match.group(1)
    return line


def _substitution(command: str, dialect: str) -> Edit | None:
    parts = _s_parts(command)
    if parts is None:
        return None
    pattern, replacement, flags = parts
    if dialect in ("sed", "ed"):  # basic regular expressions: \( \) \{ \} \+ \? are the operators
        pattern = re.sub(r"\\([(){}+?|])|([(){}+?|])", lambda m: m.group(1) or "\\" + m.group(2), pattern)
        pattern = pattern[:1] + re.sub(r"(?<!\\)\^", r"\\^", pattern[1:])  # ^ anchors only at the start
        if len(pattern) > 1:
            pattern = re.sub(r"(?<!\\)\$(?!$)", r"\\$", pattern)  # $ only at the end
    replacement = re.sub(r"\$(\d)", r"\\\1", replacement) if dialect == "perl" else replacement
    replacement = replacement.replace("\\n", "\n").replace("&", "\\g<0>") if dialect != "perl" else replacement
    try:
        re.compile(pattern, re.MULTILINE)
        re.sub(pattern, replacement, "")
    except (re.error, IndexError, ValueError):
        return None
    literal = _literal(pattern)
    return Edit(pattern, replacement, literal, 0 if "g" in flags else 1)


def _literal(pattern: str) -> str | None:
    """The plain text a regex stands for (anchors dropped), None when it has operators."""
    body = pattern[1:] if pattern.startswith("^") else pattern
    body = body[:-1] if body.endswith("$") and not body.endswith("\\$") else body
    text, escaped = "", False
    for char in body:
        if escaped:
            if char.isalnum():
                return None  # \d, \s, \b ...
            text += char
            escaped = False
        elif char == "\\":
            escaped = True
        elif char in "*+?[]{}()|^$":
            return None  # an operator (a dot matches itself: the text with the dot is one the pattern finds)
        else:
            text += char
    return text or None


def _python_edits(code: str) -> list[FileWrite]:
    """`str.replace` and `re.sub` calls with literal arguments on files named by `Path('...')`
    or `open('...')` in a Python snippet."""
    if len(code) > _LIMIT or ("replace(" not in code and "sub(" not in code):
        return []
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    names: dict[str, str] = {}  # variable -> path
    writes: list[FileWrite] = []
    for statement in tree.body:
        if isinstance(statement, ast.Assign) and (path := _path_of(statement.value)):
            for target in statement.targets:
                if isinstance(target, ast.Name):
                    names[target.id] = path
        edits = [edit for node in ast.walk(statement) if isinstance(node, ast.Call) and (edit := _call_edit(node))]
        if not edits:
            continue
        paths = {names[n.id] for n in ast.walk(statement) if isinstance(n, ast.Name) and n.id in names}
        paths |= {p for n in ast.walk(statement) if isinstance(n, ast.Call) and (p := _path_of(n))}
        if len(paths) == 1:
            writes.append(FileWrite(paths.pop(), "edit", edits=tuple(edits)))
    return writes


def _path_of(node: ast.AST) -> str | None:
    if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) \
            and isinstance(node.args[0].value, str):
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if name in ("Path", "open"):
            return node.args[0].value
    return None


def _call_edit(node: ast.Call) -> Edit | None:
    func = node.func
    if not isinstance(func, ast.Attribute) or len(node.args) < 2:
        return None
    first, second = node.args[0], node.args[1]
    if not (isinstance(first, ast.Constant) and isinstance(second, ast.Constant)
            and isinstance(first.value, str) and isinstance(second.value, str)):
        return None
    if func.attr == "replace":
        return Edit(re.escape(first.value), second.value.replace("\\", "\\\\"), first.value, 0)
    if func.attr == "sub" and isinstance(func.value, ast.Name) and func.value.id == "re":
        try:
            re.compile(first.value)
            re.sub(first.value, second.value, "")
        except (re.error, IndexError, ValueError):
            return None
        return Edit(first.value, second.value, _literal(first.value), 0)
    return None


class FileVersions:
    """The version history of each file the agent wrote, as opaque version ids."""

    def __init__(self) -> None:
        self._known: dict[str, frozenset[str]] = {}  # path -> the text known of its current version
        self.history: dict[str, list[tuple[int, frozenset[str]]]] = {}  # path -> [(step, known text)]
        self._whole: dict[str, int] = {}  # path -> the step its whole text was last written (and is known)
        self._unknown = 0

    def apply(self, step: int, write: FileWrite, path: str) -> str:
        history = self.history.setdefault(path, [])
        known = self._known.get(path, frozenset())
        if write.kind != "content" and (write.kind != "edit" or not write.edits or write.partial):
            self._whole.pop(path, None)  # its whole text is no longer known
        if write.kind == "content":
            known = frozenset({write.content.strip() or "\0" + write.content_hash})
            if write.content:
                self._whole[path] = step
        elif write.kind == "restore":
            known = history[0][1] if history else frozenset()  # as the task left it: the first version seen
        elif write.kind == "append":
            known = known | {f"\0+{write.content_hash}"}
        elif not write.edits or write.partial:
            known = self._opaque()
        else:
            for edit in write.edits:
                known = self._edit(path, step, known, edit, history)
        self._known[path] = known
        history.append((step, known))
        del history[:-16]  # enough for any alternation worth seeing; a long run stays cheap
        return _version(known)

    def _opaque(self) -> frozenset[str]:
        self._unknown += 1
        return frozenset({f"\0?{self._unknown}"})

    def _edit(self, path: str, step: int, known: frozenset[str], edit: Edit,
              history: list[tuple[int, frozenset[str]]]) -> frozenset[str]:
        try:
            after = {re.sub(edit.pattern, edit.replacement, snippet, count=edit.count, flags=re.MULTILINE)
                     for snippet in known}
            before = new = None
            if edit.literal is not None:  # a plain text: compare without the line ends around it
                before = edit.literal.strip()
                new = re.sub(edit.pattern, edit.replacement, edit.literal, count=edit.count, flags=re.MULTILINE).strip()
                if after == set(known) and before:
                    after = {snippet.replace(before, new) for snippet in known}
        except (re.error, IndexError, ValueError):
            return self._opaque()
        if after != set(known) or path in self._whole:
            return frozenset(after)  # changed; or the whole text is known and the edit found nothing in it
        if not before or new is None:
            return known | self._opaque()
        # The file held the edit's text all along: every version seen so far had it.
        if not history:
            history.append((step, known | {before}))  # the version before this edit
        else:
            history[:] = [(seen, text | {before}) for seen, text in history]
        return known | {new}

    def current(self, path: str) -> str:
        return _version(self._known.get(path, frozenset()))

    def versions(self, path: str) -> list[tuple[int, str]]:
        return [(step, _version(known)) for step, known in self.history.get(path, [])]


@lru_cache(maxsize=4096)
def _version(known: frozenset[str]) -> str:
    return _hash("\n\0\n".join(sorted(known))) if known else "git"

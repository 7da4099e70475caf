"""The settings a command sets, whatever the tool: values it writes in place (`NAME = value`,
JSON `"key": value`, `cfg['key'] = value`), numbers it changes (`s/chunksize=16/chunksize=1/`,
`Sleep(500 * ...)` to `Sleep(600 * ...)`), permissions (`chmod`, `chown`, `chgrp`, `setfacl`,
`usermod -aG`) and versions it pins (`pip install 'x<10.4'`, `npm i x@2`, `go get m@v0.3.0`, the
same pin written into go.mod or package.json by `sed`). Each is a Setting(key, value, kind) with
one key whatever the tool, so the detectors can follow one setting through a run: flipped back and
forth (alternation), or tweaked again and again while the same check gives the same result
(parameter_tweak). Read from the command text, and for installs from the output too (the version
pip or go says it installed).

`check_of(command)` is what a command runs after its settings (`sed -i ... && python3 bench.py` runs
`python3 bench.py`): the re-run that shows whether a setting helped."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from adaptive_skill.spiral.files import file_writes
from adaptive_skill.spiral.intent import install_segments, is_install
from adaptive_skill.trajectory.text import command_segments, normalize_command, program, split_command

UNSET = "<unset>"
_IN_PLACE = re.compile(r"\bsed\s+-i|\bperl\s+-\S*i|write_text|\.write\(|writeFileSync|json\.dump|\bed\s+-s|\bex\s+-s")
_ASSIGN = re.compile(r"(?<![\w])(?P<name>[A-Za-z_]\w*)\s*(?::\s*\w+\s*)?=\s*"
                     r"(?P<value>-?[\w.]+|'[^'\\\n]*'|\"[^\"\\\n]*\")(?=\s*(?:[/|#'\");,]|$|\n))")
_JSON = re.compile(r"\"(?P<name>[@\w./-]+)\"\s*:\s*(?P<value>\"[^\"\\\n]*\"|-?[\w.]+)")
_ITEM = re.compile(r"\[\s*['\"](?P<name>[\w.-]+)['\"]\s*\]\s*=\s*(?P<value>-?[\w.]+|'[^'\\\n]*'|\"[^\"\\\n]*\")")
_GO_GET = re.compile(r"\bgo\s+(?:get|mod\s+edit\s+-require=?)\s*(?:-\S+\s+)*(?P<mod>[\w.-]+/[\w./-]+)@(?P<ver>\S+)")
_GO_SAID = re.compile(r"^go: (?:downloading|added|upgraded|downgraded) (?P<mod>[\w.-]+/[\w./-]+) v(?P<old>[\w.+-]+)"
                      r"(?: => v(?P<new>[\w.+-]+))?", re.MULTILINE)
_MODULE_LINE = re.compile(r"^\s*(?:require\s+)?(?P<mod>[\w.-]+\.\w+/[\w./-]+) v(?P<ver>\d[\w.+-]*)\s*$", re.MULTILINE)
_REQUIREMENT = re.compile(r"^\s*(?P<name>[A-Za-z0-9][\w.-]*)\s*(?P<ver>(?:==|~=|>=|<=|<|>)\s*[\w.*]+)\s*$",
                          re.MULTILINE)
_VERSION_LIKE = re.compile(r"^[\^~=<>v]*\d+(?:\.[\w*]+)*$|^latest$")
_DIGITS = re.compile(r"\d+")
_PERMISSIONS = {"chmod", "chown", "chgrp", "setfacl", "usermod", "gpasswd", "umask"}
_PERMISSION_WORD = re.compile(r"\b(?:" + "|".join(sorted(_PERMISSIONS)) + r")\b")
DISPLAY = {"ls", "cat", "head", "tail", "echo", "printf", "stat", "getfacl", "wc", "diff", "id", "sleep", "true", ":",
            "pwd", "grep", "which", "type", "file", "du", "df"}
_LONG = 400


@dataclass(frozen=True)
class Setting:
    key: str  # "TIMEOUT", "printWidth", "pin:pillow", "perm:/srv/backups", "num:Sleep"
    value: str
    kind: str  # value | number | perm | pin
    previous: str | None = None  # the value it had before, when the command tells (an edit's old text, pip's
    # "Found existing installation")


# Words without which a command sets nothing: a cheap test before the readers.
_MAY_SET = re.compile(r"\b(?:sed|perl|python3?|ed|ex|node|install|add|chmod|chown|chgrp|setfacl|usermod|gpasswd|umask"
                      r"|get|edit|json|write\w*|pkg)\b|\bi\b")
_NPM_PKG = re.compile(r"\bnpm\s+pkg\s+(?P<verb>set|delete)\s+(?P<args>[^;&|\n]+)")
_SED_DELETE = re.compile(r"\bsed\s+-i\S*\s+(?:-e\s+)?['\"]?[^'\"]*?/(?P<re>(?:[^/\\]|\\.)+)/d\b")


@lru_cache(maxsize=2048)
def settings_of(command: str, output: str = "") -> tuple[Setting, ...]:
    if not _MAY_SET.search(command):
        return ()
    found: dict[str, Setting] = {}
    for setting in (*_pins(command, output), *_edits(command), *_deletions(command), *_manifest(command),
                    *_permissions(command)):
        found[setting.key] = setting  # the last word on a key is what the command leaves
    return tuple(found.values())


def same_version(a: str, b: str) -> bool:
    """Two pins of the same version: `^3` and `3.6.0`, `2` and `2.30.0`, `v0.3.0` and `0.3.0`."""
    a, b = _bare(a), _bare(b)
    if a.startswith("<") or b.startswith("<"):
        return a == b
    left, right = a.split("."), b.split(".")
    return left[:len(right)] == right[:len(left)]


def _bare(version: str) -> str:
    version = version.strip().lstrip("^~=v>").removesuffix(".*")
    return version.replace("<=", "<")


# -- versions -------------------------------------------------------------------------------------

def _pins(command: str, output: str) -> list[Setting]:
    pins: list[Setting] = []
    installs = install_segments(command)
    if not installs and "go " not in command:
        return pins
    installed, replaced = _installed(output)
    for specs in installs:
        for name, spec in specs:
            version = installed.get(name) or (spec.split(",")[0] if spec else "")
            if version:
                previous = replaced.get(name)
                pins.append(Setting(f"pin:{name}", _bare(version) or version, "pin", previous and _bare(previous)))
    said = {m.group("mod"): (m.group("new") or m.group("old"), m.group("old") if m.group("new") else None)
            for m in _GO_SAID.finditer(output)}
    for match in _GO_GET.finditer(command):
        module = match.group("mod")
        module = next((m for m in said if module == m or module.startswith(m + "/")), module)
        version, previous = said.get(module, (match.group("ver"), None))
        pins.append(Setting(f"pin:{module}", _bare(version), "pin", previous and _bare(previous)))
    return pins


def _installed(output: str) -> tuple[dict[str, str], dict[str, str]]:
    """The versions an installer says it put in place (pip's `Successfully installed x-1.2`, uv's
    `+ x==1.2`), and those it replaced (`Found existing installation: x 1.1`, `- x==1.1`)."""
    found: dict[str, str] = {}
    replaced: dict[str, str] = {}
    for line in output.splitlines()[-60:]:
        if line.startswith("Successfully installed "):
            for item in line.split()[2:]:
                name, _, version = item.rpartition("-")
                if name and version[:1].isdigit():
                    found[name.lower().replace("_", "-")] = version
        elif match := re.match(r"^\s*([+-])\s*([\w.-]+)==(\S+)", line):
            (found if match.group(1) == "+" else replaced)[match.group(2).lower().replace("_", "-")] = match.group(3)
        elif match := re.match(r"^\s*Found existing installation: ([\w.-]+) (\S+)", line):
            replaced[match.group(1).lower().replace("_", "-")] = match.group(2)
    return found, replaced


# -- in-place edits ----------------------------------------------------------------------------------

def _edits(command: str) -> list[Setting]:
    settings: list[Setting] = []
    understood = False
    for write in file_writes(command):
        for edit in write.edits:
            understood = True
            before = edit.literal if edit.literal is not None else _unregex(edit.pattern)
            after = _applied(edit, before)
            settings += _changes(before, after, known_before=edit.literal is not None)
    if not understood and len(command) <= 4 * _LONG and _IN_PLACE.search(command):
        settings += [Setting(n, v, "value") for n, v in _assignments(command).items()]
    return settings


def _applied(edit, before: str) -> str:
    try:
        return re.sub(edit.pattern, edit.replacement, before, count=edit.count, flags=re.MULTILINE)
    except (re.error, IndexError, ValueError):
        return re.sub(r"\\\d|\\g<\d+>", "", edit.replacement)


def _unregex(pattern: str) -> str:
    """A regex read as the text it looks for: `chunksize=\\d+` as `chunksize=0`."""
    text = re.sub(r"\\d[+*]|\[0-9\][+*]|\\d", "0", pattern.strip("^$"))
    return re.sub(r"\\(\W)", r"\1", text)


def _changes(before: str, after: str, known_before: bool) -> list[Setting]:
    """What an edit from `before` to `after` sets: assignments and pins it writes (and removes),
    or else the numbers it changes. With `known_before` (a plain text, not a regex) the old value
    is known too."""
    old, new = _assignments(before), _assignments(after)

    def was(value: str | None) -> str | None:
        return value if known_before else None

    settings = [Setting(name, value, "value", was(old.get(name, UNSET))) for name, value in new.items()
                if old.get(name) != value]
    settings += [Setting(name, UNSET, "value", was(old[name])) for name in old if name not in new]
    olds = {m.group("mod"): m.group("ver") for m in _MODULE_LINE.finditer(before)}
    for match in _MODULE_LINE.finditer(after):
        previous = olds.get(match.group("mod"))
        settings.append(Setting(f"pin:{match.group('mod')}", _bare(match.group("ver")), "pin",
                                was(previous and _bare(previous))))
    for match in _REQUIREMENT.finditer(after):
        settings.append(Setting(f"pin:{match.group('name').lower()}", _bare(match.group("ver")), "pin"))
    if settings:
        return [_as_pin(s) for s in settings]
    if before != after and _DIGITS.search(after) and _DIGITS.sub("<n>", before) == _DIGITS.sub("<n>", after):
        masked = _DIGITS.sub("<n>", after.strip())
        name = re.search(r"([A-Za-z_]\w*)\W{0,3}<n>", masked)  # `time.Sleep(<n> * ...)` and `Sleep(<n> *` are Sleep
        return [Setting(f"num:{name.group(1) if name else masked[:80]}", " ".join(_DIGITS.findall(after)), "number",
                        was(" ".join(_DIGITS.findall(before))))]
    return []


def _as_pin(setting: Setting) -> Setting:
    """`"date-fns": "^3.6.0"` in package.json is a pin of date-fns."""
    if setting.kind == "value" and re.search(r"[a-z]-[a-z]|^@", setting.key) and _VERSION_LIKE.match(setting.value):
        previous = setting.previous and _VERSION_LIKE.match(setting.previous) and _bare(setting.previous)
        return Setting(f"pin:{setting.key.lower()}", _bare(setting.value), "pin", previous or None)
    return setting


def _assignments(text: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for pattern in (_ASSIGN, _JSON, _ITEM):
        for match in pattern.finditer(text[:4 * _LONG]):
            value = match.group("value").strip("'\"")
            if not value or any(c in value for c in "*\\") or value in (".", "..."):
                continue  # a pattern (`TIMEOUT = .*`, `\d+`), not a value
            found[match.group("name")] = value
    return found


def _deletions(command: str) -> list[Setting]:
    """`sed -i '/"type": "module",/d' package.json`: deleting the line that sets a value unsets it."""
    return [Setting(name, UNSET, "value") for match in _SED_DELETE.finditer(command)
            for name in _assignments(re.sub(r"\\(\W)", r"\1", match.group("re")))]


def _manifest(command: str) -> list[Setting]:
    """`npm pkg set type=module`, `npm pkg delete type`: values written into package.json."""
    found = []
    for match in _NPM_PKG.finditer(command):
        for arg in split_command(match.group("args")[:_LONG]):
            name, _, value = arg.partition("=")
            if match.group("verb") == "delete":
                found.append(Setting(name, UNSET, "value"))
            elif value:
                found.append(_as_pin(Setting(name, value, "value")))
    return found


# -- permissions -------------------------------------------------------------------------------------

def _permissions(command: str) -> list[Setting]:
    settings: list[Setting] = []
    if not _PERMISSION_WORD.search(command):
        return settings
    for words in _segment_words(command):
        name = words[0] if words else ""
        if name not in _PERMISSIONS:
            continue
        args = [w for w in words[1:] if w not in ("-R", "-d", "-m", "-p", "-a", "-aG", "-G", "--recursive")]
        if not args:
            continue
        target = args[-1]
        settings.append(Setting(f"perm:{target}", f"{name} {' '.join(args[:-1])}".strip(), "perm"))
    return settings


# -- what a command checks -----------------------------------------------------------------------------

def _segment_words(command: str) -> list[list[str]]:
    return [split_command(segment) for segment in command_segments(command) if len(segment) <= _LONG]


@lru_cache(maxsize=2048)
def check_of(command: str) -> str | None:
    """What the command runs after its settings, normalised: `sed -i ... && npm run check` checks
    `npm run check`; a command without settings checks itself; one that only sets or only looks
    (`chmod 770 d && ls -ld d`, `cat .prettierrc`) checks nothing."""
    segments = command_segments(command)
    last = max((i for i, segment in enumerate(segments) if _sets(segment)), default=-1)
    rest = [segment for segment in segments[last + 1:] if program(segment) not in DISPLAY]
    if any(len(segment) > _LONG for segment in rest):
        return None  # a file written inline
    return " && ".join(normalize_command(segment) for segment in rest) or None


def only_looks(command: str) -> bool:
    """Every simple command of it only shows something (`cat x`, `ls -ld d && stat d`)."""
    return all((m := _FIRST_WORD.match(segment)) is not None and m.group(1) in DISPLAY
               for segment in command_segments(command))


_FIRST_WORD = re.compile(r"^\s*([\w:.-]+)")


def _sets(segment: str) -> bool:
    first = m.group(1) if (m := _FIRST_WORD.match(segment)) else ""
    return bool(first) and (first in _PERMISSIONS or first == "install" or bool(file_writes(segment))
                            or is_install(segment) or bool(_GO_GET.search(segment)) or bool(_NPM_PKG.search(segment))
                            or bool(_IN_PLACE.search(segment)) or "<<" in segment)

"""Load tasks from disk: the Harbor layout (Terminal-Bench 2) and the older Terminal-Bench layout.

Harbor:          instruction.md, task.toml, environment/Dockerfile, tests/test.sh, solution/solve.sh
Terminal-Bench:  task.yaml, Dockerfile, run-tests.sh, tests/, solution.sh

Every problem names the task and the file. `scan_suite` loads what it can: a broken task is refused
(reported with its file and reason) and the rest of the suite still runs; `load_suite` is the strict
form for callers that need every task. Fields neither layout knows are reported once per suite. A
suite's families.toml (tasks/families.py) sets `Task.family`; a malformed one fails the whole scan.
"""

from __future__ import annotations

import dataclasses
import re
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from adaptive_skill.errors import UserError
from adaptive_skill.tasks.compose import COMPOSE_FILE, ComposeMain, ComposeProblem, read_compose
from adaptive_skill.tasks.families import read_families
from adaptive_skill.tasks.model import Env, RefusedTask, Suite, Task
from adaptive_skill.tasks.parsers import DEFAULT_PARSER, KNOWN_UNSUPPORTED, PARSERS


class TaskError(UserError):
    """A task directory is missing a file or has a malformed one."""

    def __init__(self, message: str, *, task: str | None = None, file: Path | str | None = None,
                 reason: str | None = None):
        super().__init__(message)
        self.task, self.file, self.reason = task, None if file is None else str(file), reason


def _error(task: str, file: Path | str, reason: str) -> TaskError:
    return TaskError(f"task {task}: {file}: {reason}", task=task, file=file, reason=reason)


# The fields each layout defines (Harbor task.toml, Terminal-Bench 1 task.yaml); anything else is
# reported once per suite. [metadata] is free-form in Harbor, so its keys are not checked.
_HARBOR_FIELDS: dict[str, set[str] | None] = {
    "version": None, "metadata": None, "source": None,
    "agent": {"timeout_sec", "user"},
    "verifier": {"timeout_sec", "env", "user"},
    "solution": {"env"},
    "environment": {"build_timeout_sec", "docker_image", "cpus", "memory_mb", "memory", "storage_mb", "storage",
                    "gpus", "gpu_types", "allow_internet", "env", "workdir"},
}
_TB1_FIELDS = {"instruction", "descriptions", "author_name", "author_email", "difficulty", "category", "tags",
               "parser_name", "max_agent_timeout_sec", "max_test_timeout_sec", "run_tests_in_same_shell",
               "disable_asciinema", "estimated_duration_sec", "expert_time_estimate_min",
               "junior_time_estimate_min", "allow_internet", "test_scripts"}


_MEMORY = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([KMGT]i?B?|)\s*$", re.IGNORECASE)


def load_task(path: Path, unknown: list[str] | None = None) -> Task:
    """One task. Unknown fields are appended to `unknown` (as "task.toml: [section] key") when given."""
    path = Path(path)
    if not path.is_dir():
        raise _error(path.name, path, "is not a directory")
    unknown = [] if unknown is None else unknown
    if (path / "task.toml").exists():
        return _load_harbor(path, unknown)
    if (path / "task.yaml").exists():
        return _load_terminal_bench(path, unknown)
    raise _error(path.name, path, "neither task.toml (Harbor layout) nor task.yaml (Terminal-Bench layout)")


def scan_suite(path: Path) -> Suite:
    """Every task under `path` that loads, sorted by id; the others are refused with their reason.
    Raises TaskError only when the suite is not a directory or nothing at all could be loaded."""
    path = Path(path)
    if not path.is_dir():
        raise TaskError(f"suite {path}: no such directory")
    tasks: list[Task] = []
    refused: list[RefusedTask] = []
    unknown: dict[str, list[str]] = {}
    for entry in sorted(path.iterdir()):
        if not entry.is_dir() or entry.name.startswith((".", "_")):
            continue
        found: list[str] = []
        try:
            tasks.append(load_task(entry, found))
        except TaskError as exc:
            refused.append(RefusedTask(entry.name, exc.file or str(entry), exc.reason or str(exc)))
        for name in found:
            unknown.setdefault(name, []).append(entry.name)
    if not tasks:
        if refused:
            raise TaskError("\n".join([r.line() for r in refused]
                                      + [f"suite {path}: none of its {len(refused)} task(s) could be loaded"]))
        raise TaskError(f"suite {path}: no task directories found")
    warnings = [f"unknown field {name} in {len(ids)} task(s) (e.g. {ids[0]}): ignored"
                for name, ids in sorted(unknown.items())]
    families = read_families(path, TaskError)  # the suite's families.toml, if any (tasks/families.py)
    if families:
        tasks = [dataclasses.replace(t, family=families.get(t.id)) for t in tasks]
    return Suite(path, tasks, refused, warnings)


def load_suite(path: Path) -> list[Task]:
    """All tasks under `path`, sorted by id. Raises one TaskError listing every broken task."""
    suite = scan_suite(path)
    if suite.refused:
        raise TaskError("\n".join(r.line() for r in suite.refused))
    return suite.tasks


def find_task(suite: list[Task], task_id: str) -> Task:
    for task in suite:
        if task.id == task_id:
            return task
    raise TaskError(f"no task {task_id!r} in the suite")


# -- Harbor ------------------------------------------------------------------------------------


def _load_harbor(path: Path, unknown: list[str]) -> Task:
    name = path.name
    meta_file = path / "task.toml"
    data = _parse(name, meta_file, tomllib.loads, tomllib.TOMLDecodeError, lambda exc: f"TOML: {exc}")
    instruction = _read_required(name, path / "instruction.md")
    _require_file(name, path / "tests" / "test.sh")
    solution = path / "solution" / "solve.sh"

    fields = _Fields(name, meta_file, data)
    metadata = fields.section("metadata")
    agent = fields.section("agent")
    verifier = fields.section("verifier")
    environment = fields.section("environment")
    solution_section = fields.section("solution")
    for key, value in data.items():
        allowed = _HARBOR_FIELDS.get(key, set())
        if key not in _HARBOR_FIELDS:
            unknown.append(f"task.toml: {key}")
        elif allowed is not None and isinstance(value, dict):
            unknown.extend(f"task.toml: [{key}] {inner}" for inner in value if inner not in allowed)
    docker_image = fields.optional_text(environment, "docker_image")
    dockerfile = path / "environment" / "Dockerfile"
    if docker_image is None:
        _require_file(name, dockerfile)
    memory_mb = fields.number(environment, "memory_mb", None, integer=True)
    if memory_mb is None and "memory" in environment:
        memory_mb = _parse_memory(name, meta_file, environment["memory"])
    return Task(
        id=name, path=path, layout="harbor", instruction=instruction, **fields.labels(metadata),
        agent_timeout_sec=fields.number(agent, "timeout_sec", 600.0),
        verifier_timeout_sec=fields.number(verifier, "timeout_sec", 180.0),
        build_timeout_sec=fields.number(environment, "build_timeout_sec", 600.0),
        cpus=fields.number(environment, "cpus", 1.0),
        memory_mb=int(memory_mb or 2048),
        allow_internet=fields.flag(environment, "allow_internet", False),
        environment_dir=path / "environment", dockerfile=dockerfile,
        tests_dir=path / "tests", test_script="test.sh",
        solution_script=solution if solution.is_file() else None,
        docker_image=docker_image,
        workdir=fields.path(environment, "workdir"),
        environment_env=fields.env(environment, "environment.env"),
        verifier_env=fields.env(verifier, "verifier.env"),
        solution_env=fields.env(solution_section, "solution.env"),
        verifier_user=fields.optional_text(verifier, "user"),
        agent_user=fields.optional_text(agent, "user"),
    )


# -- Terminal-Bench (older) ----------------------------------------------------------------------


def _load_terminal_bench(path: Path, unknown: list[str]) -> Task:
    name = path.name
    meta_file = path / "task.yaml"
    data = _parse(name, meta_file, yaml.safe_load, yaml.YAMLError, _yaml_where)
    if not isinstance(data, dict):
        raise _error(name, meta_file, "must be a mapping with an 'instruction' key")
    unknown.extend(f"task.yaml: {key}" for key in data if key not in _TB1_FIELDS)
    compose = ComposeMain(path, path / "Dockerfile", None, (), None, ())
    if (path / COMPOSE_FILE).exists():
        try:
            compose = read_compose(path, unknown)
        except ComposeProblem as exc:
            raise _error(name, path / COMPOSE_FILE, str(exc)) from None
    if compose.docker_image is None:
        _require_file(name, compose.dockerfile)
    _require_file(name, path / "run-tests.sh")
    fields = _Fields(name, meta_file, data)
    instruction = fields.text(data, "instruction", "")
    if not instruction.strip():
        # Some Terminal-Bench tasks keep several descriptions; take the base one.
        descriptions = data.get("descriptions")
        if isinstance(descriptions, list) and descriptions and isinstance(descriptions[0], dict):
            instruction = str(descriptions[0].get("description", ""))
    if not instruction.strip():
        raise _error(name, meta_file, "'instruction' is missing or empty")
    parser_name = fields.optional_text(data, "parser_name") or DEFAULT_PARSER  # TB1's default
    if parser_name not in PARSERS:
        why = f"TB1's {parser_name} parser is not implemented: {KNOWN_UNSUPPORTED[parser_name]}" \
            if parser_name in KNOWN_UNSUPPORTED else f"parser_name {parser_name!r} is not a TB1 parser"
        raise _error(name, meta_file, f"{why} (supported: {', '.join(sorted(PARSERS))})")
    solution = path / "solution.sh"
    return Task(
        id=name, path=path, layout="terminal-bench", instruction=instruction, **fields.labels(data),
        agent_timeout_sec=fields.number(data, "max_agent_timeout_sec", 600.0),
        verifier_timeout_sec=fields.number(data, "max_test_timeout_sec", 180.0),
        environment_dir=compose.environment_dir or path, dockerfile=compose.dockerfile or path / "Dockerfile",
        docker_image=compose.docker_image, environment_env=compose.env, workdir=compose.workdir,
        files_in=compose.files_in, services=compose.services,
        tests_dir=path / "tests", test_script="run-tests.sh",
        solution_script=solution if solution.is_file() else None,
        allow_internet=fields.flag(data, "allow_internet", False),
        parser_name=parser_name,
        run_tests_in_same_shell=fields.flag(data, "run_tests_in_same_shell", False),
    )


# -- helpers -------------------------------------------------------------------------------------


def _parse(task: str, file: Path, parse: Callable[[str], Any], syntax_error: type[Exception],
           describe: Callable[[Any], str]) -> Any:
    """A metadata file parsed; unreadable or malformed is one TaskError naming the task and file."""
    try:
        return parse(_read_text(task, file))
    except syntax_error as exc:
        raise _error(task, file, f"malformed {describe(exc)}") from None


def _yaml_where(exc: Any) -> str:
    mark = getattr(exc, "problem_mark", None)
    return f"YAML (line {mark.line + 1})" if mark else "YAML"


def _read_text(task: str, file: Path) -> str:
    try:
        return file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise _error(task, file, f"cannot read: {exc}") from None


def _require_file(task: str, file: Path) -> Path:
    if not file.is_file():
        raise TaskError(f"task {task}: missing {file}", task=task, file=file, reason="missing")
    return file


def _read_required(task: str, file: Path) -> str:
    text = _read_text(task, _require_file(task, file))
    if not text.strip():
        raise TaskError(f"task {task}: {file} is empty", task=task, file=file, reason="empty")
    return text


def _parse_memory(task: str, file: Path, value: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    match = _MEMORY.match(str(value))
    if not match:
        raise _error(task, file, f"environment.memory {value!r} is not a size like '2G'")
    number, unit = float(match.group(1)), match.group(2).upper()[:1]
    factor = {"": 1 / (1024 * 1024), "K": 1 / 1024, "M": 1, "G": 1024, "T": 1024 * 1024}[unit]
    return max(1, int(number * factor))


class _Fields:
    """Typed reads from a parsed metadata file, each error naming the task, file and key."""

    def __init__(self, task: str, file: Path, data: dict[str, Any]):
        self.task, self.file, self.data = task, file, data

    def _fail(self, key: str, expected: str, value: Any) -> TaskError:
        return _error(self.task, self.file, f"{key} must be {expected}, got {value!r}")

    def section(self, key: str) -> dict[str, Any]:
        value = self.data.get(key, {})
        if not isinstance(value, dict):
            raise self._fail(f"[{key}]", "a table", value)
        return value

    def text(self, data: dict[str, Any], key: str, default: str) -> str:
        value = data.get(key, default)
        if not isinstance(value, str):
            raise self._fail(key, "a string", value)
        return value

    def optional_text(self, data: dict[str, Any], key: str) -> str | None:
        value = data.get(key)
        if value is None:
            return None
        if not isinstance(value, str) or not value.strip():
            raise self._fail(key, "a non-empty string", value)
        return value.strip()

    def path(self, data: dict[str, Any], key: str) -> str | None:
        value = self.optional_text(data, key)
        if value is not None and not value.startswith("/"):
            raise self._fail(key, "an absolute path in the container", value)
        return value

    def env(self, data: dict[str, Any], key: str) -> Env:
        value = data.get("env", {})
        if not isinstance(value, dict):
            raise self._fail(f"[{key}]", "a table of NAME = value", value)
        pairs = []
        for name, item in value.items():
            if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
                raise self._fail(f"{key}.{name}", "a variable name (letters, digits, _)", name)
            if isinstance(item, bool) or not isinstance(item, str | int | float):
                raise self._fail(f"{key}.{name}", "a string or number", item)
            pairs.append((name, str(item)))
        return tuple(pairs)

    def number(self, data: dict[str, Any], key: str, default: float | None, integer: bool = False) -> Any:
        value = data.get(key, default)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
            raise self._fail(key, "a positive number", value)
        if integer and float(value) != int(value):
            raise self._fail(key, "a whole number", value)
        return int(value) if integer else float(value)

    def flag(self, data: dict[str, Any], key: str, default: bool) -> bool:
        value = data.get(key, default)
        if not isinstance(value, bool):
            raise self._fail(key, "true or false", value)
        return value

    def labels(self, data: dict[str, Any]) -> dict[str, Any]:
        """category, difficulty and tags: the same keys and defaults in both layouts."""
        return {"category": self.text(data, "category", "uncategorized"),
                "difficulty": self.text(data, "difficulty", "unknown"), "tags": self.tags(data)}

    def tags(self, data: dict[str, Any]) -> tuple[str, ...]:
        value = data.get("tags", [])
        if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
            raise self._fail("tags", "a list of strings", value)
        return tuple(value)

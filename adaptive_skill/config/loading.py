"""Loading a config: YAML read with each key's line, `--set KEY.SUB=VALUE` overrides, `${VAR}` and
`${VAR:-default}` expanded from the environment (values of secret-looking variables remembered, to be
redacted), validation into EvolveConfig with one line per problem, relative paths resolved against
the config file's directory."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from adaptive_skill.config.base import set_path
from adaptive_skill.config.defaults import fill_defaults
from adaptive_skill.config.run import EvolveConfig
from adaptive_skill.errors import ConfigError

_ENV_PATTERN = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")
_SECRET_NAME = re.compile(r"KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL", re.IGNORECASE)


def load_config(path: str | Path | None, overrides: list[str] | tuple[str, ...] = (),
                stored: dict[str, Any] | None = None) -> EvolveConfig:
    """Load, expand, override and validate. Raises ConfigError with one line per problem. `stored`: a
    resumed run's config, whose values of the keys with dependent defaults (config/defaults.py) win
    where the config leaves them out."""
    source = Path(path) if path is not None else None
    raw: dict[str, Any] = {}
    lines: dict[str, int] = {}
    if source is not None:
        raw, lines = _read_yaml(source)
    where = str(source) if source else "<defaults>"

    set_paths: dict[str, str] = {}
    for item in overrides:
        key, value = _parse_override(item)
        try:
            set_path(raw, key.split("."), value, create=True)
        except (TypeError, KeyError):
            raise ConfigError(f"--set {item}: '{key}' does not name a config key") from None
        set_paths[key] = item

    secret_paths: set[str] = set()
    raw = _expand_env(raw, (), where, lines, secret_paths)

    raw = fill_defaults(raw, stored)
    try:
        config = EvolveConfig.model_validate(raw)
    except ValidationError as exc:
        raise ConfigError(_format_errors(exc, where, lines, set_paths)) from None
    config._secret_paths = secret_paths
    config._source = source
    if source is not None:
        base = source.resolve().parent
        for name in ("workspace", "suite", "runs_dir"):
            value = getattr(config.paths, name)
            if not value.is_absolute():
                setattr(config.paths, name, (base / value).resolve())
        curve = config.curve  # its workspaces too (config/curve.py)
        if curve.expert is not None and not curve.expert.is_absolute():
            curve.expert = (base / curve.expert).resolve()
        curve.workspaces = [p if p.is_absolute() else (base / p).resolve() for p in curve.workspaces]
    return config


def _read_yaml(source: Path) -> tuple[dict[str, Any], dict[str, int]]:
    try:
        text = source.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{source}: no such config file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{source}: cannot read: {exc}") from None
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = f":{mark.line + 1}" if mark else ""
        raise ConfigError(f"{source}{line}: YAML syntax error: {exc.problem or exc.context}") from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"{source}: YAML error: {exc}") from None
    if data is None:
        return {}, {}
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: the top level must be a mapping of keys, not {type(data).__name__}")
    lines: dict[str, int] = {}
    _collect_lines(node, (), lines)
    return data, lines


def _collect_lines(node: yaml.Node | None, prefix: tuple[str, ...], out: dict[str, int]) -> None:
    """Map each key path (dotted) to its 1-based line, so errors can point into the file."""
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            path = (*prefix, str(key_node.value))
            out[".".join(path)] = key_node.start_mark.line + 1
            _collect_lines(value_node, path, out)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            path = (*prefix, str(index))
            out[".".join(path)] = item.start_mark.line + 1
            _collect_lines(item, path, out)


def _parse_override(item: str) -> tuple[str, Any]:
    key, sep, value = item.partition("=")
    key = key.strip()
    if not sep or not key or any(not part for part in key.split(".")):
        raise ConfigError(f"--set {item}: expected KEY.SUB=VALUE")
    try:
        parsed = yaml.safe_load(value) if value.strip() else ""
    except yaml.YAMLError:
        parsed = value  # not YAML: take the text as it is
    return key, parsed


def _expand_env(value: Any, path: tuple[str, ...], where: str, lines: dict[str, int],
                secret_paths: set[str]) -> Any:
    if isinstance(value, dict):
        return {k: _expand_env(v, (*path, str(k)), where, lines, secret_paths) for k, v in value.items()}
    if isinstance(value, list):
        return [_expand_env(v, (*path, str(i)), where, lines, secret_paths) for i, v in enumerate(value)]
    if not isinstance(value, str) or "${" not in value:
        return value

    dotted = ".".join(path)

    def substitute(match: re.Match[str]) -> str:
        name, default = match.group(1), match.group(2)
        if _SECRET_NAME.search(name):
            secret_paths.add(dotted)
        if name in os.environ:
            return os.environ[name]
        if default is not None:
            return default
        raise ConfigError(f"{_locate(where, lines, dotted)}: {dotted}: environment variable {name} is not set")

    return _ENV_PATTERN.sub(substitute, value)


def _locate(where: str, lines: dict[str, int], dotted: str) -> str:
    line = lines.get(dotted)
    return f"{where}:{line}" if line else where


def _format_errors(exc: ValidationError, where: str, lines: dict[str, int], set_paths: dict[str, str]) -> str:
    problems = []
    for error in exc.errors():
        dotted = ".".join(str(part) for part in error["loc"])
        if error["type"] == "extra_forbidden":
            message = "unknown key"
        else:
            message = error["msg"].removeprefix("Value error, ")
            if "input" in error and error["type"] not in ("missing",):
                message += f" (got {error['input']!r})"
        if dotted in set_paths:
            problems.append(f"--set {set_paths[dotted]}: {message}")
        elif dotted:
            problems.append(f"{_locate(where, lines, dotted)}: {dotted}: {message}")
        else:
            problems.append(f"{where}: {message}")
    return "\n".join(problems)

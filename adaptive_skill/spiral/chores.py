"""Chores: kinds of work an agent slides into when it drifts from its task, each step of them
healthy in itself: type checking, linting, formatting, CI and hooks, containers, packaging and
project layout, docs, logging setup and rotation, monitoring, deployment tooling, rewrites and
restructuring, dependency bumps. A step is a
chore of a kind when its thought or command names it (`mypy`, `pre-commit`, `Dockerfile`, "while
I'm here, restructure ..."); an instruction asks for the kinds it names ("convert to TypeScript,
with eslint and prettier"), and those are the task's own work, not drift."""

from __future__ import annotations

import re
from functools import lru_cache

_KINDS = {
    "typecheck": r"\b(?:mypy|pyright|pytype|tsc|typescript|tsconfig(?:\.json)?|py\.typed)\b"
                 r"|\btype[- ]?(?:hints?|annotations?|check\w*|stubs?)\b|\btype (?:the|it|them)\b|\bannotat\w+",
    "lint": r"\b(?:ruff|flake8|pylint|pyflakes|eslint|tslint|golangci(?:-lint)?|shellcheck|hadolint|clippy|rubocop"
            r"|staticcheck|revive|gosec)\b|\blint(?:er|ers|ing|s)?\b",
    "format": r"\b(?:black|isort|prettier|gofmt|goimports|shfmt|rustfmt|clang-format|autopep8|yapf|editorconfig)\b"
              r"|\bformat(?:ter|ting)\b|\bre-?format\w*",
    "ci": r"\.github/workflows|\bgitlab-ci\b|\bcircleci\b|\bjenkinsfile\b|\bci (?:workflow|pipeline|config\w*|jobs?)\b"
          r"|\bpre-commit\b|\bhusky\b|\blefthook\b|\bgit hooks?\b",
    "container": r"\bdockerfile\b|\bdocker(?:-compose)?\b|\bcompose\.ya?ml\b|\bkubernetes\b|\bhelm\b|\bk8s\b",
    "packaging": r"\bpyproject(?:\.toml)?\b|\bsetup\.(?:py|cfg)\b|\bpoetry\b|\bsrc[/ ]layout\b|\bconsole[_ ]scripts?\b"
                 r"|\bentry[_ ]points?\b|\bpip install -e\b|\btox(?:\.ini)?\b|\bnox\b|\bmakefile\b"
                 r"|\bpackag(?:e|ing) (?:it|the)\b",
    "docs": r"\b(?:sphinx|mkdocs|pdoc|docstrings?|doc comments?|openapi|swagger|api docs?)\b",
    "logging": r"\blog(?:ging)? (?:setup|config\w*|module|package)\b|\blogging\b|\bslog\b|\blogconf\b|\blogrotate\b"
               r"|\blog rotation\b",
    "observability": r"\b(?:prometheus|grafana|opentelemetry|otel|datadog|sentry|statsd|jaeger)\b|\bexporters?\b"
                     r"|\bdashboards?\b|\balert(?:ing)? rules?\b|\bmetrics endpoint\b|\bhealth ?checks? endpoint\b",
    "deploy": r"\b(?:ansible(?:-playbook)?|terraform|puppet|chef|vagrant|systemd units?|playbooks?)\b|\.service\b"
              r"|\bunit files?\b|\bdeploy(?:ment)? scripts?\b",
    "restructure": r"\brefactor\w*|\brestructur\w*|\breorganiz\w*|\bclean(?:ing)? up\b|\bmoderni[sz]\w*|\brewrit\w+"
                   r"|\bconvert\w* (?:the|it|to|from)\b|\bmigrat\w* (?:to|the|from)\b|\bwhile i'?m (?:here|at it)\b",
    "deps": r"\bbump\w*\b|\bupgrade (?:all|the|dev)\b|\blatest versions?\b",
}
_PATTERN = re.compile("|".join(f"(?P<{kind}>{pattern})" for kind, pattern in _KINDS.items()))  # over lower case


# Stems one of which every chore pattern holds: text without any of them names no chore (a cheap test first).
_STEMS = ("mypy", "pyright", "pytype", "tsc", "typescript", "tsconfig", "typed", "type", "annotat", "ruff", "flake8",
          "lint", "golangci", "shellcheck", "clippy", "rubocop", "staticcheck", "revive", "gosec", "black", "isort",
          "prettier", "fmt", "goimports", "autopep8", "yapf", "editorconfig", "format", "workflows", "gitlab-ci",
          "circleci", "jenkinsfile", "ci ", "pre-commit", "husky", "lefthook", "hook", "docker", "compose",
          "kubernetes", "helm", "k8s", "pyproject", "setup.", "poetry", "layout", "console", "entry",
          "pip install -e", "tox", "nox", "makefile", "packag", "sphinx", "mkdocs", "pdoc", "docstring",
          "doc comment", "openapi", "swagger", "api doc", "log", "prometheus", "grafana", "opentelemetry", "otel",
          "datadog", "sentry", "statsd", "jaeger", "exporter", "dashboard", "alert", "metrics", "health", "ansible",
          "terraform", "puppet", "chef", "vagrant", "systemd", "playbook", ".service", "unit file", "deploy",
          "refactor", "restructur", "reorganiz", "clean", "moderni", "rewrit", "convert", "migrat", "while i",
          "bump", "upgrade", "latest")


@lru_cache(maxsize=4096)
def chores(text: str) -> frozenset[str]:
    """The kinds of chore a text names (an instruction, or a step's thought and command)."""
    text = text[:2000].lower()
    if not any(stem in text for stem in _STEMS):
        return frozenset()
    return frozenset(match.lastgroup for match in _PATTERN.finditer(text) if match.lastgroup)

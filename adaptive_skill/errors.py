"""Errors a user can cause. The CLI prints them as one line and exits with code 2."""


class UserError(Exception):
    """Bad input from the user: a config, a file, a task, a missing engine. Message is one line."""

    exit_code = 2


class ConfigError(UserError):
    """The config file or an override is invalid."""


class SkillError(UserError):
    """A SKILL.md or skill directory is invalid."""


class VersioningError(UserError):
    """A git operation on the workspace was refused (unknown tag, tag exists, ...)."""

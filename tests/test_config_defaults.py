"""The defaults that depend on other keys (config/defaults.py): a config that leaves them out runs the
setup that learned where it can work, a key it sets is never touched, and a resumed run keeps what
its stored config.yaml says."""

import argparse
from pathlib import Path

import pytest
import yaml

from adaptive_skill.commands.common import load_config_from_args
from adaptive_skill.config import EvolveConfig, load_config
from adaptive_skill.errors import ConfigError, UserError


def _load(tmp_path: Path, text: str, stored: dict | None = None) -> EvolveConfig:
    path = tmp_path / "c.yaml"
    path.write_text(text)
    return load_config(path, stored=stored)


def _setup(c: EvolveConfig) -> tuple:
    return (c.evolver.mode, c.explore.passes, c.explore.reflect, c.explore.agree, c.skill_in_prompt_tokens)


def test_a_bare_config_runs_the_learning_setup(tmp_path):
    # the default agent is embedded (local/...), the sandbox Docker, the run label-free
    assert EvolveConfig().models.agent.model.startswith("local/")
    assert _setup(_load(tmp_path, "")) == ("distill", 2, True, True, 300)
    assert _setup(EvolveConfig()) == ("distill", 2, True, True, 300)  # one table for both ways in


def test_each_part_is_on_only_where_it_can_work(tmp_path):
    # agreement compares files two attempts left: Docker only, label-free only
    assert _setup(_load(tmp_path, "sandbox: {kind: local}\n")) == ("distill", 2, True, False, 300)
    assert _setup(_load(tmp_path, "trajectory_only: false\n")) == ("distill", 2, True, False, 300)
    # distilled skills were measured placed in the prompt: so for an API model too, unless it says 0
    api = "models: {agent: {model: openai/gpt-4o}}\n"
    assert _setup(_load(tmp_path, api)) == ("distill", 2, True, True, 300)
    assert _setup(_load(tmp_path, api + "skill_in_prompt_tokens: 0\n")) == ("distill", 2, True, True, 0)
    # another evolver: no explore phase, so no reflect or agreement, and no skill placed
    assert _setup(_load(tmp_path, "evolver: {mode: single}\n")) == ("single", 0, False, False, 0)
    assert _setup(_load(tmp_path, "evolver: {mode: distill}\nexplore: {passes: 0}\n")) == (
        "distill", 0, False, False, 300)


@pytest.mark.parametrize("text, key, value", [
    ("evolver: {mode: structured}\n", "evolver.mode", "structured"),
    ("explore: {passes: 5}\n", "explore.passes", 5),
    ("explore: {reflect: false}\n", "explore.reflect", False),
    ("explore: {agree: false}\n", "explore.agree", False),
    ("skill_in_prompt_tokens: 150\n", "skill_in_prompt_tokens", 150),
    ("skill_in_prompt_tokens: 120\nmodels: {agent: {model: openai/gpt-4o}}\n", "skill_in_prompt_tokens", 120),
])
def test_a_key_the_config_sets_is_never_touched(tmp_path, text, key, value):
    config = _load(tmp_path, text)
    node = config
    for part in key.split("."):
        node = getattr(node, part)
    assert node == value


def test_a_set_key_that_cannot_work_is_still_refused(tmp_path):
    # the defaults never switch agreement on where it cannot work; a config that asks for it is told why
    with pytest.raises(ConfigError, match="agree"):
        _load(tmp_path, "sandbox: {kind: local}\nexplore: {agree: true}\n")


def test_a_stored_config_wins_where_the_config_is_silent(tmp_path):
    stored = {"evolver": {"mode": "single"}, "explore": {"passes": 0, "reflect": False, "agree": False},
              "skill_in_prompt_tokens": 0}
    assert _setup(_load(tmp_path, "", stored=stored)) == ("single", 0, False, False, 0)
    # but never over what the config says now
    assert _setup(_load(tmp_path, "explore: {passes: 1}\n", stored=stored)) == ("single", 1, False, False, 0)


def _args(config: Path, resume: Path | None) -> argparse.Namespace:
    return argparse.Namespace(config=str(config), overrides=[], resume=str(resume) if resume else None)


def test_resume_reads_the_runs_stored_config(tmp_path):
    # a run started when the defaults were otherwise: its config.yaml holds every key, as the run wrote it
    run = tmp_path / "run"
    run.mkdir()
    older = EvolveConfig(evolver={"mode": "single"}, explore={"passes": 0, "reflect": False, "agree": False},
                         skill_in_prompt_tokens=0)
    (run / "config.yaml").write_text(older.to_yaml())
    config = tmp_path / "c.yaml"
    config.write_text("batch_size: 4\n")
    assert _setup(load_config_from_args(_args(config, run))) == ("single", 0, False, False, 0)
    assert _setup(load_config_from_args(_args(config, None))) == ("distill", 2, True, True, 300)


@pytest.mark.parametrize("text", ["evolver: [\n", "just a string\n"])
def test_a_stored_config_that_is_broken_or_not_a_mapping(tmp_path, text):
    run = tmp_path / "run"
    run.mkdir()
    (run / "config.yaml").write_text(text)
    config = tmp_path / "c.yaml"
    config.write_text("")
    if text.startswith("evolver"):
        with pytest.raises(UserError, match=r"config\.yaml: unreadable"):
            load_config_from_args(_args(config, run))
    else:  # a run whose config is not a mapping is not resumed on guesses
        with pytest.raises(UserError, match=r"config\.yaml: not a mapping of settings"):
            load_config_from_args(_args(config, run))


def test_a_stored_config_cannot_smuggle_other_keys(tmp_path):
    # only the table's keys are read from a stored config; its batch and sandbox stay the config's
    stored = yaml.safe_load(EvolveConfig(batch_size=3, sandbox={"kind": "local"}).to_yaml())
    config = _load(tmp_path, "", stored=stored)
    assert (config.batch_size, config.sandbox.kind) == (10, "docker")
    assert _setup(config) == ("distill", 2, True, False, 300)  # the stored run's agreement: off


def test_assigning_a_field_keeps_every_section_as_it_is(tmp_path):
    # the config validates on assignment: the table must not turn a settled section back into a mapping
    from adaptive_skill.config import EvolverConfig

    config = _load(tmp_path, "evolver: {mode: single}\n")
    config.seed = 3
    config.skill_in_prompt_tokens = 50
    assert (config.seed, config.evolver.samples) == (3, 1)
    assert _setup(config) == ("single", 0, False, False, 50)
    given = EvolveConfig(evolver=EvolverConfig(mode="single"))  # a section given as a model is read
    assert _setup(given) == ("single", 0, False, False, 0)

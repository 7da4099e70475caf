"""EvolveConfig: defaults from the seed table, strict validation, overrides, env expansion, redaction."""

from pathlib import Path

import pytest

from adaptive_skill.config import REDACTED, EvolveConfig, load_config
from adaptive_skill.errors import ConfigError

REPO = Path(__file__).resolve().parents[1]


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "c.yaml"
    path.write_text(text)
    return path


def test_seed_defaults():
    c = EvolveConfig()
    assert (c.trajectory_only, c.max_skills, c.evolve_skills, c.evolve_prompts, c.evolve_memory) == (
        True, 5, True, True, True)
    assert (c.protect_skills, c.solver_proposed, c.prompt_only) == (False, False, False)
    assert (c.batch_size, c.holdout_ratio, c.egl_threshold, c.egl_window) == (10, 0.2, 0.05, 3)
    for role in ("agent", "judge", "evolver", "proposer"):
        model = getattr(c.models, role)
        assert model.model and model.max_tokens > 0 and model.timeout_sec > 0
    assert c.models.embedder.model == "lexical"


@pytest.mark.parametrize(("name", "suite"), [("cycle.yaml", "terminal-core"), ("quickstart.yaml", "terminal-easy")])
def test_shipped_configs_load(name, suite):
    config = load_config(REPO / "configs" / name)
    assert config.paths.workspace == REPO / "workspace"
    assert config.paths.suite == REPO / "benchmarks" / suite


def test_empty_file_gives_defaults(tmp_path):
    assert load_config(write(tmp_path, "")).batch_size == 10


def test_unknown_key_names_file_key_and_line(tmp_path):
    path = write(tmp_path, "batch_size: 3\ngating:\n  enabled: true\n  margins: 0.1\n")
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert str(err.value) == f"{path}:4: gating.margins: unknown key"


@pytest.mark.parametrize("text,key", [
    ("holdout_ratio: 1.5\n", "holdout_ratio"),
    ("batch_size: 0\n", "batch_size"),
    ("batch_size: ten\n", "batch_size"),
    ("models:\n  judge:\n    temperature: 3\n", "models.judge.temperature"),
    ("gating:\n  score: vibes\n", "gating.score"),
    ("sandbox:\n  kind: vm\n", "sandbox.kind"),
])
def test_bad_values_name_the_key(tmp_path, text, key):
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert f"{path}:" in str(err.value) and f" {key}: " in str(err.value)
    assert "\n" not in str(err.value)


def test_every_problem_listed(tmp_path):
    with pytest.raises(ConfigError) as err:
        load_config(write(tmp_path, "batch_size: 0\nholdout_ratio: 2\nnope: 1\n"))
    assert len(str(err.value).splitlines()) == 3


def test_yaml_syntax_error_names_line(tmp_path):
    path = write(tmp_path, "batch_size: 3\nmodels:\n  agent: [\n")
    with pytest.raises(ConfigError) as err:
        load_config(path)
    message = str(err.value)
    assert message.startswith(f"{path}:") and "YAML syntax error" in message


def test_top_level_must_be_mapping(tmp_path):
    with pytest.raises(ConfigError, match="top level must be a mapping"):
        load_config(write(tmp_path, "- a\n- b\n"))


def test_missing_file(tmp_path):
    with pytest.raises(ConfigError, match="no such config file"):
        load_config(tmp_path / "nope.yaml")


def test_overrides_parse_yaml_values_and_create_sections(tmp_path):
    config = load_config(write(tmp_path, "batch_size: 3\n"), [
        "batch_size=7", "gating.max_rounds=5", "models.agent.model=openai/gpt-4o", "sandbox.allow_network=true"])
    assert config.batch_size == 7 and config.gating.max_rounds == 5
    assert config.models.agent.model == "openai/gpt-4o" and config.sandbox.allow_network is True


@pytest.mark.parametrize("item,fragment", [
    ("gating.nope=1", "--set gating.nope=1: unknown key"),
    ("batch_size=-1", "--set batch_size=-1: Input should be greater than 0"),
    ("novalue", "--set novalue: expected KEY.SUB=VALUE"),
    ("batch_size.deeper=1", "--set batch_size.deeper=1: 'batch_size.deeper' does not name a config key"),
])
def test_bad_overrides(tmp_path, item, fragment):
    with pytest.raises(ConfigError) as err:
        load_config(write(tmp_path, "batch_size: 3\n"), [item])
    assert fragment in str(err.value)


def test_env_expansion_and_redaction(tmp_path, monkeypatch):
    monkeypatch.setenv("MY_API_KEY", "sk-very-secret")
    monkeypatch.setenv("JUDGE_BASE_TOKEN", "tok-123")
    monkeypatch.setenv("JUDGE_MODEL", "openai/gpt-4o-mini")
    path = write(tmp_path, "models:\n  agent:\n    api_key: ${MY_API_KEY}\n"
                           "  judge:\n    model: ${JUDGE_MODEL}\n    api_base: http://x/${JUDGE_BASE_TOKEN}\n")
    config = load_config(path)
    assert config.models.agent.api_key == "sk-very-secret"
    assert config.models.judge.model == "openai/gpt-4o-mini"
    dumped = config.to_yaml()
    assert "sk-very-secret" not in dumped and "tok-123" not in dumped
    assert REDACTED in dumped and "openai/gpt-4o-mini" in dumped  # non-secret values stay visible


def test_env_default_and_missing(tmp_path, monkeypatch):
    monkeypatch.delenv("NOT_SET_ANYWHERE", raising=False)
    config = load_config(write(tmp_path, "models:\n  agent:\n    model: ${NOT_SET_ANYWHERE:-local/x}\n"))
    assert config.models.agent.model == "local/x"
    path = write(tmp_path, "models:\n  agent:\n    model: ${NOT_SET_ANYWHERE}\n")
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert str(err.value) == f"{path}:3: models.agent.model: environment variable NOT_SET_ANYWHERE is not set"


def test_api_key_written_literally_is_still_redacted(tmp_path):
    config = load_config(write(tmp_path, "models:\n  evolver:\n    api_key: sk-literal\n"))
    assert "sk-literal" not in config.to_yaml()


def test_relative_paths_resolve_against_config_dir(tmp_path):
    (tmp_path / "sub").mkdir()
    path = tmp_path / "sub" / "c.yaml"
    path.write_text("paths:\n  workspace: ../ws\n  runs_dir: /abs/runs\n")
    config = load_config(path)
    assert config.paths.workspace == tmp_path / "ws" and config.paths.runs_dir == Path("/abs/runs")


def test_prompt_only_requires_prompt_evolution(tmp_path):
    with pytest.raises(ConfigError, match="prompt_only needs evolve_prompts"):
        load_config(write(tmp_path, "prompt_only: true\nevolve_prompts: false\n"))


@pytest.mark.parametrize("text, fragment", [
    ("evolver:\n  mode: structured\n  samples: 3\n", "needs models.evolver.temperature > 0"),
    ("evolver:\n  samples: 3\nmodels:\n  evolver:\n    temperature: 0.7\n", "needs evolver.mode: structured"),
    ("evolver:\n  mode: structured\n  samples: 9\n", "evolver.samples"),
])
def test_evolver_samples_need_the_structured_mode_and_a_temperature(tmp_path, text, fragment):
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert f"{path}:" in str(err.value) and fragment in str(err.value) and "\n" not in str(err.value)
    ok = load_config(write(tmp_path, "evolver:\n  mode: structured\n  samples: 3\nmodels:\n  evolver:\n"
                                     "    model: local/qwen2.5-coder-1.5b\n    temperature: 0.7\n"))
    assert ok.evolver.samples == 3

"""EvolveConfig: the one validated configuration object, loaded from YAML and passed down.

Loading is strict: unknown keys, wrong types and out-of-range values are errors that name the
file, the key path and, where known, the line. `${VAR}` and `${VAR:-default}` expand from the
environment so API keys never sit in config files; values from secret-looking variables and
every `api_key` are redacted whenever a config is written out.

    run.py        EvolveConfig (the engine's switches, the run's shape) and PathsConfig
    models.py     the model of each role and the embedder
    sandbox.py    the sandbox, limits, the executor, what may come back out of a sandbox
    judging.py    the judge and people's ratings (the observe phase)
    explore.py    the explore phase
    evolver.py    the evolver and its team, the skill rules (the evolve phase)
    gating.py     the holdout gate (the gate phase)
    proposals.py  the novelty loop and task proposal in the engine (the propose phase)
    spiral.py     the loop monitor
    curve.py      the `curve:` section of adaptive-skill curve
    loading.py    YAML, --set overrides, ${VAR} expansion, validation errors with their lines
    defaults.py   the defaults that follow other keys (the learning setup where it can work)
    resume.py     what a resumed run may change, and the check that nothing else did
    base.py       the strict base model, key paths, the redaction mark
"""

from adaptive_skill.config.base import REDACTED
from adaptive_skill.config.curve import CurveConfig, ExpertSplitConfig
from adaptive_skill.config.evolver import (
    EvolverConfig,
    SkillRulesConfig,
    TeamConfig,
    TeamMemberConfig,
)
from adaptive_skill.config.explore import ExploreConfig
from adaptive_skill.config.gating import GatingConfig
from adaptive_skill.config.judging import JudgeConfig, ReviewConfig
from adaptive_skill.config.loading import load_config
from adaptive_skill.config.models import EmbedderConfig, ModelConfig, ModelsConfig
from adaptive_skill.config.proposals import NoveltyConfig, TaskProposalConfig
from adaptive_skill.config.run import EvolveConfig, PathsConfig
from adaptive_skill.config.sandbox import ExecutorConfig, LimitsConfig, PullbackConfig, SandboxConfig
from adaptive_skill.config.spiral import (
    AlternationConfig,
    ExactRepetitionConfig,
    GoalDriftConfig,
    IntentRepetitionConfig,
    MonologueConfig,
    ParameterTweakConfig,
    RepeatedErrorsConfig,
    SemanticRepetitionConfig,
    SpiralAction,
    SpiralConfig,
    SpiralDetectorConfig,
    SpiralDetectorsConfig,
    SpiralLimitsConfig,
    StagnationConfig,
    UnaskedWorkConfig,
)
from adaptive_skill.errors import ConfigError  # what load_config raises, importable from here as before

__all__ = [
    "ConfigError",
    "REDACTED", "AlternationConfig", "CurveConfig", "EmbedderConfig", "EvolveConfig", "EvolverConfig",
    "ExactRepetitionConfig", "ExecutorConfig", "ExpertSplitConfig", "ExploreConfig", "GatingConfig", "GoalDriftConfig",
    "IntentRepetitionConfig", "JudgeConfig",
    "LimitsConfig", "ModelConfig", "ModelsConfig", "MonologueConfig", "NoveltyConfig", "ParameterTweakConfig",
    "PathsConfig", "PullbackConfig", "RepeatedErrorsConfig", "ReviewConfig", "SandboxConfig",
    "SemanticRepetitionConfig", "SkillRulesConfig", "SpiralAction", "SpiralConfig", "SpiralDetectorConfig",
    "SpiralDetectorsConfig", "SpiralLimitsConfig", "StagnationConfig", "TaskProposalConfig", "TeamConfig",
    "TeamMemberConfig", "UnaskedWorkConfig", "load_config",
]

"""The team evolver (evolver.mode: team): VirSci's team of agents applied to the skill library.
See docs/team.md."""

from adaptive_skill.evolve.team.evolver import TeamEvolver, TeamOutcome

__all__ = ["TeamEvolver", "TeamOutcome"]

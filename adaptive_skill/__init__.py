"""adaptive-skill: evolve a terminal agent's skill library from its own trajectories, without labels."""

__version__ = "0.1.0"

"""The terminal agent: loop, tool protocols and trajectories."""

"""Running task attempts: agent, sandbox, tamper-proof verification, batches."""

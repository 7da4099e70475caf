"""One module per command group; each defines `register(subparsers)` and lazy-importing handlers."""

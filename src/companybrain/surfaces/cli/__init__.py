"""The `brain` command. One small module per group of commands; `main` wires them."""

"""The agent board: reading decision entries and records is split into work items on a
board that is itself a FalkorDB graph (`<graph>_board`), and worker processes take them.
What they find is checked (policy/finding_checks.py) before it moves into the brain."""

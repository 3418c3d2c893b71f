"""Code repositories: git history, decision records and agent instructions, read by code
with no model (git through its command line), then written to the graph in batches."""

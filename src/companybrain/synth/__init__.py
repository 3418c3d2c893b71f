"""Synthetic companies at any size (`brain gen-corpus`): an organisation, a stream of records
in the corpus format (spec/corpus.md) and the truth the generator knows, so that answers at
scale can be checked against it."""

"""One exception family; each surface translates it once (CLI: one line, exit 1)."""


class BrainError(Exception):
    """Base of every error companybrain raises on purpose. Its message is for the user."""


class ConfigError(BrainError):
    """A setting or environment variable has a value we cannot use."""


class StoreError(BrainError):
    """The database could not be reached, started or queried."""


class BusyError(StoreError):
    """The database is too busy to answer now (too many queries waiting, or a query ran past
    its time limit): nothing is wrong with the question; ask again later."""


class SchemaMismatch(StoreError):
    """The graph was written by a different schema version."""


class InputError(BrainError):
    """A file, record or argument given by the user is not valid."""


class ModelError(BrainError):
    """The configured model endpoint failed or replied with something unusable."""


class ModelRefused(ModelError):
    """The model answered, declining what it was asked: about that item, not the endpoint
    or the settings."""


class ProposalFailed(ModelError):
    """The model failed on one record: that record is refused for this run (not stored, so
    the next run asks again) and the rest of the ingestion goes on."""

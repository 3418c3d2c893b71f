"""The graph layer: the embedded server, the one connection object, the schema and all Cypher."""

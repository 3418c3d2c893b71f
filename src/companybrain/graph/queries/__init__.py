"""All Cypher lives in this package, behind named functions; values are always $params."""

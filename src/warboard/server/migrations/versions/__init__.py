"""The schema's revisions, one a file, oldest first: ``0001`` is the schema as warboard made it
before it had versions (docs/data.md says how to add one)."""

"""Alembic's environment (``env.py``) and the schema's revisions (``versions/``), run by
``warboard.server.schema``."""

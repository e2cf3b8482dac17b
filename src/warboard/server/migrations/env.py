"""Alembic's environment: the revisions run on the connection that ``warboard.server.schema``
hands over, inside its transaction (and its lock, on PostgreSQL)."""

from alembic import context

from warboard.server.storage import Base

context.configure(connection=context.config.attributes["connection"],
                  target_metadata=Base.metadata)
with context.begin_transaction():
    context.run_migrations()

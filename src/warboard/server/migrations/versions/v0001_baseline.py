"""The schema as warboard made it before it had versions (``create_all`` of the tables in
``warboard.server.storage``): games, their seats and their events.

The revisions go forward only (no ``downgrade``): to go back, restore a backup.
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("result", sa.JSON, nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("games_status_updated", "games", ["status", "updated"])
    op.create_table(
        "seats",
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("ai_level", sa.String(16), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True, unique=True),
        sa.Column("joined", sa.Boolean, nullable=False),
    )
    op.create_table(
        "events",
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("index", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("action", sa.JSON, nullable=False),
        sa.Column("request_id", sa.String(100), nullable=True),
        sa.UniqueConstraint("game_id", "request_id"),
    )


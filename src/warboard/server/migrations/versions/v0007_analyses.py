"""Post-game analyses: each finished game's decisions judged by a search, made once and kept
(docs/ai.md, "Post-game analysis"). A new table only."""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("level", sa.String(16), nullable=False),
        sa.Column("done", sa.Integer, nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
        sa.Column("judgements", sa.JSON, nullable=True),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
    )

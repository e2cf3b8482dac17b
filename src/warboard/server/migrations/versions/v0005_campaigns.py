"""Series of games (a game's campaigns, ``GameInfo.series``): ``campaigns``, one row a series in
play — its game and series name, the mode, each side's seat (``seats``: kind, AI level, token
hash, player), its games' ids in order (``games``) and its progress (the points banked, as the
game's series writes it) — and each game's ``campaign`` (``None`` outside a series).

The revisions go forward only (no ``downgrade``): to go back, restore a backup.
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"


def upgrade() -> None:
    op.create_table(
        "campaigns",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("games", sa.JSON, nullable=False),
        sa.Column("progress", sa.JSON, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
    )
    op.add_column("games", sa.Column("campaign", sa.String(16), nullable=True))

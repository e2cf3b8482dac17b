"""The lobby's additions: a game's rematch, whether a seat muted the
other's chat, the chat itself (``chat``: one row a line, the latest read back), and the index
the lobby lists its games by.

The revisions go forward only (no ``downgrade``): to go back, restore a backup.
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"


def upgrade() -> None:
    op.add_column("games", sa.Column("rematch", sa.String(16), nullable=True))
    op.add_column("seats", sa.Column("muted", sa.Boolean, nullable=False,
                                     server_default=sa.false()))
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("text", sa.String(300), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("chat_game", "chat", ["game_id", "id"])
    op.create_index("games_lobby", "games", ["mode", "status", "updated"])

"""Players (a name and secret keys, stored as their sha256), their one-time transfer codes,
their Glicko-2 ratings per game; a seat may belong to a player, and a game may be rated."""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("name_key", sa.String(32), nullable=False, unique=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "player_keys",
        sa.Column("key_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(16), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_player_keys_player_id", "player_keys", ["player_id"])
    op.create_table(
        "player_transfers",
        sa.Column("code_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(16), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_player_transfers_player_id", "player_transfers", ["player_id"])
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.String(16), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ratings_game_rating", "ratings", ["game", "rating"])
    op.add_column("games", sa.Column("rated", sa.Boolean, nullable=False,
                                     server_default=sa.false()))
    # SQLite cannot add a foreign key to a table: the column is added bare, and the batch
    # copies the table with the constraint (PostgreSQL alters it in place)
    with op.batch_alter_table("seats") as seats:
        seats.add_column(sa.Column("player_id", sa.String(16), nullable=True))
        seats.create_foreign_key("seats_player_id_fkey", "players", ["player_id"], ["id"])
        seats.create_index("seats_player", ["player_id"])

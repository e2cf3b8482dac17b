"""Clocks and presence: each game's clocks, the deadline of the running one (indexed, for the
sweepers) and the version they were set at; when each seat was last seen connected.

Only new columns, every one nullable: the games stored before have no clock.
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0001"


def upgrade() -> None:
    op.add_column("games", sa.Column("clock", sa.JSON, nullable=True))
    op.add_column("games", sa.Column("deadline", sa.DateTime(timezone=True), nullable=True))
    op.add_column("games", sa.Column("clock_version", sa.Integer, nullable=True))
    op.create_index("games_deadline", "games", ["deadline"])
    op.add_column("seats", sa.Column("seen", sa.DateTime(timezone=True), nullable=True))
    op.add_column("seats", sa.Column("present", sa.Boolean, nullable=True))

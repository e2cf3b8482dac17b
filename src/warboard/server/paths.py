"""Where the games are stored when the host names no database: ``warboard.db`` in the platform's
user data folder (platformdirs: ``~/.local/share/warboard`` on Linux, or under
``$XDG_DATA_HOME``; ``~/Library/Application Support/warboard`` on macOS;
``%LOCALAPPDATA%\\warboard`` on Windows)."""

from __future__ import annotations

from platformdirs import user_data_path

APP = "warboard"
DATABASE_FILE = "warboard.db"
DATABASE_URL_HELP = ("SQLAlchemy URL of the database (default: warboard.db in the user data "
                     "folder, ~/.local/share/warboard on Linux; PostgreSQL: "
                     "postgresql+psycopg://USER@HOST/DB with the 'postgres' extra)")


def default_database_url() -> str:
    """The SQLAlchemy URL of the default database, its folder made if missing."""
    path = user_data_path(APP, appauthor=False) / DATABASE_FILE  # no author folder on Windows
    path.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path}"

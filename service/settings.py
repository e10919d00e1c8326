"""Settings from the environment, in one place.

``DIGSITE_DATABASE_URL`` picks the store: ``postgresql://user:pass@host:port/db[?schema=name]`` or
``sqlite:///path/to/file.sqlite`` (the embedded default: a file under the user's data directory).
"""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlparse

import platformdirs


def default_secret_key_file() -> Path:
    return Path(platformdirs.user_data_dir("digsite")) / "secret-key"


def default_database_url() -> str:
    path = Path(platformdirs.user_data_dir("digsite")) / "digsite.sqlite"
    return f"sqlite:///{path}"


@dataclass(frozen=True)
class Database:
    url: str
    backend: str  # "postgresql" | "sqlite"
    path: str = ""  # sqlite file
    host: str = "127.0.0.1"
    port: str = "5432"
    user: str = "postgres"
    password: str = ""
    dbname: str = "postgres"
    schema: str = "public"

    @classmethod
    def from_url(cls, url: str) -> Database:
        parsed = urlparse(url)
        if parsed.scheme in ("postgresql", "postgres", "postgresql+psycopg"):
            query = parse_qs(parsed.query)
            return cls(
                url=url,
                backend="postgresql",
                host=parsed.hostname or "127.0.0.1",
                port=str(parsed.port or 5432),
                user=unquote(parsed.username or "postgres"),
                password=unquote(parsed.password or ""),
                dbname=(parsed.path or "/postgres").lstrip("/") or "postgres",
                schema=query.get("schema", ["public"])[0],
            )
        if parsed.scheme == "sqlite":
            path = unquote(url[len("sqlite:///") :]) if url.startswith("sqlite:///") else ""
            if not path:
                raise ValueError(f"a SQLite URL needs a file path, like sqlite:///games.sqlite (got {url!r})")
            return cls(url=url, backend="sqlite", path=path)
        raise ValueError(f"DIGSITE_DATABASE_URL must start with postgresql:// or sqlite:/// (got {url!r})")

    def psycopg_conninfo(self) -> str:
        password = f" password={self.password}" if self.password else ""
        return f"host={self.host} port={self.port} user={self.user} dbname={self.dbname}{password}"

    def display(self) -> str:
        if self.backend == "sqlite":
            return f"SQLite file {self.path}"
        return f"PostgreSQL {self.user}@{self.host}:{self.port}/{self.dbname} (schema {self.schema})"


@dataclass(frozen=True)
class Settings:
    database: Database
    api_key: str | None = None  # organisers' key; None = organiser endpoints closed
    # The server's own secret (DIGSITE_SECRET_KEY, else a file kept beside the embedded store, made on first use):
    # it signs what the server hands out or keeps and must trust later (dashboard sessions, snapshots). It is never
    # written into the database, so write access to the store alone cannot forge what it signs.
    secret_key: str | None = None
    snapshot_interval: int = 50
    cache_size: int = 2048
    extra_env: dict[str, str] = field(default_factory=dict)

    @classmethod
    def from_env(cls, **overrides: object) -> Settings:
        url = os.environ.get("DIGSITE_DATABASE_URL") or default_database_url()
        values: dict[str, object] = {
            "database": Database.from_url(url),
            "api_key": os.environ.get("DIGSITE_API_KEY") or None,
            "secret_key": os.environ.get("DIGSITE_SECRET_KEY") or None,
        }
        values.update(overrides)
        return cls(**values)  # type: ignore[arg-type]

    def server_secret(self) -> bytes:
        """The server's secret as bytes: the configured one, else the one in the secret-key file (created, readable
        by its owner only, the first time). Every process of one deployment must share it: set DIGSITE_SECRET_KEY
        wherever processes do not share a disk."""
        if self.secret_key:
            return self.secret_key.encode()
        path = default_secret_key_file()
        try:
            return path.read_bytes().strip()
        except FileNotFoundError:
            pass
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as out:
                out.write(secrets.token_urlsafe(32))
        except FileExistsError:  # another process made it first: use theirs
            pass
        return path.read_bytes().strip()

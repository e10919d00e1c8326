"""Settings from the environment, in one place.

``DIGSITE_DATABASE_URL`` picks the store: ``postgresql://user:pass@host:port/db[?schema=name]`` or
``sqlite:///path/to/file.sqlite`` (the embedded default: a file in Digsite's data directory).

``DIGSITE_LOG_DATABASE_URL`` (optional, PostgreSQL only) is where the projections read the log from: a streaming
replica of the database ``DIGSITE_DATABASE_URL`` names, same schema. The projections still write their read models
and tracking row to ``DIGSITE_DATABASE_URL`` (docs/deploy.md, "PostgreSQL with a read replica").

``DIGSITE_HOME`` is Digsite's data directory: the embedded store, the server's secret-key file and the organiser
key ``digsite up`` makes are kept there (default: the user's data directory, like ``~/.local/share/digsite``).
"""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass, field, replace
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlparse

import platformdirs


def data_dir() -> Path:
    """Digsite's data directory: DIGSITE_HOME, else the user's data directory."""
    home = os.environ.get("DIGSITE_HOME")
    return Path(home).expanduser() if home else Path(platformdirs.user_data_dir("digsite"))


def default_secret_key_file() -> Path:
    return data_dir() / "secret-key"


def default_database_url() -> str:
    return f"sqlite:///{data_dir() / 'digsite.sqlite'}"


class MalformedDatabaseURL(ValueError):
    """DIGSITE_DATABASE_URL (or DIGSITE_LOG_DATABASE_URL) cannot be read or used; the message never holds the URL's
    password."""


def redacted(url: str) -> str:
    """The URL with any password replaced by ``***``, for messages."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        return url
    authority, slash, path = rest.partition("/")
    userinfo, at, hostport = authority.rpartition("@")
    if at and ":" in userinfo:
        userinfo = userinfo.split(":", 1)[0] + ":***"
    return f"{scheme}{sep}{userinfo}{at}{hostport}{slash}{path}"


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
    def from_url(cls, url: str, variable: str = "DIGSITE_DATABASE_URL") -> Database:
        """The database a URL names; ``MalformedDatabaseURL`` (a ``ValueError``) says what is wrong with it, naming
        ``variable``, the setting the URL came from."""
        try:
            parsed = urlparse(url)
            port = parsed.port
        except ValueError as error:  # a port that is not a number from 0 to 65535, a bad IPv6 address
            raise MalformedDatabaseURL(
                f"malformed {variable} {redacted(url)!r}: {error} "
                "(expected postgresql://USER:PASSWORD@HOST:PORT/DATABASE or sqlite:///PATH)"
            ) from None
        if parsed.scheme in ("postgresql", "postgres", "postgresql+psycopg"):
            query = parse_qs(parsed.query)
            return cls(
                url=url,
                backend="postgresql",
                host=parsed.hostname or "127.0.0.1",
                port=str(port or 5432),
                user=unquote(parsed.username or "postgres"),
                password=unquote(parsed.password or ""),
                dbname=(parsed.path or "/postgres").lstrip("/") or "postgres",
                schema=query.get("schema", ["public"])[0],
            )
        if parsed.scheme == "sqlite":
            path = unquote(url[len("sqlite:///") :]) if url.startswith("sqlite:///") else ""
            if not path:
                raise MalformedDatabaseURL(
                    f"malformed {variable} {url!r}: a SQLite URL needs a file path, like "
                    "sqlite:///games.sqlite (relative) or sqlite:////srv/digsite/games.sqlite (absolute)"
                )
            return cls(url=url, backend="sqlite", path=path)
        raise MalformedDatabaseURL(
            f"malformed {variable} {redacted(url)!r}: it must start with postgresql:// or sqlite:///"
        )

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
    # Where the projections read the log (DIGSITE_LOG_DATABASE_URL): a replica of ``database``; None: ``database``.
    log_database: Database | None = None
    api_key: str | None = None  # organisers' key; None = organiser endpoints closed
    # The server's own secret (DIGSITE_SECRET_KEY, else a file kept beside the embedded store, made on first use):
    # it signs what the server hands out or keeps and must trust later (dashboard sessions, snapshots). It is never
    # written into the database, so write access to the store alone cannot forge what it signs.
    secret_key: str | None = None
    snapshot_interval: int = 50
    cache_size: int = 2048
    # How often a serving process looks for seats out of time in the games in play (DIGSITE_CLOCK_SWEEP_SECONDS;
    # 0: never, only moves and clock changes notice): service/serving/clock_sweep.py.
    clock_sweep_seconds: float = 2.0
    extra_env: dict[str, str] = field(default_factory=dict)

    @classmethod
    def from_env(cls, **overrides: object) -> Settings:
        url = os.environ.get("DIGSITE_DATABASE_URL") or default_database_url()
        database = Database.from_url(url)
        log_url = os.environ.get("DIGSITE_LOG_DATABASE_URL")
        values: dict[str, object] = {
            "database": database,
            "log_database": _log_database(log_url, database) if log_url else None,
            "api_key": os.environ.get("DIGSITE_API_KEY") or None,
            "secret_key": os.environ.get("DIGSITE_SECRET_KEY") or None,
        }
        sweep = os.environ.get("DIGSITE_CLOCK_SWEEP_SECONDS")
        if sweep:
            values["clock_sweep_seconds"] = _seconds(sweep, "DIGSITE_CLOCK_SWEEP_SECONDS")
        values.update(overrides)
        return cls(**values)  # type: ignore[arg-type]

    def log_settings(self) -> Settings:
        """These settings with the log's database as the store: what the projections read the log through."""
        if self.log_database is None:
            return self
        return replace(self, database=self.log_database, log_database=None)

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


def _log_database(url: str, database: Database) -> Database:
    """The database DIGSITE_LOG_DATABASE_URL names, once it is known to make sense beside ``database``."""
    log_database = Database.from_url(url, "DIGSITE_LOG_DATABASE_URL")
    if log_database.backend != "postgresql" or database.backend != "postgresql":
        raise MalformedDatabaseURL(
            f"DIGSITE_LOG_DATABASE_URL {redacted(url)!r} is for PostgreSQL stores only: it names a streaming replica "
            "of the PostgreSQL database DIGSITE_DATABASE_URL names (unset it to read the log from the store itself)"
        )
    if log_database.schema != database.schema:  # a replica holds the store's tables under the same schema
        raise MalformedDatabaseURL(
            f"DIGSITE_LOG_DATABASE_URL names schema {log_database.schema} but DIGSITE_DATABASE_URL schema "
            f"{database.schema}: give the replica's URL the same ?schema={database.schema}"
        )
    return log_database


def _seconds(text: str, name: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 3600:
        raise ValueError(f"{name} is a number of seconds from 0 (off) to 3600, not {text!r}")
    return value

"""A private, throwaway PostgreSQL cluster for tests that must stop, restart or reconfigure their database
(the shared test server is never touched): initdb and pg_ctl from the Debian packages, in a temporary
directory, on a free loopback port. initdb refuses to run as root, so as root the cluster belongs to the
``postgres`` system user (``runuser``).

``private_cluster(required)`` is what the fixtures call: under ``DIGSITE_REQUIRE_POSTGRES=1`` a cluster that
cannot be started fails the test; elsewhere it skips it with the reason. ``private_standby(primary)`` adds a hot
standby streaming from a private primary (``pg_basebackup -R``), on a port of its own, the same way."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pytest

WAIT = 30  # seconds for pg_ctl to start or stop the cluster


def _binaries() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(p.split("/")[4]))
    if found:
        return Path(found[-1]).parent
    pg_ctl = shutil.which("pg_ctl")
    return Path(pg_ctl).parent if pg_ctl else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Cluster:
    """One PostgreSQL cluster: ``start``, ``stop`` (fast shutdown), ``psql``-like ``execute``, ``destroy``."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin = bin_dir
        # As root the cluster's owner must reach its directory: under /tmp, not a private TMPDIR.
        parent = "/tmp" if os.geteuid() == 0 and os.path.isdir("/tmp") else None
        self.root = Path(tempfile.mkdtemp(prefix="digsite-pg-", dir=parent))
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self.port = _free_port()
        self.owner: pwd.struct_passwd | None = None
        if os.geteuid() == 0:  # initdb refuses root: the cluster belongs to the postgres system user
            self.owner = pwd.getpwnam("postgres")
            os.chown(self.root, self.owner.pw_uid, self.owner.pw_gid)
        self.root.chmod(0o755)

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        argv = list(args)
        if self.owner is not None:
            argv = ["runuser", "-u", self.owner.pw_name, "--", *argv]
        return subprocess.run(argv, capture_output=True, text=True, timeout=WAIT + 30, check=False)

    def _checked(self, *args: str) -> None:
        done = self._run(*args)
        if done.returncode != 0:
            log = self.log.read_text() if self.log.exists() else ""
            raise RuntimeError(f"{' '.join(args)} failed ({done.returncode}): {done.stderr or done.stdout}\n{log}")

    def init(self) -> None:
        self._checked(
            str(self.bin / "initdb"), "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"
        )

    def base_backup(self, primary: Cluster) -> None:
        """Make this cluster's data a copy of ``primary``'s, set up to stream from it as a hot standby (``-R``
        writes ``standby.signal`` and the primary's address); the primary's defaults allow it (``wal_level``
        replica, WAL senders, initdb's trusted replication lines for the loopback)."""
        self._checked(
            str(self.bin / "pg_basebackup"),
            *("-h", "127.0.0.1", "-p", str(primary.port), "-U", "postgres", "-D", str(self.data)),
            *("-R", "-X", "stream", "--checkpoint=fast", "--no-sync"),
        )

    def start(self) -> None:
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.root} "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        )
        pg_ctl = str(self.bin / "pg_ctl")
        self._checked(pg_ctl, "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "-t", str(WAIT), "start")

    def stop(self, mode: str = "fast") -> None:
        self._checked(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "-t", str(WAIT), "stop")

    @property
    def running(self) -> bool:
        return self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "status").returncode == 0

    def execute(self, *statements: str) -> None:
        """Run statements one by one in autocommit (e.g. ALTER SYSTEM, which may not run in a transaction)."""
        import psycopg

        with psycopg.connect(self.url, autocommit=True, connect_timeout=5) as conn:
            for statement in statements:
                conn.execute(statement.encode())

    def replayed(self, primary: Cluster, timeout: float = WAIT) -> None:
        """Return once this standby has replayed everything ``primary`` has written so far (its WAL insert
        position: with ``synchronous_commit=off`` a commit may not be flushed yet); AssertionError past ``timeout``."""
        import psycopg

        with psycopg.connect(primary.url, autocommit=True, connect_timeout=5) as conn:
            row = conn.execute("SELECT pg_current_wal_insert_lsn()").fetchone()
        assert row is not None
        target = row[0]
        deadline = time.monotonic() + timeout
        with psycopg.connect(self.url, autocommit=True, connect_timeout=5) as conn:
            while True:
                done = conn.execute("SELECT pg_last_wal_replay_lsn() >= %s::pg_lsn", (target,)).fetchone()
                if done is not None and done[0]:
                    return
                assert time.monotonic() < deadline, f"the standby has not replayed up to {target} in {timeout} s"
                time.sleep(0.02)

    def pause_replay(self, timeout: float = WAIT) -> None:
        """A standby: stop applying the WAL it receives (what it shows stays as it is) until ``resume_replay``.
        Returns once replay has paused (the request is served at the next record replayed)."""
        import psycopg

        self.execute("SELECT pg_wal_replay_pause()")
        deadline = time.monotonic() + timeout
        with psycopg.connect(self.url, autocommit=True, connect_timeout=5) as conn:
            while (conn.execute("SELECT pg_get_wal_replay_pause_state()").fetchone() or ("",))[0] != "paused":
                assert time.monotonic() < deadline, f"the standby's replay has not paused in {timeout} s"
                time.sleep(0.02)

    def resume_replay(self) -> None:
        self.execute("SELECT pg_wal_replay_resume()")

    def destroy(self) -> None:
        try:
            if self.data.exists() and self.running:
                self.stop("immediate")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


def private_cluster() -> Cluster:
    """A started private cluster; a failure is a test failure under DIGSITE_REQUIRE_POSTGRES=1, else a skip."""
    return _started(Cluster.init, "a private PostgreSQL cluster")


def private_standby(primary: Cluster) -> Cluster:
    """A started hot standby streaming from ``primary`` (a private cluster); failing to start it is a test failure
    under DIGSITE_REQUIRE_POSTGRES=1, else a skip."""
    return _started(lambda standby: standby.base_backup(primary), "a private PostgreSQL standby")


def _started(make: Callable[[Cluster], None], what: str) -> Cluster:
    required = bool(os.environ.get("DIGSITE_REQUIRE_POSTGRES"))
    psycopg = __import__("psycopg") if required else pytest.importorskip("psycopg")
    bin_dir = _binaries()
    if bin_dir is None:
        reason = f"no PostgreSQL server binaries (initdb, pg_ctl) to start {what}"
        if required:
            pytest.fail(reason)
        pytest.skip(reason)
    cluster = Cluster(bin_dir)
    try:
        make(cluster)
        cluster.start()
        deadline = time.monotonic() + WAIT
        while True:  # pg_ctl -w has waited for the server; make sure it takes connections on the port too
            try:
                psycopg.connect(cluster.url, connect_timeout=2).close()
                break
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
    except Exception as error:
        cluster.destroy()
        if required:
            pytest.fail(f"{what} could not be started: {error}")
        pytest.skip(f"{what} could not be started: {error}")
    return cluster

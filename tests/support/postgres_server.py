"""postgres_server.py - a real, private PostgreSQL server for the service tests and benchmarks.

Debian's `postgresql` package (installed by scripts/test) provides the
binaries; this starts a throwaway cluster in a temporary directory,
listening on a Unix socket in that directory only (no TCP port, nothing
shared with another cluster or user). PostgreSQL refuses to run as root,
and CI runs as root, so there the cluster belongs to the unprivileged
`postgres` account (runuser); otherwise to the current user.

    with PostgresServer.start() as server:
        url = server.create_database("t1")   # postgresql://... for --store
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

PORT = 5432  # the socket's name (.s.PGSQL.5432) in the private directory; no TCP listener
SUPERUSER = "nethack"


def binaries() -> Path | None:
    """The newest installed server's bin directory (/usr/lib/postgresql/<N>/bin)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[4]))
    return Path(found[-1]).parent if found else None


class PostgresServer:
    def __init__(self, root: Path, bindir: Path, account: str | None) -> None:
        self.root = root
        self.bindir = bindir
        self.account = account  # run as this user (runuser) when we are root
        self.data = root / "data"
        self.socket_dir = root / "socket"

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        command = [str(self.bindir / args[0]), *args[1:]]
        if self.account is not None:
            command = ["runuser", "-u", self.account, "--", *command]
        return subprocess.run(command, check=check, capture_output=True, text=True, cwd=self.root)

    @classmethod
    @contextmanager
    def start(cls) -> Iterator[PostgresServer]:
        bindir = binaries()
        if bindir is None:
            raise RuntimeError("PostgreSQL is not installed (Debian package postgresql; scripts/test installs it)")
        account = "postgres" if os.geteuid() == 0 else None
        root = Path(tempfile.mkdtemp(prefix="nnh-pg-"))
        os.chmod(root, 0o700)
        server = cls(root, bindir, account)
        server.socket_dir.mkdir(mode=0o700)
        if account is not None:
            entry = pwd.getpwnam(account)
            for path in (root, server.socket_dir):
                os.chown(path, entry.pw_uid, entry.pw_gid)
        try:
            server._run(
                "initdb",
                "-D",
                str(server.data),
                "-U",
                SUPERUSER,
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-sync",
                "--locale=C",
            )
            options = (
                f"-c listen_addresses='' -c unix_socket_directories='{server.socket_dir}' -p {PORT} "
                "-c max_connections=400 -c fsync=on -c shared_buffers=64MB"
            )
            server._run(
                "pg_ctl",
                "-D",
                str(server.data),
                "-w",
                "-t",
                "60",
                "-l",
                str(root / "server.log"),
                "-o",
                options,
                "start",
            )
            yield server
        finally:
            server._run("pg_ctl", "-D", str(server.data), "-m", "immediate", "-w", "stop", check=False)
            shutil.rmtree(root, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        """A libpq URL for `database` over the private socket."""
        return f"postgresql://{SUPERUSER}@/{database}?host={quote(str(self.socket_dir), safe='')}&port={PORT}"

    def create_database(self, name: str) -> str:
        """A new empty database (named from [a-z0-9_]); its URL."""
        if not name.replace("_", "").isalnum() or not name.islower():
            raise ValueError(f"database name {name!r}")
        self._run(
            "psql",
            "-h",
            str(self.socket_dir),
            "-p",
            str(PORT),
            "-U",
            SUPERUSER,
            "-d",
            "postgres",
            "-v",
            "ON_ERROR_STOP=1",
            "-qc",
            f"CREATE DATABASE {name}",
        )
        return self.url(name)

    def log(self) -> str:
        try:
            return (self.root / "server.log").read_text(errors="replace")
        except OSError:
            return ""

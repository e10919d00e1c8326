"""Whether a server can listen where it is asked to, told before starting it (werkzeug would print two lines
of its own and exit; ``digsite up`` would restart the part that cannot start, again and again)."""

from __future__ import annotations

import errno
import socket

import click


def check_free(host: str, port: int, option: str) -> None:
    """Stop with one line unless ``host:port`` can be listened on (port 0: any free port, always fine)."""
    if port == 0:
        return
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as error:
        raise click.ClickException(f"cannot listen on {host}: {error.strerror} (check --host)") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the servers do: TIME_WAIT is no obstacle
        try:
            probe.bind(address)
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                raise click.ClickException(
                    f"port {port} on {host} is already in use by another program: stop it, or choose another "
                    f"port with {option}"
                ) from None
            raise click.ClickException(f"cannot listen on {host}:{port}: {error.strerror}") from None

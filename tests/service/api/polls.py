"""Many long polls held at once by one client thread (a selector), as a server's idle subscribers would be; and room
for their sockets in this process's limit of open files."""

from __future__ import annotations

import json
import queue
import resource
import selectors
import socket
import threading
from typing import Any

import pytest

WAIT = 60  # seconds: the bound on connecting and on a select with nothing to read


def room_for_files(count: int) -> None:
    """Raise this process's soft limit of open files to ``count``, or skip if its hard limit is lower."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < count:
        pytest.skip(f"this machine allows {hard} open files a process, fewer than the {count} the test needs")
    if soft != resource.RLIM_INFINITY and soft < count:
        resource.setrlimit(resource.RLIMIT_NOFILE, (count, hard))


class Polls:
    """``count`` long polls of ``path``, each on a connection of its own, all sent at once; their answers (status,
    headers, JSON body) come into ``answers`` in the order they arrive. Read by one thread, as a server's idle
    subscribers would be held by a client."""

    def __init__(self, port: int, path: str, token: str, count: int) -> None:
        self.answers: queue.Queue[tuple[int, dict[str, str], Any]] = queue.Queue()
        self.selector = selectors.DefaultSelector()
        request = f"GET /api/v1{path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n\r\n".encode()
        for _ in range(count):
            sock = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
            sock.sendall(request)
            sock.setblocking(False)
            self.selector.register(sock, selectors.EVENT_READ, bytearray())
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        while self.selector.get_map():
            for key, _ in self.selector.select(timeout=WAIT):
                sock, received = key.fileobj, key.data
                chunk = sock.recv(65536)  # type: ignore[union-attr]
                received += chunk
                head, whole, body = bytes(received).partition(b"\r\n\r\n")
                lines = head.decode("latin-1").split("\r\n")
                headers = {n.strip().lower(): v.strip() for n, _, v in (line.partition(":") for line in lines[1:])}
                if chunk and (not whole or len(body) < int(headers.get("content-length", 0))):
                    continue
                self.selector.unregister(sock)
                sock.close()  # type: ignore[union-attr]
                status = int(lines[0].split()[1]) if whole else 0  # (0: closed without a whole answer)
                self.answers.put((status, headers, json.loads(body) if body else None))

    def pending(self) -> int:
        return len(self.selector.get_map())

"""A small Server-Sent Events reader for the tests: a real socket to the real server.

It speaks HTTP/1.0 so that the stream comes unchunked, and closing it is immediate.
"""

from __future__ import annotations

import contextlib
import json
import queue
import socket
import threading
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit


@dataclass
class Message:
    id: str | None
    event: str
    data: Any
    comment: str | None = None


@dataclass
class SSEReader:
    """Reads a stream on a background thread; ``next()`` returns the next message."""

    url: str
    headers: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        parts = urlsplit(self.url)
        self.sock = socket.create_connection((parts.hostname, parts.port or 80), timeout=10)
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        lines = [f"GET {path} HTTP/1.0", f"Host: {parts.netloc}", "Accept: text/event-stream"]
        lines += [f"{k}: {v}" for k, v in self.headers.items()]
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        self.messages: queue.Queue[Message] = queue.Queue()
        self.status = 0
        self.response_headers: dict[str, str] = {}
        self._head = threading.Event()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()
        self._head.wait(10)

    def _read(self) -> None:
        buffer = b""
        try:
            while b"\r\n\r\n" not in buffer:
                chunk = self.sock.recv(65536)
                if not chunk:
                    return
                buffer += chunk
            head, buffer = buffer.split(b"\r\n\r\n", 1)
            status_line, *header_lines = head.decode("latin-1").split("\r\n")
            self.status = int(status_line.split()[1])
            for line in header_lines:
                name, _, value = line.partition(":")
                self.response_headers[name.strip().lower()] = value.strip()
            self._head.set()
            self.sock.settimeout(None)
            while True:
                while b"\n\n" in buffer:
                    block, buffer = buffer.split(b"\n\n", 1)
                    self._parse(block.decode())
                chunk = self.sock.recv(65536)
                if not chunk:
                    return
                buffer += chunk
        except OSError:
            return
        finally:
            self._head.set()

    def _parse(self, block: str) -> None:
        fields: dict[str, str] = {}
        for line in block.split("\n"):
            if line.startswith(":"):
                self.messages.put(Message(None, "", None, comment=line[1:].strip()))
                return
            name, _, value = line.partition(": ")
            fields[name] = value
        if "data" in fields:
            self.messages.put(Message(fields.get("id"), fields.get("event", "message"),
                                      json.loads(fields["data"])))

    def next(self, timeout: float = 5, kind: str | None = "state") -> Message:
        """The next message of ``kind`` (None: any, heartbeats included)."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.messages.get(timeout=max(0.0, deadline - time.monotonic()))
            if kind is None or message.event == kind:
                return message

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()

"""A running ``sdc app`` (in a thread) shared by the app's tests, and a small HTTP client."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from sdc.app.server import App, make_server


@dataclass
class Running:
    app: App
    port: int

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/?token={self.app.token}"

    def call(self, name: str, body: dict[str, Any] | None = None, *, token: str | None = None,
             raw: bytes | None = None, headers: dict[str, str] | None = None) -> tuple[int, dict[str, Any]]:
        h = {"X-Sdc-Token": self.app.token if token is None else token, **(headers or {})}
        data = raw if raw is not None else json.dumps(body or {}).encode()
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}/api/{name}", data=data, headers=h)
        try:
            with urllib.request.urlopen(req, timeout=600) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())


def start(tmp: Path, data: Path | None = None, max_upload: int | None = None) -> tuple[Running, Any]:
    app = App(data, tmp / "exports", **({"max_upload": max_upload} if max_upload else {}))
    server = make_server(app)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return Running(app, server.server_address[1]), server


@contextmanager
def serving(tmp: Path, data: Path | None = None, max_upload: int | None = None) -> Iterator[Running]:
    """A running app for the block; stopped and its temporary folder removed after."""
    r, server = start(tmp, data, max_upload)
    try:
        yield r
    finally:
        server.shutdown()
        server.server_close()
        r.app.close()


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    with serving(tmp_path_factory.mktemp("app")) as r:
        yield r

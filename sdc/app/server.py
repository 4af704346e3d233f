"""The local web server of ``sdc app``.

Python's own :mod:`http.server` (threading), a JSON API and one page of plain HTML, CSS and
JavaScript shipped in the wheel (``sdc/app/static``): no new dependency, nothing fetched from a
CDN, nothing to build; docs/design.md says why.

Safety: the server listens on 127.0.0.1 only; every request carries the session's random token
(a query parameter on the first page, then the ``X-Sdc-Token`` header), compared in constant
time; requests naming another host (DNS rebinding) are refused; the browser never names a path:
it opens the bundled example, the file given on the command line, or an upload, which is size
limited and saved 0600 in a temporary folder removed on exit. Nothing is logged (the URL holds
the token).
"""

from __future__ import annotations

import hmac
import json
import secrets
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib.resources import files
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from sdc.app import hierarchies, steps, sweeping
from sdc.app.session import AppError, AppSession

__all__ = ["App", "make_server", "serve", "MAX_UPLOAD", "MAX_REQUEST", "ACTIONS"]

#: The largest upload accepted (bytes): ``sdc app --max-upload`` changes it.
MAX_UPLOAD = 512 * 2**20
#: The largest JSON request body (bytes).
MAX_REQUEST = 2**20

Action = Callable[[AppSession, dict[str, Any]], dict[str, Any]]

#: The API: ``/api/<name>`` -> what it does with the session and the request's JSON body.
ACTIONS: dict[str, Action] = {
    "state": lambda s, b: s.describe(),
    "open": lambda s, b: s.open(str(b.get("source", ""))),
    "preview": lambda s, b: s.preview(),
    "identify": lambda s, b: s.identify(),
    "roles": lambda s, b: s.set_roles(b.get("roles") or {}, b.get("thresholds")),
    "set_scenario": lambda s, b: s.set_scenario(b.get("name"), b.get("keys")),
    "remove_scenario": lambda s, b: s.remove_scenario(b.get("name")),
    "assess": lambda s, b: s.assess(),
    "methods": lambda s, b: {"methods": steps.methods_json()},
    "add_step": lambda s, b: steps.add_step(s, b.get("step"), b.get("index")),
    "remove_step": lambda s, b: steps.remove_step(s, int(b.get("index", -1))),
    "move_step": lambda s, b: steps.move_step(s, int(b.get("index", -1)), int(b.get("to", -1))),
    "seed": lambda s, b: steps.set_seed(s, b.get("seed")),
    "undo": lambda s, b: s.undo(),
    "redo": lambda s, b: s.redo(),
    "preview_step": lambda s, b: steps.preview_step(s, b.get("step")),
    "run": lambda s, b: steps.run_plan(s),
    "export": lambda s, b: steps.export_run(s, external=bool(b.get("external"))),
    "sweep_axes": lambda s, b: sweeping.sweep_axes(),
    "hierarchy_values": lambda s, b: hierarchies.hierarchy_values(s, b.get("variable")),
    "hierarchy": lambda s, b: hierarchies.build_hierarchy(s, b.get("variable"), b.get("kind"), b.get("levels")),
    "recode_level": lambda s, b: hierarchies.recode_to_level(s, b.get("variable"), b.get("kind"), b.get("levels"),
                                                             b.get("level")),
    "sweep": lambda s, b: sweeping.sweep_step(s, b.get("index"), b.get("parameter"), b.get("values"),
                                              b.get("risk_axis"), b.get("utility_axis")),
}


class App:
    """One running app: its token, its session, its temporary folder."""

    def __init__(self, data_path: str | Path | None, export_dir: str | Path, max_upload: int = MAX_UPLOAD) -> None:
        self.token = secrets.token_urlsafe(24)
        self.tmp = Path(tempfile.mkdtemp(prefix="sdc-app-"))  # 0700
        self.session = AppSession(data_path, export_dir, self.tmp)
        self.max_upload = max_upload
        self.lock = threading.Lock()  # one session: one action at a time
        self.progress: dict[str, Any] = {"action": None}  # what the running action last said

    def _heard(self, message: str, done: int | None, total: int | None) -> None:
        """The running action's stage (:func:`sdc._stages.listening`): read by ``/api/progress``."""
        self.progress = {**self.progress, "stage": message, "done": done, "total": total,
                         "stages": self.progress.get("stages", 0) + (done is None or done == 0)}

    def progress_json(self) -> dict[str, Any]:
        """The running action, its current stage and count (``done`` of ``total``) and the
        seconds since it started; ``{"action": None}`` when none runs. Never waits for the lock."""
        p = dict(self.progress)
        if p.get("action"):
            p["seconds"] = round(time.monotonic() - p.pop("started"), 1)
        else:
            p = {"action": None}
        return p

    def page(self) -> bytes:
        """The one page, its CSS and script inlined (a single request, no asset to authorise)."""
        static = files("sdc.app") / "static"
        html = (static / "index.html").read_text(encoding="utf-8")
        html = html.replace("/*CSS*/", (static / "app.css").read_text(encoding="utf-8"))
        html = html.replace("/*JS*/", (static / "app.js").read_text(encoding="utf-8"))
        return html.encode("utf-8")

    def act(self, name: str, body: dict[str, Any]) -> dict[str, Any]:
        action = ACTIONS.get(name)
        if action is None:
            raise AppError(f"unknown action {name!r}.")
        from sdc._stages import listening

        with self.lock:
            self.progress = {"action": name, "stage": "", "done": None, "total": None, "stages": 0,
                             "started": time.monotonic()}
            try:
                with listening(self._heard):
                    return action(self.session, body)
            finally:
                self.progress = {"action": None}

    def upload(self, filename: str, content: bytes) -> dict[str, Any]:
        """Save an uploaded file (0600, under the temporary folder) and open it."""
        name = Path(filename.replace("\\", "/")).name or "upload"
        if name.startswith("."):
            name = "upload" + name
        with self.lock:
            path = self.tmp / name
            path.write_bytes(b"")
            path.chmod(0o600)
            path.write_bytes(content)
            return self.session.open("upload", path)

    def close(self) -> None:
        shutil.rmtree(self.tmp, ignore_errors=True)


class Handler(BaseHTTPRequestHandler):
    server_version = "sdc-app"
    app: App  # set by make_server

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the URL holds the token
        return

    def _authorised(self) -> bool:
        host = (self.headers.get("Host") or "").split(":")[0]
        if host not in ("127.0.0.1", "localhost"):
            return False
        query = parse_qs(urlsplit(self.path).query)
        token = self.headers.get("X-Sdc-Token") or (query.get("token") or [""])[0]
        return bool(token) and hmac.compare_digest(token.encode(), self.app.token.encode())

    def _send(self, status: int, body: bytes, kind: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Security-Policy", "default-src 'self' 'unsafe-inline' data:; frame-src 'self' data:")
        self.end_headers()
        self.wfile.write(body)

    def _json(self, status: int, doc: dict[str, Any]) -> None:
        from sdc._json import jsonable

        self._send(status, json.dumps(jsonable(doc), ensure_ascii=False).encode("utf-8"), "application/json")

    def _refuse(self) -> bool:
        if self._authorised():
            return False
        self._json(403, {"error": "this request has no valid token: open the URL sdc app printed."})
        return True

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        if self._refuse():
            return
        path = urlsplit(self.path).path
        if path == "/":
            self._send(200, self.app.page(), "text/html; charset=utf-8")
        elif path == "/api/progress":
            self._run("progress", {}, self.app.progress_json)
        elif path in ("/api/state", "/api/methods"):
            self._run(path.removeprefix("/api/"), {})
        else:
            self._json(404, {"error": f"no page {path!r}."})

    def do_POST(self) -> None:  # noqa: N802
        if self._refuse():
            return
        path = urlsplit(self.path).path
        length = int(self.headers.get("Content-Length") or 0)
        if path == "/api/upload":
            if length > self.app.max_upload:
                self._json(413, {"error": f"the file has {length:,} bytes; the app takes at most "
                                          f"{self.app.max_upload:,} (sdc app --max-upload)."})
                return
            content = self.rfile.read(length)
            self._run("upload", {}, lambda: self.app.upload(self.headers.get("X-Filename") or "upload", content))
            return
        if path == "/api/progress":  # answered while another action holds the lock
            self._run("progress", {}, self.app.progress_json)
            return
        if length > MAX_REQUEST:
            self._json(413, {"error": "the request is too large."})
            return
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
        except ValueError:
            self._json(400, {"error": "the request is not JSON."})
            return
        self._run(path.removeprefix("/api/"), body if isinstance(body, dict) else {})

    def _run(self, name: str, body: dict[str, Any], call: Callable[[], dict[str, Any]] | None = None) -> None:
        from sdc.exceptions import DataFileError

        try:
            self._json(200, call() if call else self.app.act(name, body))
        except (AppError, DataFileError, ValueError, TypeError, KeyError, FileExistsError) as exc:
            self._json(400, {"error": " ".join(str(exc).split()) or type(exc).__name__})
        except Exception as exc:  # noqa: BLE001 - the page shows one line, the server keeps running
            self._json(500, {"error": f"internal error ({type(exc).__name__}): {' '.join(str(exc).split())}"})


def make_server(app: App, port: int = 0) -> ThreadingHTTPServer:
    """A server for `app` on 127.0.0.1:`port` (0: a free port)."""
    handler = type("AppHandler", (Handler,), {"app": app})
    server = ThreadingHTTPServer(("127.0.0.1", port), handler)
    server.daemon_threads = True
    return server


def serve(data_path: str | Path | None, *, port: int = 0, open_browser: bool = True,
          export_dir: str | Path = "sdc-app-export", max_upload: int = MAX_UPLOAD) -> int:
    """Run the app until Ctrl-C; print its URL (with the token) first."""
    app = App(data_path, export_dir, max_upload)
    server = make_server(app, port)
    url = f"http://127.0.0.1:{server.server_address[1]}/?token={app.token}"
    print(f"sdc app: {url}\nsdc app: exports go to {Path(export_dir).resolve()}; Ctrl-C stops it.", flush=True)
    if open_browser:
        import webbrowser

        threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()
    try:
        server.serve_forever(poll_interval=0.2)
    finally:
        server.server_close()
        app.close()
        print("sdc app: stopped", file=sys.stderr, flush=True)
    return 0

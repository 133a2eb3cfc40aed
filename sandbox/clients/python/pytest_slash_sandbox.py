"""pytest fixtures for slash-sandbox.

``slash_sandbox`` (session): the sandbox at ``--slash-sandbox-url`` or
``SLASH_SANDBOX_URL``, else the binary at ``--slash-sandbox-bin`` or
``SLASH_SANDBOX_BIN`` started on a free loopback port and stopped after the
session. ``sandbox_world`` (per test): an isolated world of the demo
scenario (``@pytest.mark.sandbox_world(scenario="empty")`` picks another),
deleted after the test.

    def test_bank_details_email(sandbox_world):
        client = SlashSDK(api_key=sandbox_world.key("sk_sandbox_alice"),
                          base_url=sandbox_world.base_url)
        ...
        msg = sandbox_world.wait_for_email(to="hello@pixelforge.test", timeout="5s")

Standard library only, besides pytest.
"""

import json
import os
import re
import subprocess
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections import deque
from datetime import datetime

import pytest

__all__ = ["Sandbox", "SandboxError", "World", "start_sandbox"]


class SandboxError(Exception):
    """An error the control API answered: its status and envelope."""

    def __init__(self, status, body, what):
        self.status = status
        self.code = body.get("code", "")
        self.details = body.get("details") or {}
        self.reference_id = body.get("referenceId", "")
        detail = " " + json.dumps(self.details) if self.details else ""
        super().__init__(f"{what}: {status} {self.code}: {body.get('message', '')}{detail}")

    @property
    def timed_out(self):
        """True when a wait ran out of time (408 timeout)."""
        return self.status == 408


def _query(filters):
    """The query string of the non-empty filters; a datetime as RFC 3339,
    a number of seconds as a timeout."""
    q = {}
    for k, v in filters.items():
        if v is None or v == "":
            continue
        if isinstance(v, datetime):
            v = v.isoformat().replace("+00:00", "Z")
        elif k == "timeout" and isinstance(v, (int, float)):
            v = f"{max(1, round(v * 1000))}ms"
        q[k] = str(v)
    return "?" + urllib.parse.urlencode(q) if q else ""


class Sandbox:
    """A running sandbox: a process started here, or a server at a URL."""

    def __init__(self, url, admin_token="", process=None, log=None):
        self.url = url.rstrip("/")
        self.admin_token = admin_token
        self.process = process
        self._log = log if log is not None else deque(maxlen=200)

    def request(self, method, path, body=None):
        """Calls the control API and answers its decoded JSON; an error
        status raises SandboxError."""
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        if self.admin_token:
            req.add_header("X-Admin-Token", self.admin_token)
        try:
            with urllib.request.urlopen(req, timeout=90) as res:
                raw = res.read()
        except urllib.error.HTTPError as e:
            raw = e.read()
            try:
                parsed = json.loads(raw)
            except ValueError:
                parsed = {"message": raw.decode(errors="replace").strip()}
            raise SandboxError(e.code, parsed, f"{method} {path}") from None
        return json.loads(raw) if raw else None

    def health(self):
        return self.request("GET", "/_sandbox/health")

    def create_world(self, scenario=None, **spec):
        """Makes an isolated world: scenario (default demo) or yaml or
        snapshot, and id, seed, clockStart, ttl (default 30m)."""
        body = {"ttl": "30m", **spec}
        if scenario or not (spec.get("yaml") or spec.get("snapshot")):
            body["scenario"] = scenario or "demo"
        return World(self, self.request("POST", "/_sandbox/worlds", body))

    def stop(self):
        """Stops the process started here; a sandbox at a URL keeps running."""
        p = self.process
        if p is None or p.poll() is not None:
            return
        p.terminate()
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()

    def log(self):
        """The last lines the started process logged."""
        return "\n".join(self._log)


class World:
    """One isolated world: its keys, clock, outbox and deliveries."""

    def __init__(self, sandbox, w):
        self.sandbox = sandbox
        self.id = w["id"]
        self.keys = w["keys"]
        self.clock = w["clock"]
        # The public API's base URL: an official SDK's base_url.
        self.base_url = sandbox.url
        # The card vault's base URL, the sandbox's https://vault.joinslash.com:
        # only there does GET /card/{cardId}?include_pan=true reveal the PAN
        # (and include_cvv=true the CVV). Give it to a second SDK client.
        self.vault_url = sandbox.url + "/vault"

    def key(self, name):
        """The world's key for a scenario key name (or a key of the world);
        an unknown name raises KeyError listing the keys."""
        for k in self.keys:
            if k["key"] in (name, f"{name}_{self.id}"):
                return k["key"]
        known = ", ".join(k["key"] for k in self.keys)
        raise KeyError(f"world {self.id} has no API key {name!r}; its keys are {known}")

    def control(self, method, path, body=None):
        """A control call for this world; path is relative to /_sandbox/."""
        return self.sandbox.request(method, f"/_sandbox/worlds/{urllib.parse.quote(self.id)}{path}", body)

    def advance(self, by):
        """Advances the virtual clock by a duration ("36h", "2d")."""
        return self.control("POST", "/clock/advance", {"by": by})

    def advance_to(self, to):
        """Advances the virtual clock to an instant or to "next"."""
        if isinstance(to, datetime):
            to = to.isoformat().replace("+00:00", "Z")
        return self.control("POST", "/clock/advance", {"to": to})

    def now(self):
        return self.control("GET", "/clock")

    def reset(self):
        return self.control("POST", "/reset")

    def wait_for_email(self, to=None, kind=None, related_id=None, subject=None, since=None, after=None, timeout=None):
        """The first email, in the order they were sent, that matches,
        waiting for it; timeout is seconds or a duration ("5s"), 10 s by
        default, at most 60 s. Raises SandboxError (timed_out) when none
        comes."""
        q = _query({"to": to, "kind": kind, "relatedId": related_id, "subject": subject,
                    "since": since, "after": after, "timeout": timeout})
        return self.control("GET", "/outbox/wait" + q)

    def wait_for_delivery(self, webhook_id=None, event=None, status=None, since=None, after=None, timeout=None):
        """The first webhook delivery, in the order they were made, that
        matches (with status, once one reaches it), waiting for it."""
        q = _query({"webhookId": webhook_id, "event": event, "status": status,
                    "since": since, "after": after, "timeout": timeout})
        return self.control("GET", "/webhook-deliveries/wait" + q)

    def outbox(self, **filters):
        """The emails the world sent, newest first (to, kind, relatedId, subject)."""
        return self.control("GET", "/outbox" + _query(filters))["items"]

    def deliveries(self, **filters):
        """The world's webhook deliveries in the order they were made (the first 500)."""
        return self.control("GET", "/webhook-deliveries" + _query({"limit": 500, **filters}))["items"]

    def snapshot(self, label=""):
        """Saves the world's whole state; answers the snapshot."""
        return self.control("POST", "/snapshots", {"label": label})

    def restore(self, snapshot_id):
        return self.control("POST", f"/snapshots/{urllib.parse.quote(snapshot_id)}/restore")

    def delete(self):
        self.sandbox.request("DELETE", f"/_sandbox/worlds/{urllib.parse.quote(self.id)}")


_LISTENING = re.compile(r"listening on (http://[^\s\"]+)")


def start_sandbox(url=None, bin=None, args=(), admin_token=None, start_timeout=20.0):
    """The sandbox at url (or SLASH_SANDBOX_URL), else the binary at bin
    (or SLASH_SANDBOX_BIN) started on a free loopback port."""
    url = url or os.environ.get("SLASH_SANDBOX_URL")
    if admin_token is None:
        admin_token = os.environ.get("SLASH_SANDBOX_ADMIN_TOKEN", "")
    if url:
        sb = Sandbox(url, admin_token)
        sb.health()
        return sb
    bin = bin or os.environ.get("SLASH_SANDBOX_BIN")
    if not bin:
        raise RuntimeError("slash-sandbox: give --slash-sandbox-url or --slash-sandbox-bin, or set SLASH_SANDBOX_URL "
                           "(a running sandbox or container) or SLASH_SANDBOX_BIN (the binary: "
                           "go build -o slash-sandbox ./cmd/slash-sandbox)")
    cmd = [bin, "--addr", "127.0.0.1:0", "--log-format", "json", *args]
    if admin_token:
        cmd += ["--admin-token", admin_token]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    log = deque(maxlen=200)
    found = {}
    ready = threading.Event()

    def read():
        # Reads the log to its end, so the process never blocks on a full pipe.
        for line in proc.stderr:
            log.append(line.rstrip("\n"))
            m = not ready.is_set() and _LISTENING.search(line)
            if m:
                found["url"] = m.group(1)
                ready.set()
        ready.set()

    threading.Thread(target=read, daemon=True).start()
    if not ready.wait(start_timeout) or "url" not in found:
        proc.kill()
        proc.wait()
        raise RuntimeError(f"slash-sandbox ({bin}) did not serve within {start_timeout}s:\n" + "\n".join(log))
    return Sandbox(found["url"], admin_token, proc, log)


def pytest_addoption(parser):
    group = parser.getgroup("slash-sandbox")
    group.addoption("--slash-sandbox-url", default=None, help="a running sandbox (default: SLASH_SANDBOX_URL)")
    group.addoption("--slash-sandbox-bin", default=None, help="the slash-sandbox binary to start (default: SLASH_SANDBOX_BIN)")


def pytest_configure(config):
    config.addinivalue_line("markers", "sandbox_world(scenario=..., **spec): the world sandbox_world makes for the test")


@pytest.fixture(scope="session")
def slash_sandbox(request):
    """The session's sandbox, started or connected once."""
    sb = start_sandbox(url=request.config.getoption("--slash-sandbox-url"),
                       bin=request.config.getoption("--slash-sandbox-bin"))
    yield sb
    sb.stop()


@pytest.fixture
def sandbox_world(slash_sandbox, request):
    """An isolated world for one test, deleted after it."""
    marker = request.node.get_closest_marker("sandbox_world")
    spec = dict(marker.kwargs) if marker else {}
    world = slash_sandbox.create_world(**spec)
    yield world
    try:
        world.delete()
    except SandboxError as e:
        if e.status != 404:  # the test deleted it itself
            raise

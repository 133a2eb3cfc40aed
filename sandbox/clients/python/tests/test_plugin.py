"""Runs against the real binary:

    SLASH_SANDBOX_BIN=/path/to/slash-sandbox python3 -m pytest sandbox/clients/python/tests
"""

import http.server
import json
import os
import threading
import urllib.request

import pytest

from pytest_slash_sandbox import SandboxError, start_sandbox

pytestmark = pytest.mark.skipif(not (os.environ.get("SLASH_SANDBOX_BIN") or os.environ.get("SLASH_SANDBOX_URL")),
                                reason="set SLASH_SANDBOX_BIN or SLASH_SANDBOX_URL")


def api(world, key, method, path, body=None, headers=None):
    """What an official SDK built with base_url=world.base_url sends."""
    req = urllib.request.Request(world.base_url + path, method=method,
                                 data=None if body is None else json.dumps(body).encode())
    req.add_header("X-API-Key", world.key(key))
    if body is not None:
        req.add_header("Content-Type", "application/json")
    for k, v in (headers or {}).items():
        req.add_header(k, v)
    with urllib.request.urlopen(req, timeout=30) as res:
        return json.loads(res.read())


def ask_for_bank_details(world, contact, idempotency_key):
    return api(world, "sk_sandbox_alice", "POST", "/v2/information-requests",
               {"contactId": contact, "requestedInformation": {"destinationTypes": ["bank_account"]},
                "requesterName": "Alice Chen"},
               {"x-legal-entity": "le_acme", "X-Idempotency-Key": idempotency_key})


def test_world_keys_and_base_url(sandbox_world):
    assert sandbox_world.key("sk_sandbox_acme") == f"sk_sandbox_acme_{sandbox_world.id}"
    with pytest.raises(KeyError, match=r"no API key 'sk_sandbox_acem'; its keys are .*sk_sandbox_acme_"):
        sandbox_world.key("sk_sandbox_acem")
    accounts = api(sandbox_world, "sk_sandbox_acme", "GET", "/account")
    assert "sa_group_acmeoperating" in [a["id"] for a in accounts["items"]]


def test_vault_url_reveals_the_pan(sandbox_world):
    # docs.slash.com/api-reference/card-get-by-id: the PAN and CVV come only
    # from the vault host; the main base URL answers the card without them.
    key = sandbox_world.key("sk_sandbox_acme")
    query = "/card/card_acmeaws?include_pan=true&include_cvv=true"
    for base, revealed in ((sandbox_world.vault_url, True), (sandbox_world.base_url, False)):
        req = urllib.request.Request(base + query)
        req.add_header("X-API-Key", key)
        with urllib.request.urlopen(req, timeout=30) as res:
            card = json.loads(res.read())
        assert card["id"] == "card_acmeaws"
        assert ("pan" in card and "cvv" in card) == revealed, (base, card)
        if revealed:
            assert len(card["pan"]) == 16 and card["pan"].endswith(card["last4"])


def test_wait_for_email(sandbox_world):
    ir = ask_for_bank_details(sandbox_world, "le_c_pixelforge", "py-1")
    msg = sandbox_world.wait_for_email(to="hello@pixelforge.test", timeout=30)
    assert msg["kind"] == "information_request"
    assert msg["to"] == ["hello@pixelforge.test"]
    assert msg["relatedId"] == ir["id"]
    with pytest.raises(SandboxError) as e:
        sandbox_world.wait_for_email(after=msg["id"], timeout=0.02)
    assert e.value.timed_out and e.value.code == "timeout" and e.value.details == {"timeout": "20ms"}


class _Receiver(http.server.BaseHTTPRequestHandler):
    got = []

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        _Receiver.got.append((self.headers["slash-webhook-signature"], json.loads(body)))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


def test_wait_for_delivery(sandbox_world):
    srv = http.server.HTTPServer(("127.0.0.1", 0), _Receiver)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        hook = api(sandbox_world, "sk_sandbox_acme", "POST", "/webhook",
                   {"url": f"http://127.0.0.1:{srv.server_port}/hooks", "name": "pytest receiver"})
        queued = sandbox_world.control("POST", f"/webhooks/{hook['id']}/trigger",
                                       {"event": "card.update", "entityId": "card_acmeaws"})
        d = sandbox_world.wait_for_delivery(webhook_id=hook["id"], status="succeeded", timeout="30s")
        assert d["id"] == queued["id"] and len(d["attempts"]) == 1 and d["attempts"][0]["response"]["status"] == 204
        assert _Receiver.got[-1][1] == {"entityId": "card_acmeaws", "event": "card.update", "eventId": d["eventId"]}
        assert _Receiver.got[-1][0]
    finally:
        srv.shutdown()
        srv.server_close()


def test_clock_and_snapshots(sandbox_world):
    adv = sandbox_world.advance("1d")
    snap = sandbox_world.snapshot("a day in")
    sandbox_world.advance("1d")
    sandbox_world.restore(snap["id"])
    assert sandbox_world.now()["now"] == adv["clock"]["now"]


@pytest.mark.sandbox_world(scenario="empty")
def test_marker_chooses_the_scenario(sandbox_world):
    assert sandbox_world.key("sk_test_empty_user") == f"sk_test_empty_user_{sandbox_world.id}"


def test_deleted_world_is_gone(slash_sandbox):
    w = slash_sandbox.create_world("empty")
    w.delete()
    with pytest.raises(SandboxError) as e:
        w.now()
    assert e.value.status == 404 and e.value.code == "not_found"


def test_start_sandbox_needs_a_url_or_binary(monkeypatch):
    monkeypatch.delenv("SLASH_SANDBOX_URL", raising=False)
    monkeypatch.delenv("SLASH_SANDBOX_BIN", raising=False)
    with pytest.raises(RuntimeError, match="SLASH_SANDBOX_BIN"):
        start_sandbox()

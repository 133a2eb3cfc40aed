"""Drives a running sandbox with the official Python SDK, strictly.

Every response is parsed with the SDK's strict response validation, so a
field the SDK requires that is missing, or a value of the wrong type or an
enum value it does not know, fails the run. A read-only key's write must
raise the SDK's PermissionDeniedError carrying the approval URL.

    PYTHONPATH=<slash-sdk-python>/src python3 bench/sdk/check.py http://127.0.0.1:8080
"""

import sys
import uuid

import slash_sdk

BASE = sys.argv[1]
failures = []


def client(key):
    return slash_sdk.SlashSDK(api_key=key, base_url=BASE, max_retries=0, _strict_response_validation=True)


def step(name, fn):
    try:
        out = fn()
        print("ok  ", name)
        return out
    except Exception as e:  # noqa: BLE001 - every failure is reported
        failures.append(name)
        print("FAIL", name, type(e).__name__, str(e)[:400])
        return None


acme = client("sk_sandbox_acme")
step("legal_entity.list", lambda: acme.legal_entity.list())
accounts = step("account.list", lambda: acme.account.list())
account_id = accounts.items[0].id if accounts else "sa_group_acmeoperating"
step("account.retrieve", lambda: acme.account.retrieve(account_id))
step("account.retrieve_balance", lambda: acme.account.retrieve_balance(account_id))

step("virtual_account.list", lambda: acme.virtual_account.list())
va = step("virtual_account.create", lambda: acme.virtual_account.create(account_id=account_id, name="SDK check"))
if va:
    step("virtual_account.retrieve", lambda: acme.virtual_account.retrieve(va.virtual_account.id))
    step("virtual_account.update", lambda: acme.virtual_account.update(va.virtual_account.id, action="update", name="SDK check 2"))
    step("transfer.create_virtual_account_transfer", lambda: acme.transfer.create_virtual_account_transfer(
        amount_cents=100, source=account_id, destination=va.virtual_account.id, x_idempotency_key=str(uuid.uuid4())))

txns = step("transaction.list", lambda: acme.transaction.list())
step("transaction.list pending", lambda: acme.transaction.list(filter_status="pending"))
step("transaction.aggregate", lambda: acme.transaction.aggregate())
if txns and txns.items:
    t = txns.items[0]
    step("transaction.retrieve", lambda: acme.transaction.retrieve(t.id))
    step("transaction.retrieve_fee_details", lambda: acme.transaction.retrieve_fee_details(t.id))
    step("transaction.update_note", lambda: acme.transaction.update_note(t.id, note="checked by the SDK"))

step("card.list", lambda: acme.card.list())
card = step("card.create", lambda: acme.card.create(name="SDK check", type="virtual", account_id=account_id))
if card:
    step("card.retrieve", lambda: acme.card.retrieve(card.id))
    step("card.update", lambda: acme.card.update(card.id, name="SDK check 2"))
    step("card.get_utilization", lambda: acme.card.get_utilization(card.id))
    step("card.spending_constraint.update_partial", lambda: acme.card.spending_constraint.update_partial(
        card.id, spending_rule={"utilizationLimit": {"limitAmount": {"amountCents": 50000}, "preset": "monthly"}}))

step("card_group.list", lambda: acme.card_group.list())
group = step("card_group.create", lambda: acme.card_group.create(name="SDK check group"))
if group:
    step("card_group.retrieve", lambda: acme.card_group.retrieve(group.id))
    step("card_group.update", lambda: acme.card_group.update(group.id, name="SDK check group 2"))
    step("card_group.get_utilization", lambda: acme.card_group.get_utilization(group.id))

step("card_product.list", lambda: acme.card_product.list())
handles = step("slash_handle.list", lambda: acme.slash_handle.list())
step("pay.retrieve", lambda: acme.pay.retrieve())
step("merchant.list", lambda: acme.merchant.list())
step("merchant_category.list", lambda: acme.merchant_category.list())
step("fdx.customers.retrieve_current", lambda: acme.fdx.customers.retrieve_current())
fdx = step("fdx.accounts.list", lambda: acme.fdx.accounts.list())
hook = step("webhook.create", lambda: acme.webhook.create(name="SDK check", url="https://example.com/hook"))
step("webhook.list", lambda: acme.webhook.list())
if hook:
    step("webhook.update", lambda: acme.webhook.update(hook.id, status="archived"))

# A read-only key's write is deferred: the SDK raises PermissionDeniedError
# (403) and the body carries the approval URL.
readonly = client("sk_sandbox_acme_readonly")


def deferred():
    try:
        readonly.card.create(name="Needs approval", type="virtual", account_id=account_id)
    except slash_sdk.PermissionDeniedError as e:
        assert e.status_code == 403, e.status_code
        assert e.response.headers.get("x-deferred-action-id", "").startswith("dfa_"), dict(e.response.headers)
        assert str(e.body["error"]).startswith("Action requires approval: http"), e.body
        return e.body["error"]
    raise AssertionError("a read-only key's write did not raise PermissionDeniedError")


step("read-only write raises PermissionDeniedError", deferred)

print(f"\n{len(failures)} failed" if failures else "\nevery call validated against the SDK's types")
sys.exit(1 if failures else 0)

"""The code the pytest recipe of docs/testing.md calls "yours"."""
import builtins
import itertools

_calls = itertools.count(1)


def ask_vendor_for_bank_details(slash, contact_id):
    """Asks a contact for its bank account: a user key, x-legal-entity and an X-Idempotency-Key."""
    return slash.request(
        "POST",
        "/v2/information-requests",
        body={
            "contactId": contact_id,
            "requestedInformation": {"destinationTypes": ["bank_account"]},
            "requesterName": "Alice Chen",
        },
        headers={"x-legal-entity": "le_acme", "X-Idempotency-Key": f"ask-{contact_id}-{next(_calls)}"},
    )


builtins.ask_vendor_for_bank_details = ask_vendor_for_bank_details

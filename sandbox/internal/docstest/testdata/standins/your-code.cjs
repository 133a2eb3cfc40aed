// The code the Node recipes of docs/testing.md call "yours", as globals.
const http = require('node:http');

let calls = 0;

// asks a contact for its bank account: a user key, x-legal-entity and an
// X-Idempotency-Key
globalThis.askVendorForBankDetails = (slash, contactId) =>
  slash.request('POST', '/v2/information-requests', {
    headers: { 'x-legal-entity': 'le_acme', 'X-Idempotency-Key': `ask-${contactId}-${++calls}` },
    body: { contactId, requestedInformation: { destinationTypes: ['bank_account'] }, requesterName: 'Alice Chen' },
  });

// registers a receiver that answers 200 as a webhook endpoint, then pays
// Northwind by ACH; the transfer's id is its transaction's
globalThis.payVendor = async (slash) => {
  const receiver = http.createServer((req, res) => { req.resume(); req.on('end', () => res.end()); });
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiver.unref();
  await slash.request('POST', '/webhook', {
    body: { url: `http://127.0.0.1:${receiver.address().port}/hooks`, name: 'My app' },
  });
  const t = await slash.request('POST', '/transfers/ach', {
    headers: { 'X-Idempotency-Key': `pay-${++calls}` },
    body: { accountId: 'sa_group_acmeoperating', destinationId: 'le_c_dest_northwindach', amountCents: 100000, memo: 'INV 42' },
  });
  return { ...t, id: t.transactionId };
};

// Runs against the real binary: SLASH_SANDBOX_BIN=/path/to/slash-sandbox node --test test/
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { createRequire } from 'node:module';

import { startSandbox, SandboxError } from '../index.js';

const haveSandbox = Boolean(process.env.SLASH_SANDBOX_BIN || process.env.SLASH_SANDBOX_URL);

// The code under test would hold an official SDK pointed at the world:
// new SlashSDK({ apiKey: world.key('sk_sandbox_acme'), baseURL: world.baseURL }).
// These tests make the same requests with fetch.
async function api(world, key, method, path, body, headers = {}) {
  const res = await fetch(world.baseURL + path, {
    method,
    headers: { 'X-API-Key': world.key(key), ...(body ? { 'Content-Type': 'application/json' } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json();
  assert.ok(res.ok, `${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

function askForBankDetails(world, contactId, idempotencyKey) {
  return api(world, 'sk_sandbox_alice', 'POST', '/v2/information-requests',
    { contactId, requestedInformation: { destinationTypes: ['bank_account'] }, requesterName: 'Alice Chen' },
    { 'x-legal-entity': 'le_acme', 'X-Idempotency-Key': idempotencyKey });
}

describe('slash-sandbox from node:test', { skip: !haveSandbox && 'set SLASH_SANDBOX_BIN or SLASH_SANDBOX_URL' }, () => {
  let sandbox;
  let world;
  before(async () => {
    sandbox = await startSandbox();
  });
  after(async () => {
    await sandbox.stop();
    if (sandbox.process) assert.notEqual(sandbox.process.exitCode ?? sandbox.process.signalCode, null, 'the started process still runs');
  });
  beforeEach(async () => {
    world = await sandbox.createWorld({ scenario: 'demo' });
  });
  afterEach(async () => {
    await world.delete();
  });

  test('a world has its own keys, and the public API answers them at baseURL', async () => {
    assert.equal(world.key('sk_sandbox_acme'), `sk_sandbox_acme_${world.id}`);
    assert.equal(world.key(`sk_sandbox_acme_${world.id}`), `sk_sandbox_acme_${world.id}`);
    assert.throws(() => world.key('sk_sandbox_acem'), (err) => {
      assert.match(err.message, /no API key "sk_sandbox_acem"; its keys are .*sk_sandbox_acme_/);
      return true;
    });
    const accounts = await api(world, 'sk_sandbox_acme', 'GET', '/account');
    assert.ok(accounts.items.some((a) => a.id === 'sa_group_acmeoperating'), JSON.stringify(accounts));
  });

  test('vaultURL reveals the PAN and CVV, baseURL does not', async () => {
    // docs.slash.com/api-reference/card-get-by-id: the PAN and CVV come only
    // from the vault host, a second SDK client's baseURL.
    const read = async (base) => {
      const res = await fetch(base + '/card/card_acmeaws?include_pan=true&include_cvv=true', {
        headers: { 'X-API-Key': world.key('sk_sandbox_acme') },
      });
      assert.equal(res.status, 200);
      return res.json();
    };
    const vault = await read(world.vaultURL);
    assert.equal(vault.pan.length, 16, JSON.stringify(vault));
    assert.ok(vault.pan.endsWith(vault.last4) && vault.cvv, JSON.stringify(vault));
    const main = await read(world.baseURL);
    assert.equal(main.id, 'card_acmeaws');
    assert.ok(!('pan' in main) && !('cvv' in main), JSON.stringify(main));
  });

  test('waitForEmail answers the email the code under test made the sandbox send', async () => {
    const pending = world.waitForEmail({ to: 'hello@pixelforge.test', timeout: 30_000 });
    const ir = await askForBankDetails(world, 'le_c_pixelforge', 'js-1');
    const msg = await pending;
    assert.equal(msg.kind, 'information_request');
    assert.deepEqual(msg.to, ['hello@pixelforge.test']);
    assert.equal(msg.relatedId, ir.id);
    assert.match(msg.links.secureForm, /\/forms\/information-requests\//);

    // after: only a newer email matches, and none comes.
    await assert.rejects(world.waitForEmail({ after: msg.id, timeout: 20 }), (err) => {
      assert.ok(err instanceof SandboxError);
      assert.equal(err.status, 408);
      assert.equal(err.code, 'timeout');
      assert.ok(err.timedOut);
      return true;
    });
    const sameSubject = await world.outbox({ subject: msg.subject });
    assert.ok(sameSubject.every((m) => m.subject.includes(msg.subject)) && sameSubject.some((m) => m.id === msg.id), JSON.stringify(sameSubject));
  });

  test('worlds are isolated: another world sees none of this one\'s emails', async () => {
    const other = await sandbox.createWorld({ scenario: 'demo' });
    try {
      const before = await other.outbox();
      await askForBankDetails(world, 'le_c_danaconsulting', 'js-2');
      await world.waitForEmail({ to: 'dana@reyes.test', timeout: 5000 });
      assert.deepEqual(await other.outbox(), before);
      assert.ok(!before.some((m) => m.to.includes('dana@reyes.test')), JSON.stringify(before));
    } finally {
      await other.delete();
    }
  });

  test('waitForDelivery follows a webhook delivery to the receiver until it succeeds', async () => {
    const received = [];
    const receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => { body += c; });
      req.on('end', () => {
        received.push({ signature: req.headers['slash-webhook-signature'], body: JSON.parse(body) });
        res.writeHead(204).end();
      });
    });
    await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const hook = await api(world, 'sk_sandbox_acme', 'POST', '/webhook',
        { url: `http://127.0.0.1:${receiver.address().port}/hooks`, name: 'test receiver' });
      const queued = await world.control('POST', `/webhooks/${hook.id}/trigger`, { event: 'card.update', entityId: 'card_acmeaws' });
      const d = await world.waitForDelivery({ webhookId: hook.id, status: 'succeeded', timeout: '30s' });
      assert.equal(d.id, queued.id);
      assert.equal(d.attempts.length, 1);
      assert.equal(d.attempts[0].response.status, 204);
      assert.equal(received.length, 1);
      assert.deepEqual(received[0].body, { entityId: 'card_acmeaws', event: 'card.update', eventId: d.eventId });
      assert.ok(received[0].signature);
    } finally {
      receiver.close();
    }
  });

  test('the clock advances, and a snapshot restores the world as it was', async () => {
    const start = await world.now();
    const adv = await world.advance('2d');
    assert.equal(Date.parse(adv.clock.now) - Date.parse(start.now), 48 * 3600 * 1000);
    const snap = await world.snapshot('two days in');
    await world.advance('1d');
    await world.restore(snap.id);
    assert.equal((await world.now()).now, adv.clock.now);
  });

  test('a deleted world is gone', async () => {
    const gone = await sandbox.createWorld({ scenario: 'empty' });
    await gone.delete();
    await assert.rejects(gone.now(), (err) => err instanceof SandboxError && err.status === 404 && err.code === 'not_found');
  });
});

test('the CommonJS entry (Jest, require) exports the same API', () => {
  const cjs = createRequire(import.meta.url)('../index.cjs');
  assert.equal(typeof cjs.startSandbox, 'function');
  assert.equal(cjs.SandboxError.name, 'SandboxError');
});

test('startSandbox without a URL or binary says how to give one', async () => {
  const saved = { url: process.env.SLASH_SANDBOX_URL, bin: process.env.SLASH_SANDBOX_BIN };
  delete process.env.SLASH_SANDBOX_URL;
  delete process.env.SLASH_SANDBOX_BIN;
  try {
    await assert.rejects(startSandbox(), /SLASH_SANDBOX_BIN/);
    await assert.rejects(startSandbox({ bin: '/nonexistent/slash-sandbox' }), /could not be started/);
  } finally {
    if (saved.url !== undefined) process.env.SLASH_SANDBOX_URL = saved.url;
    if (saved.bin !== undefined) process.env.SLASH_SANDBOX_BIN = saved.bin;
  }
});

// Drives a running sandbox with the official TypeScript SDK: a read-only
// key's write must reject with the SDK's PermissionDeniedError (403), its
// body carrying the approval URL and its headers the agent request's id,
// and the approval URL must open the sandbox's approval page.
//
//   node bench/sdk/check.mjs <slash-sdk-typescript build dir> http://127.0.0.1:8080
import { createRequire } from 'node:module';
import path from 'node:path';

const [dist, base] = process.argv.slice(2);
const require = createRequire(import.meta.url);
const sdk = require(path.resolve(dist, 'index.js'));
const failures = [];

async function step(name, fn) {
  try {
    const out = await fn();
    console.log('ok  ', name);
    return out;
  } catch (err) {
    failures.push(name);
    console.log('FAIL', name, String(err && err.stack || err).slice(0, 400));
  }
}

function expect(cond, what) {
  if (!cond) throw new Error(what);
}

const acme = new sdk.SlashSDK({ apiKey: 'sk_sandbox_acme', baseURL: base, maxRetries: 0 });
const readonly = new sdk.SlashSDK({ apiKey: 'sk_sandbox_acme_readonly', baseURL: base, maxRetries: 0 });

const accounts = await step('account.list', () => acme.account.list());
const accountId = accounts ? accounts.items[0].id : 'sa_group_acmeoperating';
await step('slash-handle.list has the SDK Handle fields', async () => {
  const res = await acme.slashHandle.list();
  for (const h of res.items) {
    for (const k of ['id', 'accountId', 'name', 'slashHandle']) expect(typeof h[k] === 'string', `handle lacks ${k}: ${JSON.stringify(h)}`);
  }
});

const url = await step('read-only write rejects with PermissionDeniedError', async () => {
  try {
    await readonly.card.create({ name: 'Needs approval', type: 'virtual', accountId });
  } catch (err) {
    expect(err instanceof sdk.PermissionDeniedError, `got ${err && err.constructor.name}: ${err}`);
    expect(err.status === 403, `status ${err.status}`);
    expect(/^dfa_/.test(err.headers.get('x-deferred-action-id') || ''), 'no x-deferred-action-id');
    const m = /^Action requires approval: (\S+)$/.exec(err.error && err.error.error);
    expect(m, `body ${JSON.stringify(err.error)}`);
    return m[1];
  }
  throw new Error('the write succeeded');
});
if (url) {
  await step('the approval URL opens the approval page', async () => {
    const res = await fetch(url);
    expect(res.ok, `GET ${url}: ${res.status}`);
    expect((res.headers.get('content-type') || '').startsWith('text/html'), res.headers.get('content-type'));
  });
}

console.log(failures.length ? `\n${failures.length} failed` : '\nthe TypeScript SDK sees the sandbox as it sees the service');
process.exit(failures.length ? 1 : 0);

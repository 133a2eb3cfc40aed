// Every call the dashboard makes goes through this module. Control calls
// carry the admin token (when one was given) and the chosen world; public
// API calls carry an API key of that world for the chosen legal entity.
// Each call is marked with X-Sandbox-Dashboard, so the request journal
// leaves the dashboard's reads out and keeps its actions.

const store = window.sessionStorage;

function stored(name) {
  return {
    get: () => store.getItem('sandbox.' + name) || '',
    set: (v) => (v ? store.setItem('sandbox.' + name, v) : store.removeItem('sandbox.' + name)),
  };
}

/** The dashboard's choices, kept for the browser tab's session. */
export const session = {
  token: stored('token'),
  world: stored('world'),
  entity: stored('entity'),
};

/** An answer other than 2xx, with the error envelope's message and details. */
export class ApiError extends Error {
  constructor(status, body) {
    const msg = body && typeof body === 'object' && body.message ? body.message : `HTTP ${status}`;
    super(msg);
    this.status = status;
    this.body = body;
    this.details = body && typeof body === 'object' ? body.details || (body.meta && body.meta.details) : null;
  }
}

// headersOf adds the dashboard's mark and the chosen world to a call's headers.
function headersOf(headers) {
  const h = { 'X-Sandbox-Dashboard': '1', ...headers };
  if (session.world.get()) h['X-Sandbox-World'] = session.world.get();
  return h;
}

// answer reads an answer's text as JSON, throwing ApiError for a status other than 2xx.
function answer(status, text) {
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = { message: text.trim() };
    }
  }
  if (status < 200 || status > 299) throw new ApiError(status, data);
  return data;
}

async function call(path, { method = 'GET', headers = {}, body } = {}) {
  const h = headersOf(headers);
  let payload;
  if (body !== undefined) {
    h['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const res = await fetch(path, { method, headers: h, body: payload, cache: 'no-store' });
  return answer(res.status, await res.text());
}

/** Builds a query string from an object, leaving out empty values. */
export function qs(params) {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params || {})) {
    if (v !== undefined && v !== null && v !== '') u.set(k, v);
  }
  const s = u.toString();
  return s ? '?' + s : '';
}

// adminHeaders carry the admin token, when one was given.
function adminHeaders() {
  return session.token.get() ? { 'X-Admin-Token': session.token.get() } : {};
}

/** A control API call: control('POST', '/clock/advance', {by: '1h'}). */
export function control(method, path, body) {
  return call('/_sandbox' + path, { method, headers: adminHeaders(), body });
}

/** A control API file as a Blob: controlFile('/worlds/w1/scenario'). */
export async function controlFile(path) {
  const res = await fetch('/_sandbox' + path, { headers: headersOf(adminHeaders()), cache: 'no-store' });
  if (!res.ok) return answer(res.status, await res.text());
  return res.blob();
}

let cached = null;

/** Forgets what was read about the world (after switching world or token). */
export function forget() {
  cached = null;
}

// rank orders the keys that may act on a legal entity: a writable key of
// the entity itself first, then a user key, then read-only ones.
function rank(k) {
  return (k.readOnly ? 2 : 0) + (k.kind === 'legal_entity' ? 0 : 1);
}

/**
 * The world's keys and legal entities, read once per world: each entity
 * with the key the dashboard uses for it.
 */
export async function world() {
  const id = session.world.get();
  if (cached && cached.id === id) return cached.value;
  const value = (async () => {
    const keys = (await control('GET', '/keys')).items;
    const chosen = new Map();
    for (const k of keys) {
      for (const le of k.legalEntityIds) {
        const cur = chosen.get(le);
        if (!cur || rank(k) < rank(cur)) chosen.set(le, k);
      }
    }
    const names = new Map();
    const distinct = [...new Set(chosen.values())];
    await Promise.all(distinct.map(async (k) => {
      const res = await call('/legal-entity', { headers: { 'X-API-Key': k.key } });
      for (const e of res.items) names.set(e.id, e);
    }));
    const entities = [...chosen.keys()].sort().map((id) => ({ id, name: id, ...(names.get(id) || {}), key: chosen.get(id) }));
    return { keys, entities };
  })();
  cached = { id, value };
  value.catch(() => { if (cached && cached.value === value) cached = null; });
  return value;
}

/**
 * The names of a public list's items by id, across every legal entity of
 * the world: namesOf('/webhook'). A list an entity cannot read adds none.
 */
export async function namesOf(path) {
  const { entities } = await world();
  const names = new Map();
  await Promise.all(entities.map(async (le) => {
    const items = await walk(le, path).catch(() => []);
    for (const x of items) names.set(x.id, x.name);
  }));
  return names;
}

/** The world's keys and legal entities by id, for their names. */
export async function directory() {
  const { keys, entities } = await world();
  return { keys: new Map(keys.map((k) => [k.key, k])), entities: new Map(entities.map((e) => [e.id, e])) };
}

/** The legal entity the dashboard shows: the chosen one, else the first. */
export async function entity() {
  const { entities } = await world();
  return entities.find((e) => e.id === session.entity.get()) || entities[0] || null;
}

/** A public API call as the given legal entity (an entity from world()). */
export function pub(le, method, path, body) {
  const headers = { 'X-API-Key': le.key.key };
  if (le.key.kind === 'user') headers['x-legal-entity'] = le.id;
  return call(path, { method, headers, body });
}

/** Every item of a public list, following its cursors (at most maxPages). */
export async function walk(le, path, params = {}, maxPages = 20) {
  const items = [];
  let cursor = '';
  for (let i = 0; i < maxPages; i++) {
    const page = await pub(le, 'GET', path + qs({ ...params, cursor }));
    items.push(...page.items);
    cursor = page.metadata && page.metadata.nextCursor;
    if (!cursor) break;
  }
  return items;
}

// The world's changes, watched by one long poll per tab
// (GET /_sandbox/changes?since=…): pages subscribe with onChange and
// refresh when something changed, instead of polling on a timer. The poll's
// requests are made by a worker (poll.js): a request the page itself makes
// holds a headless browser's virtual time until it is answered, and the
// poll is always waiting.
const listeners = new Set();
let watching = 0;
let waiting = null;
let poller = null;
let polls = 0;
const answers = new Map();
const pause = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

// polled is a control GET made by the poll's worker; abort() gives it up.
function polled(path) {
  if (!poller) {
    poller = new Worker('/_sandbox/ui/poll.js');
    poller.addEventListener('message', (ev) => {
      const waiter = answers.get(ev.data.id);
      answers.delete(ev.data.id);
      if (waiter) waiter(ev.data);
    });
  }
  const id = ++polls;
  let settle;
  const result = new Promise((resolve, reject) => {
    settle = (a) => {
      if (a.error) reject(new Error(a.error));
      else {
        try {
          resolve(answer(a.status, a.text));
        } catch (err) {
          reject(err);
        }
      }
    };
  });
  answers.set(id, settle);
  poller.postMessage({ id, path: '/_sandbox' + path, headers: headersOf(adminHeaders()) });
  const abort = () => {
    if (!answers.delete(id)) return;
    poller.postMessage({ id, abort: true });
    settle({ error: 'aborted' });
  };
  return { result, abort };
}

/** Calls fn (no arguments) after each change of the world; returns the function that stops it. */
export function onChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/**
 * Watches the chosen world, replacing any earlier watch (after switching
 * world). Changes close together are told once; the listeners finish
 * before the next wait starts, so a tab holds one request at a time.
 */
export async function watch() {
  const generation = ++watching;
  if (waiting) waiting.abort();
  let since = '';
  while (generation === watching) {
    try {
      const started = Date.now();
      waiting = polled('/changes' + qs({ since, wait: since === '' ? '' : 25 }));
      const res = await waiting.result;
      if (generation !== watching) return;
      // The first answer only says where the world stands: a change made
      // after the page read what it shows and before this answer is
      // behind it, so the pages read again once.
      if (res.changed || since === '') {
        await pause(200);
        await Promise.allSettled([...listeners].map((fn) => fn()));
      } else if (since !== '' && Date.now() - started < 1000) {
        await pause(2000);
      }
      since = String(res.version);
    } catch {
      if (generation === watching) await pause(5000);
    }
  }
}

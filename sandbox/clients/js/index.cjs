'use strict';
// slash-sandbox for Node test suites: start the sandbox binary (or use one
// already running), make an isolated world per test, drive its clock, wait
// for the emails and webhook deliveries it sends, snapshot and restore, and
// clean up. No dependencies: Node 18+ (fetch, child_process).

const { spawn } = require('node:child_process');

/** An error answered by the control API: its status and envelope. */
class SandboxError extends Error {
  /**
   * @param {number} status
   * @param {{code?: string, message?: string, details?: Record<string, string>, referenceId?: string}} body
   * @param {string} what the call, e.g. "GET /_sandbox/outbox/wait"
   */
  constructor(status, body, what) {
    const details = body.details && Object.keys(body.details).length ? ` ${JSON.stringify(body.details)}` : '';
    super(`${what}: ${status} ${body.code || ''}: ${body.message || ''}${details}`);
    this.name = 'SandboxError';
    this.status = status;
    this.code = body.code || '';
    this.details = body.details || {};
    this.referenceId = body.referenceId || '';
  }

  /** True when a wait ran out of time (408 timeout). */
  get timedOut() {
    return this.status === 408;
  }
}

/**
 * The query string of a filter: its non-empty fields, a Date as RFC 3339,
 * a number of milliseconds as a duration.
 * @param {Record<string, unknown>} [filter]
 */
function query(filter = {}) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(filter)) {
    if (v === undefined || v === null || v === '') continue;
    if (v instanceof Date) q.set(k, v.toISOString());
    else if (k === 'timeout' && typeof v === 'number') q.set(k, `${Math.max(1, Math.round(v))}ms`);
    else q.set(k, String(v));
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** A running sandbox: a process this module started, or a server at a URL. */
class Sandbox {
  /**
   * @param {string} url
   * @param {{adminToken?: string, process?: import('node:child_process').ChildProcess, log?: string[]}} [o]
   */
  constructor(url, o = {}) {
    /** The sandbox's base URL: an official SDK's baseURL. */
    this.url = url.replace(/\/+$/, '');
    this.adminToken = o.adminToken || '';
    /** The process this module started, or null. */
    this.process = o.process || null;
    this._log = o.log || [];
  }

  /**
   * Calls the control API and answers its decoded JSON; an error status
   * throws a SandboxError.
   * @param {string} method
   * @param {string} path a path under the sandbox, e.g. "/_sandbox/health"
   * @param {unknown} [body]
   */
  async request(method, path, body) {
    const headers = {};
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (this.adminToken) headers['X-Admin-Token'] = this.adminToken;
    const res = await fetch(this.url + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = { message: text.trim() };
    }
    if (!res.ok) throw new SandboxError(res.status, parsed || {}, `${method} ${path}`);
    return parsed;
  }

  /** The sandbox's readiness: status, version, the default world's clock. */
  health() {
    return this.request('GET', '/_sandbox/health');
  }

  /**
   * Makes an isolated world with its own keys and clock.
   * @param {{scenario?: string, yaml?: string, snapshot?: string, id?: string, seed?: number, clockStart?: string, ttl?: string}} [spec]
   * @returns {Promise<World>}
   */
  async createWorld(spec = {}) {
    const body = { ttl: '30m', ...spec };
    if (!body.yaml && !body.snapshot && !body.scenario) body.scenario = 'demo';
    const w = await this.request('POST', '/_sandbox/worlds', body);
    return new World(this, w);
  }

  /** Stops the process this module started; a sandbox at a URL is left running. */
  async stop() {
    const p = this.process;
    if (!p || p.exitCode !== null || p.signalCode !== null) return;
    const exited = new Promise((resolve) => p.once('exit', resolve));
    p.kill('SIGTERM');
    const timer = setTimeout(() => p.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }

  /** The last lines the started process logged, for a failing test's report. */
  log() {
    return this._log.join('\n');
  }
}

/** One isolated world of a sandbox: its keys, clock, outbox and deliveries. */
class World {
  /**
   * @param {Sandbox} sandbox
   * @param {{id: string, keys: Array<{key: string}>, clock: object}} w
   */
  constructor(sandbox, w) {
    this.sandbox = sandbox;
    this.id = w.id;
    /** The world's API keys: the scenario's, with "_<id>" appended. */
    this.keys = w.keys;
    this.clock = w.clock;
    /** The public API's base URL: give it, with a key, to an official SDK. */
    this.baseURL = sandbox.url;
    /**
     * The card vault's base URL, the sandbox's https://vault.joinslash.com:
     * the only one whose GET /card/{cardId}?include_pan=true&include_cvv=true
     * reveals the PAN and CVV. Give it to a second SDK client.
     */
    this.vaultURL = sandbox.url + '/vault';
  }

  /**
   * The world's API key for a scenario key ("sk_sandbox_acme") or a key
   * of the world itself; an unknown name throws, listing the keys.
   * @param {string} name
   */
  key(name) {
    for (const k of this.keys) {
      if (k.key === name || k.key === `${name}_${this.id}`) return k.key;
    }
    throw new Error(`world ${this.id} has no API key ${JSON.stringify(name)}; its keys are ${this.keys.map((k) => k.key).join(', ')}`);
  }

  /**
   * A control call for this world: path is relative to /_sandbox/.
   * @param {string} method
   * @param {string} path e.g. "/clock"
   * @param {unknown} [body]
   */
  control(method, path, body) {
    return this.sandbox.request(method, `/_sandbox/worlds/${encodeURIComponent(this.id)}${path}`, body);
  }

  /** Advances the virtual clock by a duration ("36h", "2d"), running every event due. */
  advance(by) {
    return this.control('POST', '/clock/advance', { by });
  }

  /** Advances the virtual clock to an instant (RFC 3339) or to the next event ("next"). */
  advanceTo(to) {
    return this.control('POST', '/clock/advance', { to: to instanceof Date ? to.toISOString() : to });
  }

  /** The virtual clock: now, mode, start, nextEventAt. */
  now() {
    return this.control('GET', '/clock');
  }

  /** Puts the world back to its scenario's start. */
  reset() {
    return this.control('POST', '/reset');
  }

  /**
   * Waits for the first email, in the order they were sent, that the
   * filter matches. A timeout (number of ms or "5s"; 10 s by default, at
   * most 60 s) that passes throws a SandboxError with timedOut true.
   * @param {{to?: string, kind?: string, relatedId?: string, subject?: string, since?: string|Date, after?: string, timeout?: number|string}} [filter]
   */
  waitForEmail(filter) {
    return this.control('GET', `/outbox/wait${query(filter)}`);
  }

  /**
   * Waits for the first webhook delivery, in the order they were made,
   * that the filter matches (with status, for one to reach it).
   * @param {{webhookId?: string, event?: string, status?: string, since?: string|Date, after?: string, timeout?: number|string}} [filter]
   */
  waitForDelivery(filter) {
    return this.control('GET', `/webhook-deliveries/wait${query(filter)}`);
  }

  /**
   * The emails the world sent, newest first.
   * @param {{to?: string, kind?: string, relatedId?: string, subject?: string}} [filter]
   */
  async outbox(filter) {
    return (await this.control('GET', `/outbox${query(filter)}`)).items;
  }

  /**
   * The world's webhook deliveries in the order they were made (the first 500).
   * @param {{webhookId?: string, event?: string, status?: string}} [filter]
   */
  async deliveries(filter) {
    return (await this.control('GET', `/webhook-deliveries${query({ limit: 500, ...filter })}`)).items;
  }

  /** Saves the world's whole state; answers the snapshot (its id restores it). */
  snapshot(label = '') {
    return this.control('POST', '/snapshots', { label });
  }

  /** Puts the world back into a snapshot's state. */
  restore(snapshotId) {
    return this.control('POST', `/snapshots/${encodeURIComponent(snapshotId)}/restore`);
  }

  /** Deletes the world; waits on it end. */
  async delete() {
    await this.sandbox.request('DELETE', `/_sandbox/worlds/${encodeURIComponent(this.id)}`);
  }
}

/**
 * Starts the sandbox binary on a free loopback port and resolves once it
 * serves.
 * @param {string} bin
 * @param {{args?: string[], adminToken?: string, startTimeoutMs?: number, env?: NodeJS.ProcessEnv}} o
 */
function spawnSandbox(bin, o) {
  const args = ['--addr', '127.0.0.1:0', '--log-format', 'json', ...(o.args || [])];
  if (o.adminToken) args.push('--admin-token', o.adminToken);
  const proc = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...(o.env || {}) } });
  const log = [];
  return new Promise((resolve, reject) => {
    let ready = false;
    const fail = (why) => {
      if (ready) return;
      ready = true;
      clearTimeout(timer);
      proc.kill('SIGKILL');
      reject(new Error(`slash-sandbox (${bin}) ${why}\n${log.join('\n')}`));
    };
    const timer = setTimeout(() => fail(`did not start within ${o.startTimeoutMs || 20000} ms`), o.startTimeoutMs || 20000);
    const onLine = (line) => {
      log.push(line);
      if (log.length > 200) log.shift();
      const m = !ready && /listening on (http:\/\/[^\s"]+)/.exec(line);
      if (m) {
        ready = true;
        clearTimeout(timer);
        resolve(new Sandbox(m[1], { adminToken: o.adminToken, process: proc, log }));
      }
    };
    for (const stream of [proc.stdout, proc.stderr]) {
      let rest = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk) => {
        const lines = (rest + chunk).split('\n');
        rest = lines.pop();
        lines.forEach(onLine);
      });
    }
    proc.once('error', (err) => fail(`could not be started: ${err.message}`));
    proc.once('exit', (code, signal) => fail(`exited before serving (${signal || code})`));
  });
}

/**
 * A sandbox for a test suite: the server at `url` (or SLASH_SANDBOX_URL),
 * else the binary at `bin` (or SLASH_SANDBOX_BIN) started on a free
 * loopback port. Stop it with sandbox.stop().
 * @param {{url?: string, bin?: string, args?: string[], adminToken?: string, startTimeoutMs?: number, env?: NodeJS.ProcessEnv}} [options]
 * @returns {Promise<Sandbox>}
 */
async function startSandbox(options = {}) {
  const url = options.url || process.env.SLASH_SANDBOX_URL;
  const adminToken = options.adminToken ?? process.env.SLASH_SANDBOX_ADMIN_TOKEN ?? '';
  if (url) {
    const sb = new Sandbox(url, { adminToken });
    await sb.health();
    return sb;
  }
  const bin = options.bin || process.env.SLASH_SANDBOX_BIN;
  if (!bin) {
    throw new Error('startSandbox: give url or bin, or set SLASH_SANDBOX_URL (a running sandbox or container) or ' +
      'SLASH_SANDBOX_BIN (the slash-sandbox binary: go build -o slash-sandbox ./cmd/slash-sandbox)');
  }
  return spawnSandbox(bin, { ...options, adminToken });
}

module.exports = { startSandbox, Sandbox, World, SandboxError };

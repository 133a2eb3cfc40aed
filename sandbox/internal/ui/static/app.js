// The dashboard's shell: the header (world, legal entity, virtual clock),
// the hash router that renders one page at a time, the modal a ?modal=
// link opens over it, and the admin-token prompt shown when the control
// API answers 401.
import { ApiError, control, forget, onChange, session, watch, world } from './api.js';
import { errorBox, field, h, loading, when } from './dom.js';
import * as overview from './overview.js';
import * as browse from './browse.js';
import * as simulate from './simulate.js';
import * as outbox from './outbox.js';
import * as deliveries from './deliveries.js';
import * as agents from './agents.js';
import * as journal from './journal.js';
import * as charts from './charts.js';
import * as tour from './tour.js';

const pages = { overview, tour, browse, simulate, outbox, deliveries, agents, journal, charts };
const main = document.getElementById('main');
let cleanup = null;
let renders = 0;

// takeParams keeps ?token= and ?world= for the session and removes them
// from the address bar, so the token is not left in history or bookmarks.
function takeParams() {
  const url = new URL(window.location.href);
  let changed = false;
  for (const name of ['token', 'world']) {
    if (url.searchParams.has(name)) {
      session[name].set(url.searchParams.get(name));
      url.searchParams.delete(name);
      changed = true;
    }
  }
  if (changed) window.history.replaceState(null, '', url.pathname + url.search + url.hash);
}

/** Shows the prompt for the admin token; continuing re-renders the page. */
function tokenPrompt(err) {
  const input = h('input', { type: 'password', autocomplete: 'off', id: 'token-input', required: true });
  const form = h('form', { class: 'card narrow', id: 'token-form' },
    h('h1', {}, 'Admin token needed'),
    h('p', {}, 'This sandbox was started with --admin-token. Enter it to use the dashboard; it is kept for this browser tab only and sent as X-Admin-Token.'),
    session.token.get() ? h('p', { class: 'error-text' }, 'The token given was not accepted.') : null,
    field('Admin token', input),
    h('button', { type: 'submit', class: 'primary' }, 'Continue'));
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    session.token.set(input.value.trim());
    forget();
    start();
  });
  main.replaceChildren(form);
  input.focus();
  return err;
}

/**
 * Opens what ?modal= names over the page, as the real dashboard's links do:
 * /deferred-action/{id} is an agent request's approval page. Closing it
 * takes ?modal= out of the address and shows the page again.
 */
function openModal() {
  const url = new URL(window.location.href);
  const m = /^\/deferred-action\/([^/]+)$/.exec(url.searchParams.get('modal') || '');
  if (!m) return;
  agents.approval(m[1], () => {
    const now = new URL(window.location.href);
    now.searchParams.delete('modal');
    window.history.replaceState(null, '', now.pathname + now.search + now.hash);
    render();
  });
}

function routeOf() {
  const parts = window.location.hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  const name = pages[parts[0]] ? parts[0] : 'overview';
  return { name, args: parts.slice(1) };
}

/** Renders the page the address names; a page may return a cleanup function. */
async function render() {
  if (cleanup) {
    cleanup();
    cleanup = null;
  }
  const { name, args } = routeOf();
  for (const a of document.querySelectorAll('nav.side a')) {
    if (a.dataset.page === name) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  const n = ++renders;
  const view = h('div', { class: 'page', id: `page-${name}` });
  main.replaceChildren(view);
  view.append(loading());
  try {
    const done = await pages[name].render(view, args);
    if (n !== renders) {
      if (typeof done === 'function') done();
      return;
    }
    if (typeof done === 'function') cleanup = done;
    for (const l of view.querySelectorAll(':scope > .loading')) l.remove();
  } catch (err) {
    if (n !== renders) return;
    if (err instanceof ApiError && err.status === 401) tokenPrompt(err);
    else view.replaceChildren(h('h1', {}, 'Something went wrong'), errorBox(err));
  }
}

/** Refreshes the clock in the header. */
async function refreshClock() {
  const pill = document.getElementById('clock-pill');
  try {
    const c = await control('GET', '/clock');
    pill.replaceChildren(h('span', { class: 'muted' }, 'Virtual time '), h('strong', { id: 'header-clock' }, when(c.now)),
      h('span', { class: 'muted' }, ` · ${c.mode}`));
  } catch {
    pill.textContent = 'Virtual time unavailable';
  }
}

async function fillPickers() {
  const worldSelect = document.getElementById('world-select');
  const entitySelect = document.getElementById('entity-select');
  const [worlds, info, health] = await Promise.all([control('GET', '/worlds'), world(), control('GET', '/health')]);
  worldSelect.replaceChildren(...worlds.items.map((w) => h('option', { value: w.id }, `${w.id} (${w.scenario})`)));
  worldSelect.value = health.world;
  entitySelect.replaceChildren(...info.entities.map((e) => h('option', { value: e.id }, e.name)));
  const chosen = info.entities.find((e) => e.id === session.entity.get()) || info.entities[0];
  if (chosen) entitySelect.value = chosen.id;
}

function wirePickers() {
  document.getElementById('world-select').addEventListener('change', (ev) => switchWorld(ev.target.value));
  document.getElementById('entity-select').addEventListener('change', (ev) => {
    session.entity.set(ev.target.value);
    render();
  });
}

/** Makes another world the one every call acts on. */
function switchWorld(id) {
  session.world.set(id);
  session.entity.set('');
  forget();
  start();
}

async function start() {
  try {
    await fillPickers();
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) {
      tokenPrompt(err);
      return;
    }
    if (err instanceof ApiError && err.status === 404 && session.world.get()) {
      session.world.set('');
      forget();
      return start();
    }
    main.replaceChildren(h('h1', {}, 'The sandbox did not answer'), errorBox(err));
    return;
  }
  refreshClock();
  render();
  openModal();
  watch();
}

takeParams();
wirePickers();
window.addEventListener('hashchange', render);
document.addEventListener('sandbox:changed', refreshClock);
onChange(refreshClock);
document.addEventListener('sandbox:world', (ev) => switchWorld(ev.detail));
setInterval(() => {
  if (!document.hidden && !document.getElementById('token-form')) refreshClock();
}, 5000);
start();

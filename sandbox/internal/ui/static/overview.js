// Overview: the world, its scenario and seed, the virtual clock with the
// buttons that advance it, the scheduled and finished events, reset, and
// the other worlds to switch to. It refreshes itself when the world changes.
import { control, controlFile, onChange } from './api.js';
import { badge, busy, count, errorBox, facts, h, notify, section, table, toast, when } from './dom.js';

/** What an event is about, from its payload: "txn_… → settled". */
function about(e) {
  const p = e.payload || {};
  const id = p.transactionId || p.invoiceId || p.seriesId || p.expenseReportId || p.informationRequestId || p.contactId ||
    p.agentRequestId || p.deliveryId || '';
  const extra = p.detailedStatus ? ` → ${p.detailedStatus}` : '';
  return e.summary || e.error || (id ? id + extra : '');
}

const eventColumns = [
  ['When', (e) => when(e.at)],
  ['Event', (e) => h('code', {}, e.kind)],
  ['About', about],
  ['Status', (e) => badge(e.status)],
];

/** Downloads a world as a scenario file (GET /_sandbox/worlds/{id}/scenario). */
async function exportWorld(id) {
  try {
    const blob = await controlFile(`/worlds/${encodeURIComponent(id)}/scenario`);
    const a = h('a', { href: URL.createObjectURL(blob), download: `${id}.yaml` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  } catch (err) {
    toast(err && err.message ? err.message : String(err), 'bad');
  }
}

function worldsTable(worlds, current) {
  return table([
    ['World', (w) => [h('strong', {}, w.id), w.default ? [' ', badge('default', 'plain')] : null]],
    ['Scenario', (w) => w.scenario],
    ['Seed', (w) => String(w.seed)],
    ['Virtual time', (w) => when(w.clock.now)],
    ['Scenario file', (w) => h('button', { type: 'button', class: 'small', id: `export-${w.id}`, title: 'Every record of the world as a scenario that loads back into the same world', onclick: () => exportWorld(w.id) }, 'Export')],
    ['', (w) => (w.id === current ? badge('shown', 'good')
      : h('button', { type: 'button', class: 'small', id: `switch-${w.id}`, onclick: () => notify('sandbox:world', w.id) }, `Switch to ${w.id}`))],
  ], worlds, { id: 'worlds-table' });
}

// ranByKind counts the events an advance ran, kind by kind, with their
// failures.
function ranByKind(ran) {
  const kinds = new Map();
  for (const e of ran) {
    const k = kinds.get(e.kind) || { n: 0, failed: 0 };
    k.n += 1;
    if (e.status === 'failed') k.failed += 1;
    kinds.set(e.kind, k);
  }
  return h('ul', { class: 'plain' }, [...kinds].map(([kind, k]) => h('li', {}, `${count(k.n)} × `, h('code', {}, kind),
    k.failed ? [' ', badge(`${k.failed} failed`, 'bad')] : null)));
}

function advanceResult(res) {
  const ran = res.events || [];
  const attempts = res.webhooks && res.webhooks.delivered ? res.webhooks.delivered.length : 0;
  return h('div', { class: 'result', id: 'advance-result' },
    h('p', {}, `Moved from ${when(res.from)} to ${when(res.to)}: `, h('strong', {}, `${count(ran.length)} event${ran.length === 1 ? '' : 's'} ran`),
      attempts ? `, ${attempts} webhook attempt${attempts === 1 ? '' : 's'} made` : '', '.'),
    ran.length ? ranByKind(ran) : null);
}

/** A button that asks to be clicked twice, instead of a dialog. */
function confirmButton(label, confirmLabel, action, props = {}) {
  let armed = false;
  let timer = 0;
  const b = h('button', { type: 'button', ...props }, label);
  b.addEventListener('click', async () => {
    if (!armed) {
      armed = true;
      b.textContent = confirmLabel;
      b.classList.add('armed');
      timer = setTimeout(() => { armed = false; b.textContent = label; b.classList.remove('armed'); }, 5000);
      return;
    }
    clearTimeout(timer);
    armed = false;
    b.textContent = label;
    b.classList.remove('armed');
    await busy(b, action);
  });
  return b;
}

// priceTick is the kind of the hourly token price move: not news, so
// "the next business event" skips it.
export const priceTick = 'token_prices.tick';

// tourBanner invites a first-time visitor to the tour, until dismissed.
function tourBanner() {
  if (window.localStorage.getItem('sandbox.tour') === 'dismissed') return null;
  const banner = h('div', { class: 'banner', id: 'tour-banner', role: 'note' },
    h('p', {}, h('strong', {}, 'New here? '), 'The tour shows the five flows worth seeing, each one click away: an information request and its secure form, a queued ACH, a failing webhook, card decisions, and an AI agent asking for approval.'),
    h('div', { class: 'actions' },
      h('a', { class: 'button primary', href: '#/tour', id: 'tour-start' }, 'Take the tour'),
      h('button', { type: 'button', id: 'tour-dismiss', onclick: () => { window.localStorage.setItem('sandbox.tour', 'dismissed'); banner.remove(); } }, 'Dismiss')));
  return banner;
}

// stat is one count of the overview's first row, linking to its page.
function stat(href, value, label, id) {
  return h(href ? 'a' : 'div', { class: 'stat', href, id }, h('strong', {}, count(value)), h('span', {}, label));
}

// atAGlance counts what waits for a person: pending agent requests, emails
// and webhook deliveries that are failing.
async function atAGlance() {
  const [agents, outbox, retrying, failed] = await Promise.all([
    control('GET', '/agent-requests?status=pending'), control('GET', '/outbox'),
    control('GET', '/webhook-deliveries?status=retrying&limit=500'), control('GET', '/webhook-deliveries?status=failed&limit=500')]);
  return [
    stat('#/agents', agents.items.length, 'agent requests pending', 'glance-agents'),
    stat('#/outbox', outbox.items.length, 'emails in the outbox', 'glance-outbox'),
    stat('#/deliveries', retrying.items.length + failed.items.length, 'webhook deliveries failing', 'glance-deliveries'),
  ];
}

/** Renders the overview into view. */
export async function render(view) {
  const stats = h('div', { class: 'stats', id: 'at-a-glance' });
  const body = h('div', { class: 'grid two' });
  const lists = h('div', { class: 'stack' });
  view.append(h('h1', {}, 'Overview'), tourBanner(), stats, body, lists);
  let lastResult = null;
  // acting holds off the live refresh while a button's call runs.
  let acting = false;

  // act runs a button's call with the live refresh held off, keeps what
  // it gives (or its error) as the result shown, then refreshes.
  async function act(call) {
    acting = true;
    try {
      try {
        lastResult = await call();
      } catch (err) {
        lastResult = errorBox(err);
      }
      notify('sandbox:changed');
      await refresh();
    } finally {
      acting = false;
    }
  }

  async function advance(button, req) {
    await busy(button, () => act(async () => advanceResult(await control('POST', '/clock/advance', req))));
  }

  async function reset() {
    await act(async () => {
      await control('POST', '/reset');
      toast('The world is back at its scenario\'s start.');
      return null;
    });
  }
  // The reset button outlives the live refresh, so a refresh between its
  // two clicks keeps it armed.
  const resetButton = confirmButton('Reset world', 'Click again to reset', reset, { id: 'reset-world', class: 'danger' });

  async function refresh() {
    const [health, worlds, scheduled, done, glance] = await Promise.all([
      control('GET', '/health'), control('GET', '/worlds'),
      control('GET', '/events?status=scheduled'), control('GET', '/events?status=done'), atAGlance()]);
    stats.replaceChildren(...glance, stat(undefined, scheduled.items.length, 'events scheduled', 'glance-events'));
    const c = health.clock;
    const b1h = h('button', { type: 'button', id: 'advance-1h', onclick: (ev) => advance(ev.currentTarget, { by: '1h' }) }, 'Advance 1 hour');
    const b1d = h('button', { type: 'button', id: 'advance-1d', onclick: (ev) => advance(ev.currentTarget, { by: '1d' }) }, 'Advance 1 day');
    const business = scheduled.items.find((e) => e.kind !== priceTick);
    const bBusiness = h('button', { type: 'button', id: 'advance-business', class: 'primary', disabled: !business,
      title: 'Runs every event up to the next one that is not a token price tick',
      onclick: (ev) => advance(ev.currentTarget, { to: 'next', skip: [priceTick] }) }, 'Run to the next business event');
    const bNext = h('button', { type: 'button', id: 'advance-next', disabled: !c.nextEventAt,
      title: 'Runs the next scheduled event, whatever it is (often the hourly token price tick)',
      onclick: (ev) => advance(ev.currentTarget, { to: 'next' }) }, 'Run to the next event');
    body.replaceChildren(
      section('World',
        facts([['World', h('strong', { id: 'world-id' }, health.world)], ['Scenario', h('span', { id: 'world-scenario' }, health.scenario)],
          ['Seed', h('span', { id: 'world-seed' }, String(health.seed))], ['Version', health.version],
          ['Storage', health.persistent ? 'kept in a file' : 'in memory']]),
        h('div', { class: 'actions' }, resetButton),
        h('p', { class: 'hint' }, 'Reset returns to the scenario\'s start: the same data and IDs, the clock at its start.')),
      section('Virtual clock',
        h('p', { class: 'clock-now', id: 'clock-now' }, when(c.now)),
        facts([['Mode', c.mode], ['Started', when(c.start)], ['Next event', h('span', { id: 'next-event-at' }, c.nextEventAt ? when(c.nextEventAt) : 'none scheduled')],
          ['Next business event', h('span', { id: 'next-business-at' }, business ? [when(business.at), ' · ', h('code', {}, business.kind)] : 'none scheduled')]]),
        h('div', { class: 'actions' }, bBusiness, b1h, b1d, bNext),
        lastResult));
    lists.replaceChildren(
      section(`Upcoming events (${count(scheduled.items.length)})`,
        table(eventColumns, scheduled.items.slice(0, 15), { id: 'events-scheduled', empty: 'Nothing is scheduled.' }),
        scheduled.items.length > 15 ? h('p', { class: 'hint' }, `and ${count(scheduled.items.length - 15)} more`) : null),
      section('Recently run',
        table(eventColumns, done.items.slice(0, 10), { id: 'events-done', empty: 'No event has run yet: advance the clock.' })),
      section('Worlds', worldsTable(worlds.items, health.world),
        h('p', { class: 'hint' }, 'Create worlds with POST /_sandbox/worlds; each has its own data, clock and keys.')));
  }

  await refresh();
  return onChange(() => (acting ? null : refresh()));
}

// Webhook deliveries: a live list (refreshed when the world changes) with
// each delivery's attempts, their requests and responses, and redelivery.
import { control, namesOf, onChange, qs } from './api.js';
import { badge, busy, errorBox, field, h, json, named, notify, select, toast, when } from './dom.js';

const statuses = ['queued', 'pending', 'retrying', 'succeeded', 'failed', 'canceled'];
const maxPages = 4;

async function load(status) {
  const items = [];
  let cursor = '';
  for (let i = 0; i < maxPages; i++) {
    const page = await control('GET', '/webhook-deliveries' + qs({ status, limit: 500, cursor }));
    items.push(...page.items);
    cursor = page.metadata.nextCursor;
    if (!cursor) break;
  }
  return items.reverse().slice(0, 100);
}

function attempt(a) {
  return h('div', { class: 'attempt' },
    h('h4', {}, `Attempt ${a.number} · ${when(a.at)} · `, a.succeeded ? badge('succeeded') : badge('failed'),
      h('small', { class: 'muted' }, ` ${a.latencyMs} ms · ${a.url}`)),
    h('div', { class: 'grid two' },
      h('div', {}, h('h5', {}, 'Request'), json(a.request.headers), json(a.request.body)),
      h('div', {}, h('h5', {}, 'Response'), a.response ? [h('p', {}, `HTTP ${a.response.status}`), json(a.response.body || '(empty body)')]
        : h('p', { class: 'error-text' }, a.error || 'no response'))));
}

function row(d, open, redeliver, endpoints) {
  const details = h('details', { class: 'delivery', id: `delivery-${d.id}`, open: open.has(d.id) },
    h('summary', {},
      h('span', { class: 'cell event' }, h('code', {}, d.event)),
      h('span', { class: 'cell' }, d.entityId),
      h('span', { class: 'cell endpoint' }, named(endpoints.get(d.webhookId), d.webhookId)),
      h('span', { class: 'cell' }, badge(d.status)),
      h('span', { class: 'cell num' }, `${d.attemptCount} attempt${d.attemptCount === 1 ? '' : 's'}`),
      h('span', { class: 'cell muted' }, d.nextAttemptAt ? `next ${when(d.nextAttemptAt)}` : when(d.createdAt))),
    h('div', { class: 'delivery-body' },
      h('p', {}, h('code', {}, d.id), ` · event id ${d.eventId} · ${d.source}`, d.relatedId ? ` of ${d.relatedId}` : '',
        h('button', { type: 'button', class: 'small', onclick: (ev) => redeliver(ev.currentTarget, d) }, 'Redeliver')),
      h('h5', {}, 'Payload'), json(d.payload),
      d.attempts.length ? d.attempts.slice().reverse().map(attempt) : h('p', { class: 'muted' }, 'Not attempted yet.')));
  details.addEventListener('toggle', () => (details.open ? open.add(d.id) : open.delete(d.id)));
  return details;
}

/** Renders the deliveries page, args[0] a status to show; returns the function that stops its refreshing. */
export async function render(view, args) {
  const status = select({ id: 'delivery-status' }, [['', 'Any status'], ...statuses.map((s) => [s, s])], statuses.includes(args[0]) ? args[0] : '');
  const live = h('span', { class: 'live', id: 'deliveries-live' }, 'live');
  const list = h('div', { id: 'deliveries' });
  const open = new Set();
  let last = '';
  let inFlight = false;
  view.append(h('h1', {}, 'Webhook deliveries ', live),
    h('form', { class: 'filters', onsubmit: (ev) => ev.preventDefault() }, field('Status', status)),
    h('div', { class: 'delivery-head', 'aria-hidden': 'true' }, ['Event', 'Entity', 'Endpoint', 'Status', 'Attempts', 'When'].map((c) => h('span', { class: 'cell' }, c))),
    list);

  async function redeliver(button, d) {
    await busy(button, async () => {
      try {
        const res = await control('POST', `/webhook-deliveries/${encodeURIComponent(d.id)}/redeliver`);
        toast(`Redelivering ${d.event} as ${res.id}`);
        notify('sandbox:changed');
        await refresh();
      } catch (err) {
        toast(err.message, 'bad');
      }
    });
  }

  async function refresh() {
    if (inFlight) return;
    inFlight = true;
    try {
      const [items, endpoints] = await Promise.all([load(status.value), namesOf('/webhook')]);
      const key = JSON.stringify([items, [...endpoints]]);
      live.classList.remove('stale');
      if (key === last) return;
      last = key;
      list.replaceChildren(items.length ? h('div', {}, items.map((d) => row(d, open, redeliver, endpoints)))
        : h('p', { class: 'empty' }, 'No deliveries. Register an endpoint (POST /webhook) and change something.'));
    } catch (err) {
      live.classList.add('stale');
      list.replaceChildren(errorBox(err));
      last = '';
    } finally {
      inFlight = false;
    }
  }

  status.addEventListener('change', () => { last = ''; refresh(); });
  await refresh();
  return onChange(refresh);
}

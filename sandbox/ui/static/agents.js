// Agent requests: writes a read-only key asked for, waiting for a person.
// Each shows the change it would make; approving runs the write.
import { control, qs } from './api.js';
import { badge, busy, errorBox, field, h, jsonDetails, notify, select, when } from './dom.js';

function change(value) {
  if (value && typeof value === 'object' && 'newValue' in value) {
    return h('span', { class: 'change' },
      value.oldValue !== undefined ? [h('del', {}, value.oldValue), ' → '] : null, h('ins', {}, value.newValue));
  }
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function outcome(ar) {
  const tone = ar.status === 'executed' ? 'good' : ar.status === 'rejected' ? 'plain' : 'bad';
  return h('div', { class: `result ${tone}`, id: 'agent-outcome' },
    h('p', { class: 'verdict' }, badge(ar.status), ` ${ar.display.title} (${ar.id})`),
    ar.failure ? jsonDetails(`Failed with HTTP ${ar.failureStatus}`, ar.failure) : null,
    ar.result ? jsonDetails('What the write returned', ar.result) : null);
}

function tile(ar, decide) {
  const pending = ar.status === 'pending';
  return h('article', { class: 'tile agent', id: `agent-${ar.id}` },
    h('header', {}, h('h3', {}, ar.display.title), badge(ar.status)),
    h('p', { class: 'muted id' }, `${ar.method} ${ar.path} · ${ar.id}`),
    ar.display.sections.length ? h('table', { class: 'data compact' },
      h('tbody', {}, ar.display.sections.map((s) => h('tr', {}, h('th', { scope: 'row' }, s.label), h('td', {}, change(s.value))))))
      : h('p', { class: 'muted' }, ar.display.description || ''),
    h('p', { class: 'hint' }, `Asked by ${ar.apiKey} for ${ar.legalEntityId} at ${when(ar.createdAt)}`,
      pending ? `; expires ${when(ar.expiresAt)}` : ''),
    ar.body ? jsonDetails('Request body', ar.body) : null,
    pending ? h('div', { class: 'actions' },
      h('button', { type: 'button', class: 'primary', id: `approve-${ar.id}`, onclick: (ev) => decide(ev.currentTarget, ar, 'approve') }, 'Approve'),
      h('button', { type: 'button', class: 'danger', id: `reject-${ar.id}`, onclick: (ev) => decide(ev.currentTarget, ar, 'reject') }, 'Reject')) : null);
}

/** Renders the agent requests page. */
export async function render(view) {
  const show = select({ id: 'agent-filter' }, [['pending', 'Pending'], ['', 'All']]);
  const result = h('div', { class: 'result-slot', 'aria-live': 'polite' });
  const list = h('div', { class: 'tiles', id: 'agent-requests' });
  view.append(h('h1', {}, 'Agent requests'),
    h('p', { class: 'hint' }, 'A read-only key\'s writes wait here for a person. Approving runs the write as the key that asked.'),
    h('form', { class: 'filters', onsubmit: (ev) => ev.preventDefault() }, field('Show', show)), result, list);

  async function decide(button, ar, verb) {
    await busy(button, async () => {
      try {
        result.replaceChildren(outcome(await control('POST', `/agent-requests/${encodeURIComponent(ar.id)}/${verb}`)));
      } catch (err) {
        result.replaceChildren(errorBox(err));
      }
      notify('sandbox:changed');
      await refresh();
    });
  }

  async function refresh() {
    const res = await control('GET', '/agent-requests' + qs({ status: show.value }));
    list.replaceChildren(...(res.items.length ? res.items.map((ar) => tile(ar, decide))
      : [h('p', { class: 'empty' }, show.value ? 'No pending agent requests.' : 'No agent requests in this world.')]));
  }

  show.addEventListener('change', () => refresh().catch((err) => list.replaceChildren(errorBox(err))));
  await refresh();
}

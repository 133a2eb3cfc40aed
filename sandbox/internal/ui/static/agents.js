// Agent requests: writes a read-only key asked for, waiting for a person.
// Each shows the change it would make; approving runs the write. A
// deferred write's approval URL opens one of them over the page. The list
// refreshes itself when the world changes.
import { control, directory, onChange, qs } from './api.js';
import { badge, busy, errorBox, field, h, jsonDetails, loading, nameAndID, notify, select, when } from './dom.js';

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

function sections(ar, id) {
  return h('table', { class: 'data compact', id },
    h('tbody', {}, ar.display.sections.map((s) => h('tr', {}, h('th', { scope: 'row' }, s.label), h('td', {}, change(s.value))))));
}

// asked says who asked and for whom, by name beside the key and the legal
// entity's id (dir is the world's directory()).
function asked(ar, dir) {
  const key = dir.keys.get(ar.apiKey);
  const le = dir.entities.get(ar.legalEntityId);
  return h('p', { class: 'hint asked' },
    `Asked by ${nameAndID(key && key.name, ar.apiKey)} for ${nameAndID(le && le.name, ar.legalEntityId)} at ${when(ar.createdAt)}`,
    ar.status === 'pending' ? `; expires ${when(ar.expiresAt)}` : '');
}

function decisions(ar, decide, prefix = '') {
  return h('div', { class: 'actions' },
    h('button', { type: 'button', class: 'primary', id: `${prefix}approve-${ar.id}`, onclick: (ev) => decide(ev.currentTarget, ar, 'approve') }, 'Approve'),
    h('button', { type: 'button', class: 'danger', id: `${prefix}reject-${ar.id}`, onclick: (ev) => decide(ev.currentTarget, ar, 'reject') }, 'Reject'));
}

function tile(ar, decide, dir) {
  return h('article', { class: 'tile agent', id: `agent-${ar.id}` },
    h('header', {}, h('h3', {}, ar.display.title), badge(ar.status)),
    h('p', { class: 'muted id' }, `${ar.method} ${ar.path} · ${ar.id}`),
    ar.display.sections.length ? sections(ar) : h('p', { class: 'muted' }, ar.display.description || ''),
    asked(ar, dir),
    ar.body ? jsonDetails('Request body', ar.body) : null,
    ar.status === 'pending' ? decisions(ar, decide) : null);
}

function decideCall(ar, verb) {
  return control('POST', `/agent-requests/${encodeURIComponent(ar.id)}/${verb}`);
}

/**
 * Opens the approval page of one agent request over the current page, as
 * the link in a deferred write's answer (?modal=/deferred-action/{id})
 * asks: what the write would do, and Approve and Reject. Closing it calls
 * onClose.
 */
export async function approval(id, onClose) {
  document.getElementById('deferred-action')?.remove();
  const body = h('div', { class: 'modal-body' }, loading());
  const close = h('button', { type: 'button', class: 'small', id: 'deferred-action-close' }, 'Close');
  const dialog = h('dialog', { class: 'modal', id: 'deferred-action', 'aria-labelledby': 'deferred-action-title' },
    h('header', {}, h('h2', { id: 'deferred-action-title' }, 'Agent request'), close), body);
  close.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => {
    dialog.remove();
    onClose();
  });
  document.body.append(dialog);
  dialog.showModal();

  async function decide(button, ar, verb) {
    await busy(button, async () => {
      const slot = document.getElementById('deferred-action-outcome');
      try {
        show(await decideCall(ar, verb), await directory());
      } catch (err) {
        slot.replaceChildren(errorBox(err));
      }
      notify('sandbox:changed');
    });
  }

  function show(ar, dir) {
    document.getElementById('deferred-action-title').textContent = ar.display.title;
    body.replaceChildren(h('div', {},
      h('p', {}, badge(ar.status), h('span', { class: 'muted id' }, ` ${ar.id}`)),
      ar.display.sections.length ? sections(ar, 'deferred-action-sections') : null,
      ar.display.description ? h('p', { id: 'deferred-action-description' }, ar.display.description) : null,
      asked(ar, dir),
      ar.status === 'pending' ? decisions(ar, decide, 'deferred-') : null,
      h('div', { class: 'result-slot', id: 'deferred-action-outcome', 'aria-live': 'polite' },
        ar.status === 'pending' ? null : outcome(ar))));
  }

  try {
    const [ar, dir] = await Promise.all([control('GET', `/agent-requests/${encodeURIComponent(id)}`), directory()]);
    show(ar, dir);
  } catch (err) {
    body.replaceChildren(errorBox(err));
  }
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
        result.replaceChildren(outcome(await decideCall(ar, verb)));
      } catch (err) {
        result.replaceChildren(errorBox(err));
      }
      notify('sandbox:changed');
      await refresh();
    });
  }

  async function refresh() {
    const [res, dir] = await Promise.all([control('GET', '/agent-requests' + qs({ status: show.value })), directory()]);
    list.replaceChildren(...(res.items.length ? res.items.map((ar) => tile(ar, decide, dir))
      : [h('p', { class: 'empty' }, show.value ? 'No pending agent requests.' : 'No agent requests in this world.')]));
  }

  const reload = () => refresh().catch((err) => list.replaceChildren(errorBox(err)));
  show.addEventListener('change', reload);
  await refresh();
  return onChange(reload);
}

// Outbox: the emails the sandbox sent. A message's HTML is shown in a
// sandboxed frame (no scripts, links open in a new tab); an information
// request's message leads to its secure form, the page the contact fills.
import { control, onChange } from './api.js';
import { badge, errorBox, facts, h, jsonDetails, section, when } from './dom.js';

function listItem(m, current) {
  return h('li', {}, h('a', { href: `#/outbox/${encodeURIComponent(m.id)}`, class: 'message-link', 'aria-current': m.id === current ? 'true' : null },
    h('strong', {}, m.subject), h('br'),
    h('small', { class: 'muted' }, `${m.to.join(', ')} · ${when(m.createdAt)}`), ' ', badge(m.kind.replace(/_/g, ' '), 'plain')));
}

function frame(m) {
  const f = h('iframe', { title: `Email: ${m.subject}`, class: 'email', sandbox: 'allow-popups allow-popups-to-escape-sandbox', referrerpolicy: 'no-referrer' });
  // Links open in a new tab; the base goes after any doctype, which must come first.
  f.srcdoc = m.html.replace(/^\s*(<!doctype[^>]*>)?/i, (doctype) => `${doctype}<base target="_blank">`);
  return f;
}

async function requestStatus(m) {
  if (m.kind !== 'information_request' || !m.relatedId) return null;
  try {
    const r = await control('GET', `/information-requests/${encodeURIComponent(m.relatedId)}`);
    const ir = r.informationRequest;
    return ['Request', [h('code', {}, ir.id), ' ', h('span', { id: 'request-status' }, badge(ir.status))]];
  } catch (err) {
    return ['Request', errorBox(err)];
  }
}

async function detail(m) {
  const form = m.links && m.links.secureForm;
  const others = Object.entries(m.links || {}).filter(([k]) => k !== 'secureForm');
  return h('article', { class: 'card message', id: 'message' },
    h('h2', {}, m.subject),
    facts([
      ['To', m.to.join(', ')], m.cc && m.cc.length ? ['Cc', m.cc.join(', ')] : null, ['Kind', m.kind], ['Sent', when(m.createdAt)],
      m.relatedId ? ['About', h('code', {}, m.relatedId)] : null, await requestStatus(m),
    ]),
    form ? h('p', { class: 'form-link' }, h('a', { href: form, id: 'secure-form-link', class: 'button primary', target: '_blank', rel: 'noopener' },
      'Open the secure form'), h('small', { class: 'muted' }, ' the page the contact fills (needs no admin token)')) : null,
    others.length ? h('ul', { class: 'plain' }, others.map(([k, v]) => h('li', {}, `${k}: `, h('a', { href: v, target: '_blank', rel: 'noopener' }, v)))) : null,
    m.html ? frame(m) : null,
    h('details', { class: 'raw' }, h('summary', {}, 'Plain text'), h('pre', { class: 'json' }, m.text)),
    jsonDetails('As JSON', m));
}

/** Renders the outbox; args[0] selects a message. A new email, or a change of the shown request's status, refreshes it. */
export async function render(view, args) {
  const heading = h('h1', {});
  const body = h('div', {});
  view.append(heading, body);
  let shown = '';

  async function draw(res) {
    const current = args[0] || (res.items[0] && res.items[0].id);
    heading.replaceChildren('Outbox ', h('span', { class: 'muted', id: 'outbox-count' }, `${res.items.length} email${res.items.length === 1 ? '' : 's'}`));
    shown = res.items.map((m) => m.id).join();
    if (!res.items.length) {
      body.replaceChildren(h('p', { class: 'empty', id: 'outbox-empty' }, 'No email has been sent in this world yet. Invoices, reminders and information requests send them.'));
      return;
    }
    const chosen = res.items.find((m) => m.id === current);
    body.replaceChildren(h('div', { class: 'split' },
      section('Messages', h('ul', { class: 'messages', id: 'outbox-list' }, res.items.map((m) => listItem(m, current)))),
      chosen ? await detail(chosen) : errorBox({ message: `no message ${current}` })));
  }

  async function refresh() {
    const res = await control('GET', '/outbox');
    if (res.items.map((m) => m.id).join() !== shown) return draw(res);
    const status = document.getElementById('request-status');
    const chosen = res.items.find((m) => m.id === (args[0] || res.items[0].id));
    const now = status && chosen && await requestStatus(chosen);
    if (now && Array.isArray(now[1]) && status.isConnected) status.replaceWith(now[1][2]);
    return null;
  }

  await draw(await control('GET', '/outbox'));
  return onChange(refresh);
}

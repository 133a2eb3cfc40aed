// Request journal: the world's recent API calls, newest first, each row
// opening to its headers and bodies. The dashboard's own reads are not in it.
// A call that matched no route is marked so, with the route it most likely
// meant.
import { control, directory, onChange, qs } from './api.js';
import { badge, errorBox, field, h, json, nameAndID, select, wallClock, when } from './dom.js';

function statusBadge(status) {
  return badge(String(status), status >= 500 ? 'bad' : status >= 400 ? 'wait' : 'good');
}

// entry is one call; dir is the world's directory(), for the name of its legal entity.
function entry(e, open, dir) {
  const d = h('details', { class: 'journal-row', open: open.has(e.seq) },
    h('summary', {},
      h('span', { class: 'cell when' }, when(e.virtualAt), h('br'),
        h('small', { class: 'muted wall-clock', title: new Date(e.at).toString() }, `${wallClock(e.at)} wall clock`)),
      h('span', { class: 'cell method' }, e.method),
      h('span', { class: 'cell path' }, h('code', {}, e.path + (e.query ? `?${e.query}` : ''))),
      h('span', { class: 'cell' }, e.unmatched ? badge('unmatched', 'bad') : e.route,
        e.via ? [' ', badge(`via ${e.via.toUpperCase()}`, 'plain')] : null,
        e.hint ? h('span', { class: 'hint near-miss' }, ` did you mean ${e.hint}?`) : null),
      h('span', { class: 'cell' }, statusBadge(e.status)),
      h('span', { class: 'cell num muted' }, `${e.latencyMs.toFixed(1)} ms`)),
    h('div', { class: 'grid two' },
      h('div', {}, h('h5', {}, 'Request'), json(e.requestHeaders), e.requestBody !== undefined ? json(e.requestBody) : h('p', { class: 'muted' }, 'No body.')),
      h('div', {}, h('h5', {}, 'Response'), e.responseBody !== undefined ? json(e.responseBody) : h('p', { class: 'muted' }, 'No body.'),
        h('p', { class: 'hint' }, `request ${e.requestId}${e.key ? ` · key ${e.key}` : ''}${e.legalEntity ? ` · ${nameAndID(entityName(dir, e.legalEntity), e.legalEntity)}` : ''}${e.referenceId ? ` · ${e.referenceId}` : ''} · at ${when(e.at)} wall time`))));
  d.addEventListener('toggle', () => (d.open ? open.add(e.seq) : open.delete(e.seq)));
  return d;
}

const entityName = (dir, id) => (dir.entities.get(id) || {}).name;

/** Renders the journal and refreshes it when the world changes. */
export async function render(view) {
  const method = select({ id: 'journal-method' }, [['', 'Any method'], ...['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((m) => [m, m])]);
  const status = h('input', { id: 'journal-status', type: 'text', inputmode: 'numeric', placeholder: 'e.g. 404', size: 6 });
  const path = h('input', { id: 'journal-path', type: 'text', placeholder: '/card' });
  const list = h('div', { id: 'journal' });
  const open = new Set();
  let last = '';
  view.append(h('h1', {}, 'Request journal'),
    h('p', { class: 'hint' }, 'The last 100 calls to this world (the journal keeps 1000; GET /_sandbox/requests). Secrets are masked.'),
    h('form', { class: 'filters', onsubmit: (ev) => { ev.preventDefault(); refresh(); } },
      field('Method', method), field('Status', status), field('Path starts with', path)),
    h('div', { class: 'journal-head', 'aria-hidden': 'true' }, ['Virtual time · wall clock', 'Method', 'Path', 'Route', 'Status', 'Latency'].map((c) => h('span', { class: 'cell' }, c))),
    list);

  async function refresh() {
    try {
      const [res, dir] = await Promise.all([
        control('GET', '/requests' + qs({ limit: 100, method: method.value, status: status.value.trim(), path: path.value.trim() })),
        directory()]);
      const key = JSON.stringify(res.items.map((e) => e.seq));
      if (key === last) return;
      last = key;
      list.replaceChildren(res.items.length ? h('div', {}, res.items.map((e) => entry(e, open, dir)))
        : h('p', { class: 'empty' }, 'No calls recorded yet: call the API and they appear here.'));
    } catch (err) {
      last = '';
      list.replaceChildren(errorBox(err));
    }
  }

  for (const c of [method, status, path]) c.addEventListener('change', () => { last = ''; refresh(); });
  await refresh();
  return onChange(refresh);
}

// Small helpers to build the page. Text always goes in as text nodes, never
// as HTML, so nothing the sandbox returns can inject markup.

/** Creates an element: h('a', {href: '#/x', class: 'b'}, 'text', child). */
export function h(tag, props, ...kids) {
  const el = document.createElement(tag);
  setProps(el, props);
  add(el, kids);
  return el;
}

const SVG = 'http://www.w3.org/2000/svg';

/** Creates an SVG element with attributes. */
export function svg(tag, attrs, ...kids) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v !== undefined && v !== null) el.setAttribute(k, String(v));
  }
  add(el, kids);
  return el;
}

function setProps(el, props) {
  for (const [k, v] of Object.entries(props || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'value' || k === 'checked' || k === 'selected' || k === 'open') el[k] = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
}

function add(el, kids) {
  for (const kid of kids.flat(Infinity)) {
    if (kid === undefined || kid === null || kid === false) continue;
    el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
}

let seq = 0;

/** A unique element id with a readable prefix. */
export function uid(prefix) {
  seq += 1;
  return `${prefix}-${seq}`;
}

/** A labelled form control: the label names the control for assistive tech. */
export function field(label, control, hint) {
  if (!control.id) control.id = uid('f');
  const kids = [h('label', { for: control.id }, label), control];
  if (hint) {
    const hid = uid('hint');
    control.setAttribute('aria-describedby', hid);
    kids.push(h('small', { id: hid, class: 'hint' }, hint));
  }
  return h('div', { class: 'field' }, kids);
}

/** A <select> of [value, label] options. */
export function select(props, options, value) {
  const el = h('select', props);
  for (const o of options) {
    if (o.group) {
      el.append(h('optgroup', { label: o.group }, o.options.map(([v, l]) => h('option', { value: v }, l))));
    } else {
      el.append(h('option', { value: o[0] }, o[1]));
    }
  }
  if (value !== undefined) el.value = value;
  return el;
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** Formats cents as dollars: 123456 → "$1,234.56". */
export function money(cents) {
  if (cents === undefined || cents === null) return '—';
  return usd.format(cents / 100);
}

/** Parses a dollar amount typed by a person into cents, or null. */
export function parseDollars(text) {
  const t = String(text).trim().replace(/[$,]/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(t)) return null;
  const [whole, frac = ''] = t.split('.');
  return Number(whole) * 100 + Number((frac + '00').slice(0, 2));
}

const counts = new Intl.NumberFormat('en-US');

/** Formats a count for a person, thousands grouped: 1234567 → "1,234,567". */
export function count(n) {
  return counts.format(n);
}

const dateTime = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
});
const dateOnly = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric' });

/** Formats an instant in UTC: "15 Jun 2026, 14:00 UTC". */
export function when(iso) {
  if (!iso) return '—';
  return dateTime.format(new Date(iso)) + ' UTC';
}

/** Formats an instant's day in UTC: "15 Jun 2026". */
export function day(iso) {
  if (!iso) return '—';
  return dateOnly.format(new Date(iso));
}

const tones = {
  approved: 'good', active: 'good', settled: 'good', posted: 'good', succeeded: 'good', executed: 'good', paid: 'good',
  submitted: 'good', done: 'good', open: 'good', ok: 'good',
  pending: 'wait', scheduled: 'wait', queued: 'wait', retrying: 'wait', unpaid: 'wait', paid_partially: 'wait',
  'backing-off': 'wait', running: 'wait', pending_approval: 'wait', paused: 'wait',
  declined: 'bad', failed: 'bad', rejected: 'bad', closed: 'bad', canceled: 'bad', cancelled: 'bad', overdue: 'bad',
  returned: 'bad', reversed: 'bad', disabled: 'bad', expired: 'bad', void: 'bad', archived: 'bad', inactive: 'bad',
};

/** A coloured status label. */
export function badge(text, tone) {
  return h('span', { class: `badge ${tone || tones[text] || 'plain'}` }, text);
}

/** A name in bold with its raw id under it, small: [name, id] cells. */
export function named(name, id) {
  return [h('strong', {}, name || '—'), h('br'), h('small', { class: 'muted id' }, id)];
}

/** A name with its raw id after it, on one line: "Acme backend (sk_…)"; the id alone when there is no name. */
export function nameAndID(name, id) {
  return name ? `${name} (${id})` : id;
}

const clock = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });

/** Formats an instant as the time of day on this computer's clock: "14:03:07". */
export function wallClock(iso) {
  if (!iso) return '—';
  return clock.format(new Date(iso));
}

/** A small table; columns are [label, row => cell content, class?]. */
export function table(columns, rows, { empty = 'Nothing here yet.', caption, id } = {}) {
  if (!rows.length) return h('p', { class: 'empty', id }, empty);
  return h('table', { class: 'data', id },
    caption ? h('caption', {}, caption) : null,
    h('thead', {}, h('tr', {}, columns.map(([label, , cls]) => h('th', { scope: 'col', class: cls }, label)))),
    h('tbody', {}, rows.map((row) => h('tr', {}, columns.map(([, cell, cls]) => h('td', { class: cls }, cell(row)))))));
}

/** Pretty JSON in a <pre>. */
export function json(value) {
  let text = value;
  if (typeof value !== 'string') text = JSON.stringify(value, null, 2);
  else {
    try {
      text = JSON.stringify(JSON.parse(value), null, 2);
    } catch {
      text = value;
    }
  }
  return h('pre', { class: 'json' }, text);
}

/** A collapsible block of JSON. */
export function jsonDetails(summary, value) {
  return h('details', { class: 'raw' }, h('summary', {}, summary), json(value));
}

/** A definition list of [term, value] pairs. */
export function facts(pairs) {
  return h('dl', { class: 'facts' }, pairs.filter(Boolean).map(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]));
}

/** The box shown when a call failed, with the error's details. */
export function errorBox(err) {
  const details = err && err.details && Object.keys(err.details).length ? err.details : null;
  return h('div', { class: 'error-box', role: 'alert' },
    h('strong', {}, err && err.status ? `Error ${err.status}: ` : 'Error: '), err ? err.message : 'unknown',
    details ? h('ul', {}, Object.entries(details).map(([k, v]) => h('li', {}, h('code', {}, k), ' ', String(v)))) : null);
}

/** A placeholder while something loads. */
export function loading(text = 'Loading…') {
  return h('p', { class: 'loading' }, text);
}

/** Shows a short message in the corner for a few seconds. */
export function toast(text, tone = 'good') {
  const box = document.getElementById('toasts');
  const el = h('div', { class: `toast ${tone}` }, text);
  box.append(el);
  setTimeout(() => el.remove(), 4000);
}

/** A page section with a heading. */
export function section(title, ...kids) {
  return h('section', { class: 'card' }, h('h2', {}, title), kids);
}

/** Runs an async action from a button, disabling it meanwhile; a failure is shown, not thrown. */
export async function busy(button, fn) {
  button.disabled = true;
  try {
    return await fn();
  } catch (err) {
    toast(err && err.message ? err.message : String(err), 'bad');
    return undefined;
  } finally {
    button.disabled = false;
  }
}

/**
 * Tells the shell something happened: 'sandbox:changed' (the world changed:
 * refresh the clock) or 'sandbox:world' (switch to the world in detail).
 */
export function notify(name, detail) {
  document.dispatchEvent(new CustomEvent(name, { detail }));
}

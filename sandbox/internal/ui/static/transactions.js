// Transactions: the list filters of GET /transaction (account, status,
// category), cursor pages, and a search that walks the pages for matches.
import { pub, qs, walk } from './api.js';
import { badge, count, errorBox, field, h, jsonDetails, loading, money, select, table, when } from './dom.js';

const categories = ['card', 'ach', 'wire', 'international_wire', 'rtp', 'fee', 'internal'];
const searchPages = 20;

/** How money moved, from the fields a transaction carries. */
function kindOf(t) {
  if (t.cardId) return 'card';
  if (t.feeInfo) return 'fee';
  if (t.achInfo) return 'ach';
  if (t.rtpInfo) return 'rtp';
  if (t.sepaInfo || t.pixInfo || t.speiInfo || t.fpsInfo) return 'international_wire';
  if (t.wireInfo) return 'wire';
  if (t.transferId) return 'internal';
  return '—';
}

function matches(t, text) {
  const hay = [t.id, t.description, t.memo, t.merchantDescription, t.cardId, t.note, String(t.amountCents), money(t.amountCents)]
    .filter(Boolean).join(' ').toLowerCase();
  return hay.includes(text.toLowerCase());
}

// declined says why a purchase was declined: the reason, and the memo that
// explains it when there is one.
function declined(t) {
  return h('small', { class: 'decline-reason' }, h('br'), h('code', {}, t.declineReason), t.memo ? [h('br'), t.memo] : null);
}

function rows(items) {
  return table([
    ['Date', (t) => when(t.date)],
    ['Description', (t) => jsonDetails(t.description || t.id, t)],
    ['Kind', kindOf],
    ['Status', (t) => [badge(t.detailedStatus), t.declineReason ? declined(t) : null]],
    ['Amount', (t) => h('span', { class: t.amountCents >= 0 ? 'credit' : 'debit' }, money(t.amountCents)), 'num'],
  ], items, { id: 'transactions-table', empty: 'No transactions match.' });
}

/** The transactions of a legal entity; args[0] is a search to start with. */
export async function renderTransactions(el, le, args = []) {
  const accounts = await walk(le, '/account');
  const account = select({ id: 'txn-account' }, [['', 'All accounts'], ...accounts.map((a) => [a.id, a.name])]);
  const status = select({ id: 'txn-status' }, [['', 'Any status'], ['pending', 'pending'], ['posted', 'posted'], ['failed', 'failed']]);
  const category = select({ id: 'txn-category' }, [['', 'Any category'], ...categories.map((c) => [c, c])]);
  const search = h('input', { type: 'search', id: 'txn-search', placeholder: 'description, memo, id, amount' });
  const prev = h('button', { type: 'button', id: 'txn-prev' }, '← Newer');
  const next = h('button', { type: 'button', id: 'txn-next' }, 'Older →');
  const info = h('span', { class: 'muted', id: 'txn-info' });
  const out = h('div', {});
  const filters = h('form', { class: 'filters', role: 'search', onsubmit: (ev) => { ev.preventDefault(); reload(); } },
    field('Account', account), field('Status', status), field('Category', category), field('Search', search));
  el.append(filters, h('div', { class: 'pager' }, prev, next, info), out);

  let cursors = [''];
  let nextCursor = '';
  let seq = 0;
  const params = () => ({ 'filter:accountId': account.value, 'filter:status': status.value, 'filter:category': category.value });

  async function show(load) {
    const n = ++seq;
    out.replaceChildren(loading());
    try {
      const [items, note] = await load();
      if (n !== seq) return;
      out.replaceChildren(rows(items));
      info.textContent = note;
    } catch (err) {
      if (n === seq) out.replaceChildren(errorBox(err));
    }
  }

  function page() {
    const cursor = cursors[cursors.length - 1];
    return show(async () => {
      const res = await pub(le, 'GET', '/transaction' + qs({ ...params(), cursor }));
      nextCursor = res.metadata.nextCursor || '';
      prev.disabled = cursors.length <= 1;
      next.disabled = !nextCursor;
      return [res.items, `Page ${cursors.length} · ${res.items.length} transactions`];
    });
  }

  function reload() {
    cursors = [''];
    const text = search.value.trim();
    if (!text) return page();
    prev.disabled = true;
    next.disabled = true;
    return show(async () => {
      const all = await walk(le, '/transaction', params(), searchPages);
      const found = all.filter((t) => matches(t, text));
      return [found.slice(0, 100), `${count(found.length)} match${found.length === 1 ? '' : 'es'} among ${count(all.length)} transactions searched`];
    });
  }

  next.addEventListener('click', () => { cursors.push(nextCursor); page(); });
  prev.addEventListener('click', () => { cursors.pop(); page(); });
  for (const s of [account, status, category]) s.addEventListener('change', reload);
  let timer = 0;
  search.addEventListener('input', () => { clearTimeout(timer); timer = setTimeout(reload, 300); });
  search.value = args[0] || '';
  await reload();
  return () => { clearTimeout(timer); seq++; };
}

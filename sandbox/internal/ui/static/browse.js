// Browse: the chosen legal entity's state through the public API, one tab
// per resource. Read-only: changes go through the API or the Simulate page.
import { entity, pub, walk, world } from './api.js';
import { badge, day, h, money, named, table, when } from './dom.js';
import { renderCardGroups, renderCards } from './cards.js';
import { renderTransactions } from './transactions.js';

const tabs = [
  ['entities', 'Legal entities', renderEntities],
  ['accounts', 'Accounts', renderAccounts],
  ['virtual-accounts', 'Virtual accounts', renderVirtualAccounts],
  ['cards', 'Cards', renderCards],
  ['card-groups', 'Card groups', renderCardGroups],
  ['transactions', 'Transactions', renderTransactions],
  ['contacts', 'Contacts', renderContacts],
  ['invoices', 'Invoices', renderInvoices],
  ['webhooks', 'Webhooks', renderWebhooks],
];

async function renderEntities(el) {
  const { entities, keys } = await world();
  el.append(
    table([
      ['Legal entity', (e) => named(e.name, e.id)],
      ['Structure', (e) => e.structure || '—'],
      ['Key the dashboard uses', (e) => [h('code', {}, e.key.key), ' ', badge(e.key.kind === 'user' ? 'user key' : 'entity key', 'plain')]],
    ], entities, { id: 'entities-table' }),
    h('h2', {}, 'API keys of this world'),
    table([
      ['Key', (k) => h('code', {}, k.key)],
      ['Name', (k) => k.name || '—'],
      ['Kind', (k) => k.kind],
      ['Read-only', (k) => (k.readOnly ? badge('read-only', 'wait') : 'no')],
      ['Acts on', (k) => k.legalEntityIds.join(', ')],
    ], keys, { id: 'keys-table' }));
}

function balanceLines(b) {
  if (!b) return '—';
  return b.balances.map((x) => h('div', {}, h('span', { class: 'muted' }, `${x.type}: `), h('strong', {}, money(x.posted.amountCents)),
    h('small', { class: 'muted' }, ` posted · ${money(x.available.amountCents)} available`)));
}

async function renderAccounts(el, le) {
  const accounts = await walk(le, '/account');
  const balances = await Promise.all(accounts.map((a) => pub(le, 'GET', `/account/${a.id}/balance`).catch(() => null)));
  const rows = accounts.map((a, i) => ({ ...a, balance: balances[i] }));
  el.append(table([
    ['Account', (a) => named(a.name, a.id)],
    ['Type', (a) => a.type],
    ['Status', (a) => badge(a.status)],
    ['Account / routing', (a) => h('code', {}, `${a.accountNumber} / ${a.routingNumber}`)],
    ['Balances', (a) => balanceLines(a.balance), 'num'],
  ], rows, { id: 'accounts-table' }));
}

async function renderVirtualAccounts(el, le) {
  const [items, accounts] = await Promise.all([walk(le, '/virtual-account', { 'filter:includeClosedAccounts': 'true' }), walk(le, '/account')]);
  const names = new Map(accounts.map((a) => [a.id, a.name]));
  el.append(table([
    ['Virtual account', (x) => named(x.virtualAccount.name, x.virtualAccount.id)],
    ['Account', (x) => named(names.get(x.virtualAccount.accountId), x.virtualAccount.accountId)],
    ['Kind', (x) => x.virtualAccount.accountType],
    ['Status', (x) => (x.virtualAccount.closedAt ? badge('closed') : badge('open'))],
    ['Balance', (x) => money(x.balance && x.balance.amountCents), 'num'],
    ['Card spend', (x) => money(x.spend && x.spend.amountCents), 'num'],
  ], items, { id: 'virtual-accounts-table' }));
}

function destinationLine(d) {
  const b = d.bankAccount;
  const w = d.internationalWire;
  const what = b ? `${b.bankName || 'Bank'} ${b.accountType || ''} ••${b.accountNumberLast4} (routing ${b.routingNumber})`
    : w ? `${w.bankName || 'Bank'} IBAN ••${w.ibanLast4} (${w.swift}, ${w.bankCountry})` : d.type;
  return h('li', {}, badge(d.type, 'plain'), ' ', d.name ? h('strong', {}, d.name + ': ') : null, what,
    d.eligibleTransactionTypes ? h('small', { class: 'muted' }, ` · ${d.eligibleTransactionTypes.join(', ')}`) : null);
}

async function renderContacts(el, le) {
  const [contacts, destinations] = await Promise.all([walk(le, '/contact'), walk(le, '/contact/destination')]);
  const byContact = new Map();
  for (const d of destinations) {
    if (!byContact.has(d.contactId)) byContact.set(d.contactId, []);
    byContact.get(d.contactId).push(d);
  }
  el.append(table([
    ['Contact', (c) => named(c.name, c.id)],
    ['Type', (c) => c.recipientType || '—'],
    ['Email', (c) => c.recipientEmail || '—'],
    ['Address', (c) => (c.address ? `${c.address.addressLine}, ${c.address.addressCity} ${c.address.addressState || ''} ${c.address.addressCountry}` : '—')],
    ['Destinations', (c) => {
      const ds = byContact.get(c.id) || [];
      return ds.length ? h('ul', { class: 'plain' }, ds.map(destinationLine)) : h('span', { class: 'muted' }, 'none');
    }],
  ], contacts, { id: 'contacts-table' }));
}

async function renderInvoices(el, le) {
  const items = await walk(le, '/invoice');
  el.append(table([
    ['Invoice', (x) => named(x.invoiceDetails.invoiceNumber, x.invoice.id)],
    ['Billed to', (x) => (x.invoiceDetails.billedTo ? x.invoiceDetails.billedTo.name : '—')],
    ['Status', (x) => badge(x.invoice.status)],
    ['Total', (x) => money(x.invoiceDetails.lineItemsAndTotals.totalAmountCents), 'num'],
    ['Collected', (x) => money(x.invoice.collectedAmountCents), 'num'],
    ['Issued', (x) => day(x.invoiceDetails.issuedAt)],
    ['Due', (x) => day(x.invoiceDetails.dueAt)],
  ], items, { id: 'invoices-table', empty: 'No invoices.' }));
}

async function renderWebhooks(el, le) {
  const items = await walk(le, '/webhook');
  el.append(table([
    ['Endpoint', (w) => named(w.name, w.id)],
    ['URL', (w) => h('code', {}, w.url)],
    ['Status', (w) => badge(w.status)],
    ['Created', (w) => when(w.createdAt)],
  ], items, { id: 'webhooks-table', empty: 'No webhook endpoints.' }),
  h('p', { class: 'hint' }, 'Their deliveries are on the Webhook deliveries page.'));
}

/** Renders the browse page; args[0] names the tab, the rest is the tab's (a transactions search). */
export async function render(view, args) {
  const current = tabs.find((t) => t[0] === args[0]) || tabs[1];
  const le = await entity();
  view.append(
    h('h1', {}, 'Browse ', h('span', { class: 'muted' }, le ? le.name : '')),
    h('nav', { class: 'tabs', 'aria-label': 'Resources' }, tabs.map(([id, label]) =>
      h('a', { href: `#/browse/${id}`, 'aria-current': id === current[0] ? 'page' : null }, label))));
  const panel = h('div', { class: 'panel', id: `browse-${current[0]}` });
  view.append(panel);
  if (!le) {
    panel.append(h('p', { class: 'empty' }, 'This world has no legal entity with an API key.'));
    return null;
  }
  return current[2](panel, le, args.slice(1));
}

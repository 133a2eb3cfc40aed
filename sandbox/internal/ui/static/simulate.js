// Simulate: a card purchase (approved or declined, and the rule that
// decided), money arriving from outside, and a customer paying an invoice.
// Each form is one control API call under /_sandbox/simulate/.
import { control, entity, walk } from './api.js';
import { badge, busy, errorBox, facts, field, h, money, notify, parseDollars, section, select } from './dom.js';

let merchants = null;

// amountInput is a dollar field whose problem is shown next to it.
function amountInput(id, value, optional) {
  const input = h('input', { id, type: 'text', inputmode: 'decimal', value, autocomplete: 'off', required: !optional });
  const problem = h('small', { class: 'error-text', id: `${id}-problem`, 'aria-live': 'polite' });
  input.setAttribute('aria-errormessage', problem.id);
  const read = () => {
    problem.textContent = '';
    input.removeAttribute('aria-invalid');
    if (optional && !input.value.trim()) return undefined;
    const cents = parseDollars(input.value);
    if (cents === null || cents <= 0) {
      problem.textContent = 'Enter a positive amount in dollars, such as 25 or 1250.50.';
      input.setAttribute('aria-invalid', 'true');
      return null;
    }
    return cents;
  };
  return { input, problem, read };
}

function simForm(id, title, kids, submitLabel, onSubmit) {
  const result = h('div', { class: 'result-slot', id: `${id}-result`, 'aria-live': 'polite' });
  const button = h('button', { type: 'submit', class: 'primary' }, submitLabel);
  const form = h('form', { id, class: 'sim-form' }, kids, h('div', { class: 'actions' }, button));
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    busy(button, async () => {
      try {
        const out = await onSubmit();
        if (out) result.replaceChildren(out);
        notify('sandbox:changed');
      } catch (err) {
        result.replaceChildren(errorBox(err));
      }
    });
  });
  return section(title, form, result);
}

function purchaseResult(res) {
  const d = res.decision || {};
  return h('div', { class: `result ${res.approved ? 'good' : 'bad'}`, id: 'purchase-result' },
    h('p', { class: 'verdict' }, res.approved ? badge('approved') : badge('declined'),
      ' ', res.approved ? 'The purchase was approved.' : 'The purchase was declined.'),
    facts([
      ['Decided by', h('code', { id: 'purchase-rule' }, d.rule || '—')],
      ['Reason', h('span', { id: 'purchase-reason' }, d.reason || '—')],
      d.detail ? ['Detail', d.detail] : null,
      d.scope ? ['Scope', d.scope] : null,
      res.transaction ? ['Transaction', [h('code', {}, res.transaction.id), ' ', badge(res.transaction.detailedStatus)]] : null,
    ]));
}

// allowlists reports whether a spending constraint allows only some
// merchants: which ones, the merchant list does not say.
function allowlists(sc) {
  return !!sc && ['merchantRule', 'merchantCategoryRule', 'merchantCategoryCodeRule'].some((r) => sc[r] && sc[r].restriction === 'allowlist');
}

/**
 * The card the form starts on: one whose first purchase is approved, as a
 * demo wants. An active, reusable card that takes one-off payments and
 * allows any merchant (its own rules and its group's); else any active one.
 */
function likelyCard(cards, groups) {
  const rules = new Map(groups.map((g) => [g.id, g.spendingConstraint]));
  const active = cards.filter((c) => c.status === 'active');
  const open = active.find((c) => !c.isSingleUse && !allowlists(c.spendingConstraint) && !allowlists(rules.get(c.cardGroupId))
    && !(c.modifiers || []).some((m) => m.name === 'only_allow_recurring_payments' && m.value));
  return open || active[0] || cards[0];
}

async function purchaseForm(le) {
  const [cards, groups] = await Promise.all([walk(le, '/card'), walk(le, '/card-group')]);
  merchants = merchants || await walk(le, '/merchant');
  const start = likelyCard(cards, groups);
  const card = select({ id: 'sim-card', required: true }, cards.map((c) => [c.id, `${c.name} ••${c.last4} (${c.status})`]), start && start.id);
  const merchant = select({ id: 'sim-merchant', required: true }, merchants.map((m) => [m.id, m.name]));
  const amount = amountInput('sim-amount', '25.00');
  const recurring = h('input', { type: 'checkbox', id: 'sim-recurring' });
  return simForm('purchase-form', 'Card purchase', [
    field('Card', card), field('Merchant', merchant),
    field('Amount (USD)', amount.input), amount.problem,
    h('div', { class: 'check' }, recurring, h('label', { for: 'sim-recurring' }, 'Recurring (subscription) payment')),
  ], 'Authorize purchase', async () => {
    const cents = amount.read();
    if (cents === null) return null;
    const res = await control('POST', '/simulate/card-authorization',
      { cardId: card.value, merchantId: merchant.value, amountCents: cents, recurring: recurring.checked });
    return purchaseResult(res);
  });
}

async function transferForm(le) {
  const [accounts, vas] = await Promise.all([walk(le, '/account'), walk(le, '/virtual-account')]);
  const dest = select({ id: 'sim-transfer-to', required: true }, [
    { group: 'Accounts', options: accounts.map((a) => [a.id, a.name]) },
    { group: 'Virtual accounts', options: vas.map((v) => [v.virtualAccount.id, `${v.virtualAccount.name} (${v.virtualAccount.accountId})`]) },
  ]);
  const rail = select({ id: 'sim-transfer-rail' }, ['ach', 'wire', 'rtp', 'sepa', 'pix', 'spei', 'fps'].map((r) => [r, r.toUpperCase()]));
  const amount = amountInput('sim-transfer-amount', '1000.00');
  const sender = h('input', { id: 'sim-transfer-sender', type: 'text', value: 'Initech', autocomplete: 'off' });
  const reference = h('input', { id: 'sim-transfer-reference', type: 'text', autocomplete: 'off' });
  return simForm('transfer-form', 'Incoming transfer', [
    field('To', dest), field('Rail', rail), field('Amount (USD)', amount.input), amount.problem,
    field('Sender name', sender), field('Reference (optional)', reference),
  ], 'Receive money', async () => {
    const cents = amount.read();
    if (cents === null) return null;
    const to = dest.value.startsWith('subaccount_') ? { virtualAccountId: dest.value } : { accountId: dest.value };
    const t = await control('POST', '/simulate/incoming-transfer',
      { ...to, rail: rail.value, amountCents: cents, senderName: sender.value || undefined, reference: reference.value || undefined });
    return h('div', { class: 'result good', id: 'transfer-result' },
      h('p', { class: 'verdict' }, badge(t.detailedStatus), ` ${money(t.amountCents)} ${t.description || ''}`),
      facts([['Transaction', h('code', {}, t.id)], ['Category', t.category], ['Virtual account', t.virtualAccountId]]));
  });
}

const methods = ['inbound_ach_transfer', 'inbound_wire_transfer', 'inbound_rtp', 'inbound_international_wire', 'ach_debit', 'acquiring_payment', 'crypto_deposit'];

async function invoiceForm(le) {
  const invoices = (await walk(le, '/invoice')).filter((x) => ['unpaid', 'overdue', 'paid_partially'].includes(x.invoice.status));
  const invoice = select({ id: 'sim-invoice', required: true }, invoices.map((x) => [x.invoice.id,
    `${x.invoiceDetails.invoiceNumber} · ${x.invoiceDetails.billedTo ? x.invoiceDetails.billedTo.name : ''} · ${x.invoice.status} · ${money(x.invoiceDetails.lineItemsAndTotals.totalAmountCents - x.invoice.collectedAmountCents)} due`]));
  const amount = amountInput('sim-invoice-amount', '', true);
  const method = select({ id: 'sim-invoice-method' }, [['', 'The invoice\'s first payment method'], ...methods.map((m) => [m, m.replace(/_/g, ' ')])]);
  if (!invoices.length) return section('Invoice payment', h('p', { class: 'empty' }, 'No sent invoice is waiting for payment.'));
  return simForm('invoice-form', 'Invoice payment', [
    field('Invoice', invoice), field('Amount (USD)', amount.input, 'Leave empty to pay what remains.'), amount.problem,
    field('Method', method),
  ], 'Pay invoice', async () => {
    const cents = amount.read();
    if (cents === null) return null;
    const res = await control('POST', '/simulate/invoice-payment', { invoiceId: invoice.value, amountCents: cents, method: method.value || undefined });
    return h('div', { class: 'result good', id: 'invoice-result' },
      h('p', { class: 'verdict' }, badge(res.status), ` ${money(res.collectedAmountCents)} of ${money(res.totalAmountCents)} collected`),
      facts([['Payment', h('code', {}, res.transactionId)], ['Arrived as', `${res.category} (${res.detailedStatus})`]]));
  });
}

/** Renders the simulate page. */
export async function render(view) {
  const le = await entity();
  view.append(h('h1', {}, 'Simulate ', h('span', { class: 'muted' }, le ? le.name : '')));
  if (!le) return;
  const forms = await Promise.all([purchaseForm(le), transferForm(le), invoiceForm(le)]);
  view.append(h('div', { class: 'grid three' }, forms));
}

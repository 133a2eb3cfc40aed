// Tour: the five flows a demo audience should see, each one click away,
// in the order docs/demo.md tells them. A step's link opens the view that
// shows it; the step says what to click there.
import { control } from './api.js';
import { h } from './dom.js';

/** The steps, given what the world holds now. */
function steps(infoEmail) {
  return [
    {
      id: 'information-request', title: 'An information request and its secure form', href: infoEmail ? `#/outbox/${encodeURIComponent(infoEmail.id)}` : '#/outbox',
      open: 'Open the email',
      what: 'Acme asked Brightside Office Cleaning for its bank details. The email is in the outbox, with the link the contact follows.',
      then: 'Click "Open the secure form", fill it in as the vendor would, and submit: the request turns submitted and the bank account joins the contact.',
    },
    {
      id: 'queued-ach', title: 'A queued ACH going out', href: '#/browse/transactions/Brightside',
      open: 'Show the queued ACH',
      what: 'A $1,850.00 ACH to Brightside waits on that request: the money is held, there is nowhere to send it yet.',
      then: 'Once the form is submitted the ACH leaves for the new bank account; on the Overview, "Run to the next business event" moves time until it settles.',
    },
    {
      id: 'webhook', title: 'A webhook firing, failing and backing off', href: '#/deliveries/retrying',
      open: 'Show the failing deliveries',
      what: 'The ERP endpoint does not answer: its first delivery was refused 7 times on the retry schedule, the next events queue behind it.',
      then: 'Open a delivery to see each attempt and its error. "Run to the next business event" makes the next attempt, and it is pushed further out again.',
    },
    {
      id: 'card', title: 'A card purchase approved, and one declined', href: '#/simulate',
      open: 'Simulate a purchase',
      what: 'The form starts on a card and purchase that go through: click "Authorize purchase" and see it approved, with the rule that decided.',
      then: 'Then type 900 as the amount: the card\'s $500.00 per-purchase maximum declines it, and the page says which rule and why.',
    },
    {
      id: 'agent', title: 'A read-only AI agent asking a human to approve a write', href: '#/agents',
      open: 'Show the agent request',
      what: 'Acme\'s assistant has a read-only key. It asked for a new virtual card; the write waits here instead of happening.',
      then: 'Approve it and the card is created, as the key that asked; reject it and nothing changes.',
    },
  ];
}

/** Renders the tour. */
export async function render(view) {
  const outbox = await control('GET', '/outbox?kind=information_request');
  const infoEmail = outbox.items.find((m) => m.kind === 'information_request');
  view.append(h('h1', {}, 'Tour'),
    h('p', { class: 'hint' }, 'Five flows, each one click away. docs/demo.md is the presenter\'s script; "Reset world" on the Overview starts it over.'),
    h('ol', { class: 'tour', id: 'tour-steps' }, steps(infoEmail).map((s) => h('li', { id: `tour-${s.id}` },
      h('h2', {}, s.title),
      h('p', {}, s.what),
      h('p', { class: 'then' }, s.then),
      h('div', { class: 'actions' }, h('a', { class: 'button primary', href: s.href, id: `tour-open-${s.id}` }, s.open))))));
}

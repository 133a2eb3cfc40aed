// Cards and card groups: each with its spending constraint in words and a
// utilization bar per limit.
import { control, pub, walk } from './api.js';
import { badge, h, money, nameAndID, when } from './dom.js';
import { describe, limitBar, limitUses, limitsOf } from './limits.js';

function rules(constraint) {
  const lines = describe(constraint);
  if (!lines.length) return h('p', { class: 'muted' }, 'No spending constraint.');
  return h('ul', { class: 'rules' }, lines.map((l) => h('li', {}, l)));
}

// binding is what the utilization endpoint reports: the limit with the
// least left, which decides a purchase.
function binding(u) {
  if (!u) return null;
  return h('p', { class: 'hint' }, `Utilization endpoint: ${money(u.spend.amountCents)} spent`,
    u.availableBalance ? `, ${money(u.availableBalance.amountCents)} available under the binding limit` : '',
    u.nextResetDate ? `, next reset ${when(u.nextResetDate)}` : '', '.');
}

async function tile(le, now, { kind, id, title, subtitle, status, constraint, scope, utilizationPath, extra }) {
  const [uses, util] = await Promise.all([
    limitUses(le, constraint, scope, now),
    utilizationPath && limitsOf(constraint).length ? pub(le, 'GET', utilizationPath).catch(() => null) : null,
  ]);
  return h('article', { class: 'tile', id: `${kind}-${id}`, dataset: { id } },
    h('header', {}, h('h3', {}, title), status ? badge(status) : null),
    h('p', { class: 'muted id' }, subtitle),
    extra,
    rules(constraint),
    uses.length ? h('div', { class: 'limits' }, uses.map(limitBar)) : null,
    binding(util));
}

/** The cards of a legal entity. */
export async function renderCards(el, le) {
  const [cards, groups, clock] = await Promise.all([walk(le, '/card'), walk(le, '/card-group'), control('GET', '/clock')]);
  const groupNames = new Map(groups.map((g) => [g.id, g.name]));
  const tiles = await Promise.all(cards.map((c) => tile(le, clock.now, {
    kind: 'card', id: c.id, title: `${c.name} ••${c.last4}`, status: c.status, constraint: c.spendingConstraint,
    subtitle: `${c.id} · ${c.isSingleUse ? 'single-use · ' : ''}expires ${c.expiryMonth}/${c.expiryYear}`,
    scope: { 'filter:cardId': c.id }, utilizationPath: c.cardGroupId ? null : `/card/${c.id}/utilization`,
    extra: [
      c.cardGroupId ? h('p', {}, 'In group ', h('a', { href: '#/browse/card-groups' }, groupNames.get(c.cardGroupId) || c.cardGroupId),
        ': its rules apply too.') : null,
      (c.modifiers || []).filter((m) => m.value).map((m) => h('p', {}, badge(m.name.replace(/_/g, ' '), 'plain'))),
    ],
  })));
  el.append(h('p', { class: 'hint' }, `${cards.length} cards. Bars show the spend inside each limit's current window, as of ${when(clock.now)}.`),
    h('div', { class: 'tiles', id: 'cards' }, tiles));
}

/** The card groups of a legal entity. */
export async function renderCardGroups(el, le) {
  const [groups, cards, clock, virtualAccounts] = await Promise.all([walk(le, '/card-group'), walk(le, '/card'), control('GET', '/clock'),
    walk(le, '/virtual-account', { 'filter:includeClosedAccounts': 'true' })]);
  const vaNames = new Map(virtualAccounts.map((x) => [x.virtualAccount.id, x.virtualAccount.name]));
  const tiles = await Promise.all(groups.map((g) => {
    const members = cards.filter((c) => c.cardGroupId === g.id);
    return tile(le, clock.now, {
      kind: 'card-group', id: g.id, title: g.name, constraint: g.spendingConstraint,
      subtitle: `${g.id}${g.virtualAccountId ? ` · pays from ${nameAndID(vaNames.get(g.virtualAccountId), g.virtualAccountId)}` : ''}`,
      scope: { 'filter:cardGroupId': g.id }, utilizationPath: `/card-group/${g.id}/utilization`,
      extra: h('p', {}, `${members.length} card${members.length === 1 ? '' : 's'}`,
        members.length ? `: ${members.map((c) => c.name).join(', ')}` : ''),
    });
  }));
  el.append(h('div', { class: 'tiles', id: 'card-groups' }, tiles));
}

// Spending constraints in words, and each utilization limit's spend in its
// current window. The windows follow the sandbox's rules (docs/cards.md, "Windows"):
// they start at midnight in the limit's zone; spend is read with
// GET /transaction/aggregation over the card's (or group's) purchases since
// the window started.
import { pub, qs } from './api.js';
import { h, money } from './dom.js';

function ymd(ms, tz) {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(ms);
  const get = (t) => Number(parts.find((p) => p.type === t).value);
  return { y: get('year'), m: get('month'), d: get('day') };
}

// offset is how far the zone's wall clock is ahead of UTC at ms.
function offset(ms, tz) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: tz, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
  }).formatToParts(ms);
  const get = (t) => Number(parts.find((p) => p.type === t).value);
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour') % 24, get('minute'), get('second'));
  return wall - Math.floor(ms / 1000) * 1000;
}

function midnight(day, tz) {
  const guess = Date.UTC(day.y, day.m - 1, day.d);
  const first = guess - offset(guess, tz);
  return guess - offset(first, tz);
}

function fromUTC(ms) {
  const d = new Date(ms);
  return { y: d.getUTCFullYear(), m: d.getUTCMonth() + 1, d: d.getUTCDate() };
}

const addDays = (day, n) => fromUTC(Date.UTC(day.y, day.m - 1, day.d + n));
const num = (day) => Date.UTC(day.y, day.m - 1, day.d) / 86400000;

function clamped(y, m, d) {
  const first = fromUTC(Date.UTC(y, m - 1, 1));
  const last = new Date(Date.UTC(first.y, first.m, 0)).getUTCDate();
  return { y: first.y, m: first.m, d: Math.min(d, last) };
}

function current(preset, today, start) {
  switch (preset) {
    case 'daily':
      return [today, addDays(today, 1)];
    case 'weekly': {
      const anchor = start || { y: 2024, m: 1, d: 1 };
      const cur = addDays(anchor, Math.floor((num(today) - num(anchor)) / 7) * 7);
      return [cur, addDays(cur, 7)];
    }
    case 'monthly': {
      const dom = start ? start.d : 1;
      let cur = clamped(today.y, today.m, dom);
      if (num(today) < num(cur)) cur = clamped(today.y, today.m - 1, dom);
      return [cur, clamped(cur.y, cur.m + 1, dom)];
    }
    case 'yearly': {
      const [m, dom] = start ? [start.m, start.d] : [1, 1];
      let cur = clamped(today.y, m, dom);
      if (num(today) < num(cur)) cur = clamped(today.y - 1, m, dom);
      return [cur, clamped(cur.y + 1, m, dom)];
    }
    default:
      return null;
  }
}

// zone is a limit's time zone, or UTC when the browser does not know it.
function zone(name) {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name || 'UTC' }).resolvedOptions().timeZone;
  } catch {
    return 'UTC';
  }
}

/** The window of a limit that holds at nowISO: {start, next} in ms, or nulls (collective). */
export function limitWindow(limit, nowISO) {
  const tz = zone(limit.timezone);
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(limit.startDate || '');
  const start = match ? { y: Number(match[1]), m: Number(match[2]), d: Number(match[3]) } : null;
  const days = current(limit.preset, ymd(Date.parse(nowISO), tz), start);
  if (!days) return { start: null, next: null };
  return { start: midnight(days[0], tz), next: midnight(days[1], tz) };
}

/** Every utilization limit of a constraint, labelled with its rule. */
export function limitsOf(constraint) {
  const rule = constraint && constraint.spendingRule;
  if (!rule) return [];
  const out = [];
  if (rule.utilizationLimit) out.push({ rule: 'utilizationLimit', limit: rule.utilizationLimit });
  (rule.utilizationLimitV2 || []).forEach((limit, i) => out.push({ rule: `utilizationLimitV2[${i}]`, limit }));
  return out;
}

/**
 * Each limit with its spend: scope is {'filter:cardId': id} or
 * {'filter:cardGroupId': id}.
 */
export async function limitUses(le, constraint, scope, nowISO) {
  return Promise.all(limitsOf(constraint).map(async ({ rule, limit }) => {
    const w = limitWindow(limit, nowISO);
    const agg = await pub(le, 'GET', '/transaction/aggregation' + qs({ ...scope, 'filter:category': 'card', 'filter:from_date': w.start ?? '' }));
    return { rule, limit, window: w, spend: -(agg.netChange || 0) };
  }));
}

const presetNames = { daily: 'Daily', weekly: 'Weekly', monthly: 'Monthly', yearly: 'Yearly', collective: 'Lifetime' };

/** One bar per limit: spend against the limit amount in its window. */
export function limitBar(use) {
  const cap = use.limit.limitAmount.amountCents;
  const pct = cap > 0 ? Math.min(100, Math.round((use.spend / cap) * 100)) : 100;
  const tone = pct >= 90 ? 'bad' : pct >= 70 ? 'wait' : 'good';
  const fill = h('div', { class: `fill ${tone}` });
  fill.style.width = `${Math.max(pct, use.spend > 0 ? 1 : 0)}%`;
  const label = `${presetNames[use.limit.preset] || use.limit.preset} limit`;
  const resets = use.window.next ? `resets ${new Date(use.window.next).toISOString().slice(0, 10)}` : 'never resets';
  return h('div', { class: 'limit' },
    h('div', { class: 'limit-head' }, h('span', {}, label, h('small', { class: 'muted' }, ` ${use.limit.timezone || 'UTC'} · ${resets}`)),
      h('span', { class: 'limit-amount' }, `${money(use.spend)} of ${money(cap)}`)),
    h('div', { class: 'bar', role: 'progressbar', 'aria-label': `${label}: ${money(use.spend)} of ${money(cap)}`,
      'aria-valuemin': '0', 'aria-valuemax': '100', 'aria-valuenow': String(pct) }, fill));
}

function list(rule, noun) {
  const values = rule.merchants || rule.merchantCategories || rule.merchantCategoryCodes || rule.countries || [];
  const how = rule.restriction === 'blacklist' ? 'Blocks' : 'Only';
  return `${how} ${noun}: ${values.map((v) => v.replace(/^merchant_(v2_|category_)/, '')).join(', ')}`;
}

/** The rules of a spending constraint, one line each. */
export function describe(constraint) {
  if (!constraint) return [];
  const out = [];
  if (constraint.merchantRule) out.push(list(constraint.merchantRule, 'merchants'));
  if (constraint.merchantCategoryRule) out.push(list(constraint.merchantCategoryRule, 'categories'));
  if (constraint.merchantCategoryCodeRule) out.push(list(constraint.merchantCategoryCodeRule, 'MCCs'));
  if (constraint.countryRule) out.push(list(constraint.countryRule, 'countries'));
  const size = constraint.spendingRule && constraint.spendingRule.transactionSizeLimit;
  if (size && (size.minimum || size.maximum)) {
    out.push(`Each purchase ${size.minimum ? `at least ${money(size.minimum.amountCents)}` : ''}${size.minimum && size.maximum ? ' and ' : ''}${size.maximum ? `at most ${money(size.maximum.amountCents)}` : ''}`);
  }
  for (const { limit } of limitsOf(constraint)) {
    out.push(`${presetNames[limit.preset] || limit.preset} limit ${money(limit.limitAmount.amountCents)}${limit.startDate ? ` from ${limit.startDate}` : ''}`);
  }
  return out;
}

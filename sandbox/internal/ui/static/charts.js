// Charts, drawn as inline SVG as wide as the page: each account's posted
// balance over the last 90 days (rebuilt backwards from today's balance
// through its posted transactions), scaled to what it did then, with the
// value under the pointer shown; and the spend against every utilization
// limit of cards and groups.
import { control, entity, pub, walk } from './api.js';
import { day, h, money, section, svg } from './dom.js';
import { limitUses } from './limits.js';

const maxPages = 40;
const windowDays = 90;
const dayMs = 86400000;

/** Round tick values covering [lo, hi]. */
function ticks(lo, hi, count = 4) {
  if (lo === hi) return [lo];
  const raw = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw);
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(v);
  return out;
}

const compact = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', notation: 'compact', maximumFractionDigits: 2 });

/** The step value at t of points sorted by time: the last one at or before it. */
function valueAt(points, t) {
  let lo = 0;
  let hi = points.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (points[mid].t <= t) lo = mid;
    else hi = mid - 1;
  }
  return points[lo];
}

/** The points of the last days of a series, starting with the value it had then. */
function lastDays(points, nowMs, days = windowDays) {
  const from = nowMs - days * dayMs;
  if (points[0].t >= from) return points;
  return [{ t: from, v: valueAt(points, from).v }, ...points.filter((p) => p.t > from)];
}

/** The value range a chart shows: what the series did, with some room, never flat. */
function span(vs) {
  let lo = Math.min(...vs);
  let hi = Math.max(...vs);
  const pad = (hi - lo) * 0.08 || Math.max(Math.abs(hi) * 0.05, 100);
  lo -= pad;
  hi += pad;
  if (Math.min(...vs) >= 0 && lo < 0) lo = 0;
  return [lo, hi];
}

/**
 * A step line chart of [{t: ms, v: cents}], oldest first, width pixels
 * wide, with labelled axes; moving the pointer over it shows the day and
 * the value then.
 */
export function lineChart(points, label, width = 760) {
  const W = Math.max(360, Math.round(width));
  const H = 260;
  const m = { l: 76, r: 18, t: 14, b: 46 };
  const t0 = points[0].t;
  const t1 = Math.max(points[points.length - 1].t, t0 + 1);
  const [lo, hi] = span(points.map((p) => p.v));
  const yt = ticks(lo, hi, 5).filter((v) => v >= lo && v <= hi);
  const x = (t) => m.l + ((t - t0) / (t1 - t0)) * (W - m.l - m.r);
  const y = (v) => H - m.b - ((v - lo) / (hi - lo || 1)) * (H - m.t - m.b);
  let d = `M${x(points[0].t).toFixed(1)},${y(points[0].v).toFixed(1)}`;
  for (let i = 1; i < points.length; i++) d += `H${x(points[i].t).toFixed(1)}V${y(points[i].v).toFixed(1)}`;
  const area = `${d}V${y(lo).toFixed(1)}H${x(points[0].t).toFixed(1)}Z`;
  const xt = ticks(t0 / dayMs, t1 / dayMs, Math.max(3, Math.floor(W / 140))).map((n) => n * dayMs).filter((t) => t >= t0 && t <= t1);
  const guide = svg('line', { class: 'guide', y1: m.t, y2: H - m.b, x1: -10, x2: -10 });
  const dot = svg('circle', { class: 'dot', r: 4, cx: -10, cy: -10 });
  const chart = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart', role: 'img', 'aria-label': label },
    svg('title', {}, label),
    yt.map((v) => svg('g', { class: 'grid-line' },
      svg('line', { x1: m.l, x2: W - m.r, y1: y(v), y2: y(v) }),
      svg('text', { x: m.l - 6, y: y(v) + 4, 'text-anchor': 'end' }, compact.format(v / 100)))),
    xt.map((t) => svg('text', { class: 'axis', x: x(t), y: H - m.b + 16, 'text-anchor': 'middle' }, day(new Date(t).toISOString()))),
    svg('text', { class: 'axis-title', x: (m.l + W - m.r) / 2, y: H - 6, 'text-anchor': 'middle' }, `Date (UTC), last ${windowDays} days`),
    svg('text', { class: 'axis-title', x: -(m.t + H - m.b) / 2, y: 14, transform: 'rotate(-90)', 'text-anchor': 'middle' }, 'Posted balance (USD)'),
    svg('path', { d: area, class: 'area' }),
    svg('path', { d, class: 'line' }),
    guide, dot);
  const tip = h('div', { class: 'chart-tip', role: 'status', hidden: true });
  const box = h('div', { class: 'chart-box' }, chart, tip);
  chart.addEventListener('mousemove', (ev) => {
    const r = chart.getBoundingClientRect();
    const px = ((ev.clientX - r.left) / r.width) * W;
    const t = Math.min(t1, Math.max(t0, t0 + ((px - m.l) / (W - m.l - m.r)) * (t1 - t0)));
    const p = valueAt(points, t);
    const cx = x(t).toFixed(1);
    guide.setAttribute('x1', cx);
    guide.setAttribute('x2', cx);
    dot.setAttribute('cx', cx);
    dot.setAttribute('cy', y(p.v).toFixed(1));
    tip.replaceChildren(h('span', { class: 'muted' }, day(new Date(t).toISOString())), h('strong', {}, money(p.v)));
    tip.hidden = false;
    const left = (Number(cx) / W) * r.width;
    tip.style.left = `${Math.min(left + 12, r.width - tip.offsetWidth - 4)}px`;
    tip.style.top = `${(y(p.v) / H) * r.height - tip.offsetHeight - 10}px`;
  });
  chart.addEventListener('mouseleave', () => {
    tip.hidden = true;
    guide.setAttribute('x1', -10);
    guide.setAttribute('x2', -10);
    dot.setAttribute('cy', -10);
  });
  return box;
}

/** Horizontal bars, width pixels wide: spend against each limit, each with its numbers on hover. */
export function limitChart(rows, width = 760) {
  const W = Math.max(520, Math.round(width));
  const row = 30;
  const labelW = Math.min(320, W * 0.34);
  const barW = W - labelW - 170;
  const H = rows.length * row + 8;
  return svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart bars', role: 'img', 'aria-label': 'Spend against each utilization limit' },
    svg('title', {}, 'Spend against each utilization limit'),
    rows.map((r, i) => {
      const cap = r.use.limit.limitAmount.amountCents;
      const frac = cap > 0 ? Math.min(1, r.use.spend / cap) : 1;
      const tone = frac >= 0.9 ? 'bad' : frac >= 0.7 ? 'wait' : 'good';
      const yy = i * row + 6;
      return svg('g', { class: 'bar-row' },
        svg('title', {}, `${r.name}, ${r.use.limit.preset} limit: ${money(r.use.spend)} spent of ${money(cap)} (${Math.round(frac * 100)}%)`),
        svg('text', { x: 0, y: yy + 14 }, `${r.name} · ${r.use.limit.preset}`),
        svg('rect', { x: labelW, y: yy, width: barW, height: 18, rx: 4, class: 'track' }),
        svg('rect', { x: labelW, y: yy, width: Math.max(frac * barW, r.use.spend > 0 ? 2 : 0), height: 18, rx: 4, class: `fill ${tone}` }),
        svg('text', { x: labelW + barW + 8, y: yy + 14 }, `${money(r.use.spend)} / ${compact.format(cap / 100)}`));
    }));
}

const subtypes = { debit: null, cash: 'cash', credit: 'credit' };

/** The posted balance over time of one balance of an account. */
function series(balance, txns, nowISO) {
  const sub = subtypes[balance.type];
  const mine = txns.filter((t) => !sub || t.accountSubtype === sub).sort((a, b) => Date.parse(b.date) - Date.parse(a.date));
  let v = balance.posted.amountCents;
  const points = [{ t: Date.parse(nowISO), v }];
  for (const t of mine) {
    points.push({ t: Date.parse(t.date), v });
    v -= t.amountCents;
  }
  if (mine.length) points.push({ t: Date.parse(mine[mine.length - 1].date) - 1, v });
  return points.reverse();
}

async function accountCharts(le, nowISO, width) {
  const accounts = await walk(le, '/account');
  return Promise.all(accounts.map(async (a) => {
    const [bal, txns] = await Promise.all([pub(le, 'GET', `/account/${a.id}/balance`),
      walk(le, '/transaction', { 'filter:accountId': a.id, 'filter:status': 'posted' }, maxPages)]);
    const charts = bal.balances.map((b) => {
      const points = lastDays(series(b, txns, nowISO), Date.parse(nowISO));
      const label = `${a.name}: ${b.type} balance over the last ${windowDays} days, now ${money(b.posted.amountCents)}`;
      return h('figure', { class: 'figure' }, points.length > 1 ? lineChart(points, label, width) : h('p', { class: 'empty' }, 'No posted transactions.'),
        h('figcaption', {}, `${b.type} balance · now ${money(b.posted.amountCents)} posted · ${txns.length} posted transactions`,
          txns.length >= maxPages * 50 ? ' (the most recent ones only)' : ''));
    });
    return section(`Balance over time: ${a.name}`, charts);
  }));
}

async function limitRows(le, nowISO) {
  const [cards, groups] = await Promise.all([walk(le, '/card'), walk(le, '/card-group')]);
  const owners = [
    ...cards.filter((c) => c.status !== 'closed').map((c) => ({ name: c.name, constraint: c.spendingConstraint, scope: { 'filter:cardId': c.id } })),
    ...groups.map((g) => ({ name: `${g.name} (group)`, constraint: g.spendingConstraint, scope: { 'filter:cardGroupId': g.id } })),
  ];
  const uses = await Promise.all(owners.map((o) => limitUses(le, o.constraint, o.scope, nowISO)));
  return owners.flatMap((o, i) => uses[i].map((use) => ({ name: o.name, use })));
}

/** Renders the charts page, each chart as wide as the page. */
export async function render(view) {
  const le = await entity();
  view.append(h('h1', {}, 'Charts ', h('span', { class: 'muted' }, le ? le.name : '')));
  if (!le) return;
  // A section's padding and border take 38 pixels of the page's width.
  const width = view.clientWidth - 38;
  const clock = await control('GET', '/clock');
  const [balances, rows] = await Promise.all([accountCharts(le, clock.now, width), limitRows(le, clock.now)]);
  view.append(h('p', { class: 'hint' }, 'Move the pointer over a chart to read the balance on a day.'),
    h('div', { class: 'stack', id: 'balance-charts' }, balances),
    section('Spend against each limit',
      rows.length ? h('div', { id: 'limit-chart' }, limitChart(rows, width)) : h('p', { class: 'empty' }, 'No card or group has a utilization limit.'),
      h('p', { class: 'hint' }, 'Spend inside each limit\'s current window; red from 90%. Hover a bar for its numbers.')));
}

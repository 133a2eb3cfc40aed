// Charts, drawn as inline SVG: each account's posted balance over time
// (rebuilt backwards from today's balance through its posted transactions)
// and the spend against every utilization limit of cards and groups.
import { control, entity, pub, walk } from './api.js';
import { day, h, money, section, svg } from './dom.js';
import { limitUses } from './limits.js';

const maxPages = 40;

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

const compact = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', notation: 'compact', maximumFractionDigits: 1 });

/** A step line chart of [{t: ms, v: cents}], oldest first. */
export function lineChart(points, label) {
  const W = 760;
  const H = 240;
  const m = { l: 64, r: 16, t: 12, b: 28 };
  const t0 = points[0].t;
  const t1 = Math.max(points[points.length - 1].t, t0 + 1);
  const vs = points.map((p) => p.v);
  const yt = ticks(Math.min(0, ...vs), Math.max(...vs, 1));
  const lo = Math.min(yt[0], ...vs);
  const hi = Math.max(yt[yt.length - 1], ...vs);
  const x = (t) => m.l + ((t - t0) / (t1 - t0)) * (W - m.l - m.r);
  const y = (v) => H - m.b - ((v - lo) / (hi - lo || 1)) * (H - m.t - m.b);
  let d = `M${x(points[0].t).toFixed(1)},${y(points[0].v).toFixed(1)}`;
  for (let i = 1; i < points.length; i++) d += `H${x(points[i].t).toFixed(1)}V${y(points[i].v).toFixed(1)}`;
  const area = `${d}V${y(lo).toFixed(1)}H${x(points[0].t).toFixed(1)}Z`;
  const xt = ticks(t0, t1, 4).filter((t) => t >= t0 && t <= t1);
  return svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart', role: 'img', 'aria-label': label },
    svg('title', {}, label),
    yt.map((v) => svg('g', { class: 'grid-line' },
      svg('line', { x1: m.l, x2: W - m.r, y1: y(v), y2: y(v) }),
      svg('text', { x: m.l - 6, y: y(v) + 4, 'text-anchor': 'end' }, compact.format(v / 100)))),
    xt.map((t) => svg('text', { class: 'axis', x: x(t), y: H - 8, 'text-anchor': 'middle' }, day(new Date(t).toISOString()))),
    svg('path', { d: area, class: 'area' }),
    svg('path', { d, class: 'line' }));
}

/** Horizontal bars: spend against each limit. */
export function limitChart(rows) {
  const W = 760;
  const row = 30;
  const labelW = 260;
  const barW = W - labelW - 150;
  const H = rows.length * row + 8;
  return svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart bars', role: 'img', 'aria-label': 'Spend against each utilization limit' },
    svg('title', {}, 'Spend against each utilization limit'),
    rows.map((r, i) => {
      const cap = r.use.limit.limitAmount.amountCents;
      const frac = cap > 0 ? Math.min(1, r.use.spend / cap) : 1;
      const tone = frac >= 0.9 ? 'bad' : frac >= 0.7 ? 'wait' : 'good';
      const yy = i * row + 6;
      return svg('g', { class: 'bar-row' },
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

async function accountCharts(le, nowISO) {
  const accounts = await walk(le, '/account');
  return Promise.all(accounts.map(async (a) => {
    const [bal, txns] = await Promise.all([pub(le, 'GET', `/account/${a.id}/balance`),
      walk(le, '/transaction', { 'filter:accountId': a.id, 'filter:status': 'posted' }, maxPages)]);
    const charts = bal.balances.map((b) => {
      const points = series(b, txns, nowISO);
      const label = `${a.name}: ${b.type} balance over time, now ${money(b.posted.amountCents)}`;
      return h('figure', { class: 'figure' }, points.length > 1 ? lineChart(points, label) : h('p', { class: 'empty' }, 'No posted transactions.'),
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

/** Renders the charts page. */
export async function render(view) {
  const le = await entity();
  view.append(h('h1', {}, 'Charts ', h('span', { class: 'muted' }, le ? le.name : '')));
  if (!le) return;
  const clock = await control('GET', '/clock');
  const [balances, rows] = await Promise.all([accountCharts(le, clock.now), limitRows(le, clock.now)]);
  view.append(h('div', { class: 'stack', id: 'balance-charts' }, balances),
    section('Spend against each limit',
      rows.length ? h('div', { id: 'limit-chart' }, limitChart(rows)) : h('p', { class: 'empty' }, 'No card or group has a utilization limit.'),
      h('p', { class: 'hint' }, 'Spend inside each limit\'s current window; red from 90%.')));
}

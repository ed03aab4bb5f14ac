/** 2. Scenarios, captured in process: statements, raw SQL timings, plans. */
import pg from 'pg';
import { ENGINE, SERVER_ENV, dist, opt, prepareValue, preparedNames } from './config.mjs';
import { percentile } from './util.mjs';

export async function openInProcess() {
  const { loadConfig } = await dist('config/config.js');
  const { openStore } = await dist('server.js');
  const { buildApp } = await dist('app.js');
  const config = loadConfig({ ...process.env, ...SERVER_ENV, LINEUP_STATEMENT_TIMEOUT_MS: '60000' });
  const db = await openStore(config);
  const sink = { statements: null };
  const app = await buildApp({ config, db, onStatement: (s) => sink.statements?.push(s) });
  await app.ready();
  return { app, db, sink };
}

export async function one(db, text, values = []) {
  return (await db.pool.query(text, values)).rows[0];
}

export async function defineScenarios(app, db, meta) {
  const mid = await one(db, 'SELECT (min(id) + max(id)) / 2 AS id FROM events');
  const event = await one(
    db,
    `SELECT e.public_id FROM events e WHERE e.active AND e.id >= $1
        AND EXISTS (SELECT 1 FROM event_artists ea WHERE ea.event_id = e.id)
        AND EXISTS (SELECT 1 FROM event_venues ev WHERE ev.event_id = e.id)
      ORDER BY e.id LIMIT 1`,
    [mid.id],
  );
  const venueMid = await one(db, 'SELECT (min(id) + max(id)) / 2 AS id FROM venues');
  const venue = await one(db, 'SELECT public_id FROM venues WHERE active AND id >= $1 ORDER BY id LIMIT 1', [venueMid.id]);
  // A rare name term: the full name of one "<headliner> live at <venue>" Event.
  const rare = await one(
    db,
    `SELECT name_lower FROM events WHERE active AND id >= $1 AND name_lower LIKE '% live at %' AND length(name_lower) <= 60 ORDER BY id LIMIT 1`,
    [mid.id],
  );
  const common = 'tour';
  const city = 'london';
  const anchor = meta.anchor_date ?? new Date().toISOString().slice(0, 10);
  const addDays = (d, n) => new Date(Date.parse(`${d}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
  const since = `${Number(anchor.slice(0, 4)) - 1}-06-01T00:00:00Z`;

  // The first page, its ETag and its next cursor; the deep cursor is the position of the 60th
  // Event from the end of the default ordering, sealed with the first page's fingerprint.
  const first = await app.inject({ method: 'GET', url: '/v1/events' });
  if (first.statusCode !== 200) throw new Error(`GET /v1/events → ${first.statusCode}: ${first.body}`);
  const etag = first.headers.etag;
  const next = new URL(JSON.parse(first.body).links.next, 'http://x').searchParams.get('cursor');
  const [version, fingerprint, firstKeys] = JSON.parse(Buffer.from(next.split('.')[0], 'base64url').toString('utf8'));
  const deepRow = await one(
    db,
    `SELECT start_local_date::text AS k0, start_rank AS k1, start_key::text AS k2, public_id AS k3 FROM events
      WHERE active ORDER BY start_local_date DESC, start_rank DESC, start_key DESC, public_id DESC OFFSET 60 LIMIT 1`,
  );
  const deepKeys = [deepRow.k0, deepRow.k1, deepRow.k2, deepRow.k3].map((v, i) => (typeof firstKeys[i] === 'number' ? Number(v) : v));
  const { encodeCursor } = await dist('controls/cursor.js');
  if (version !== 1) throw new Error(`unexpected cursor version ${version}`);
  const deepCursor = encodeCursor(fingerprint, deepKeys);

  const q = (params) => `/v1/events?${new URLSearchParams(params)}`;
  const list = [
    { id: 'events-first', title: 'Events first page (defaults)', path: '/v1/events' },
    { id: 'events-deep', title: 'Events deep page (cursor 60 from the end)', path: q({ cursor: deepCursor }) },
    { id: 'name-rare', title: `nameContains rare ("${rare.name_lower}")`, path: q({ nameContains: rare.name_lower }) },
    { id: 'name-common', title: `nameContains common ("${common}")`, path: q({ nameContains: common }) },
    { id: 'city', title: `cityContains ("${city}")`, path: q({ cityContains: city }) },
    { id: 'upcoming', title: 'temporalPhaseCode=upcoming', path: q({ temporalPhaseCode: 'upcoming' }) },
    // what is on now: the Events whose span holds the request's time (docs/architecture.md#current)
    { id: 'current', title: 'temporalPhaseCode=current', path: q({ temporalPhaseCode: 'current' }) },
    {
      id: 'date-range',
      title: 'startLocalDate range (30 days)',
      path: q({ startLocalDateGte: addDays(anchor, 30), startLocalDateLt: addDays(anchor, 60) }),
    },
    { id: 'feed', title: 'feed: sort=updatedAt&updatedSince (fields=name,schedule,updatedAt)', path: q({ sort: 'updatedAt', fields: 'name,schedule,updatedAt', updatedSince: since }) },
    {
      id: 'fields-include',
      title: 'fields=…,links,ticketLinks&include=artists,venues',
      path: q({ fields: 'name,schedule,artists,venues,links,ticketLinks', include: 'artists,venues' }),
    },
    { id: 'conditional-304', title: 'conditional request (304)', path: '/v1/events', headers: { 'if-none-match': etag }, status: 304 },
    { id: 'event-detail', title: 'Event detail', path: `/v1/events/${event.public_id}` },
    { id: 'event-artists', title: "an Event's artists route", path: `/v1/events/${event.public_id}/artists` },
    // extension "near a place": a dense city (London) and a sparse one (Santiago)
    { id: 'near-dense-upcoming', title: 'near London + temporalPhaseCode=upcoming', path: q({ near: '51.5072,-0.1276', temporalPhaseCode: 'upcoming' }) },
    { id: 'near-sparse-upcoming', title: 'near Santiago + temporalPhaseCode=upcoming', path: q({ near: '-33.4489,-70.6693', temporalPhaseCode: 'upcoming' }) },
    { id: 'venues-near-distance', title: 'Venues near London by distance', path: `/v1/venues?${new URLSearchParams({ near: '51.5072,-0.1276', sort: 'distance' })}` },
    { id: 'venues-first', title: 'Venues first page', path: '/v1/venues' },
    { id: 'venue-detail', title: 'Venue detail', path: `/v1/venues/${venue.public_id}` },
  ].map((s) => ({ status: 200, headers: {}, ...s }));
  const filter = opt.only ? new RegExp(opt.only) : null;
  return {
    firstBody: first.body,
    scenarios: list.filter((s) => !filter || filter.test(s.id) || s.id === 'events-first'),
    params: { event: event.public_id, venue: venue.public_id, rare: rare.name_lower, common, city, since, anchor },
  };
}

export async function capture(app, sink, scenario) {
  // the statements of a request after the first: what the server issues in its steady state (a
  // one-term search asks the planner for its shape once per term, queries/search-shape.ts)
  await app.inject({ method: 'GET', url: scenario.path, headers: scenario.headers });
  sink.statements = [];
  const res = await app.inject({ method: 'GET', url: scenario.path, headers: scenario.headers });
  const statements = sink.statements;
  sink.statements = null;
  if (res.statusCode !== scenario.status) throw new Error(`${scenario.id}: GET ${scenario.path} → ${res.statusCode} (expected ${scenario.status}): ${res.body.slice(0, 300)}`);
  let items = null;
  try {
    const body = JSON.parse(res.body);
    items = Array.isArray(body.data) ? body.data.length : body.data ? 1 : null;
  } catch {}
  return { statements, bytes: res.rawPayload.length, items };
}

/** The scenario's SQL through `pg` alone: statements in sequence, per-request total time. */
/**
 * Runs a statement as the server does: those it prepares (Statement.stablePlan, PostgreSQL only)
 * are named, so PostgreSQL keeps a generic plan after its five custom plans.
 */
export function asServer(s) {
  const name = s.stablePlan && ENGINE === 'postgres' ? preparedNames.nameOf(s.text) : undefined;
  return name ? { name, text: s.text, values: s.values } : { text: s.text, values: s.values };
}

export async function timeRawSql(pool, statements, seconds = 1.5, maxIterations = 400) {
  for (let i = 0; i < 6; i++) for (const s of statements) await pool.query(asServer(s));
  const times = [];
  const until = performance.now() + seconds * 1000;
  while (times.length < maxIterations && (performance.now() < until || times.length < 20)) {
    const t = performance.now();
    for (const s of statements) await pool.query(asServer(s));
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), n: times.length };
}

export function seqScans(node, found = []) {
  if (node['Node Type'] === 'Seq Scan') found.push(node['Relation Name']);
  for (const child of node.Plans ?? []) seqScans(child, found);
  return found;
}

/**
 * The plan the server gets: a prepared statement (already executed by timeRawSql on the same
 * single connection) is explained through EXECUTE, showing the generic plan PostgreSQL chose.
 */
export async function explain(pool, statement) {
  const { name } = asServer(statement);
  const target = name
    ? { text: `EXECUTE ${name}${statement.values.length ? `(${statement.values.map((v) => pg.escapeLiteral(String(prepareValue(v)))).join(', ')})` : ''}`, values: [] }
    : { text: statement.text, values: statement.values };
  const json = (await pool.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${target.text}`, target.values)).rows[0]['QUERY PLAN'][0];
  const text = (await pool.query(`EXPLAIN (ANALYZE, BUFFERS) ${target.text}`, target.values)).rows.map((r) => r['QUERY PLAN']).join('\n');
  const scans = seqScans(json.Plan);
  return { name: statement.name, text, executionMs: json['Execution Time'], seqScans: scans, eventsSeqScan: scans.includes('events') };
}


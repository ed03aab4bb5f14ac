/**
 * The client and sync suites' world: a generated catalogue (Venues, Artists, Events with
 * memberships, no explicit markers, so the importer stamps every change with the import time),
 * a real server over PGlite, a contract-checking fetch for the client, and a mutable catalogue
 * that tests re-import between requests.
 */
import { Readable } from 'node:stream';
import { importCatalogue } from '../../src/catalogue/importer.js';
import type { CatalogueDocument, EventInput, VenueInput } from '../../src/catalogue/document.js';
import { createClient, type ClientOptions } from '../../src/client/index.js';
import { openTestDatabase, startServer, type EngineUnderTest, type TestDatabase, type TestServer } from '../helper.js';
import { checkResponse } from '../contract/validate.js';

export const pid = (prefix: string, n: number) => `${prefix}${String(n).padStart(12 - prefix.length, '0')}`;
export const EV = (n: number) => pid('Ev', n);
export const VE = (n: number) => pid('Ve', n);
export const AR = (n: number) => pid('Ar', n);

/** A catalogue as maps, so tests can edit, add and remove entities and re-import it. */
export class MutableCatalogue {
  readonly venues = new Map<string, VenueInput>();
  readonly events = new Map<string, EventInput>();

  constructor(events: number, venues: number) {
    for (let v = 1; v <= venues; v++) this.venues.set(VE(v), venue(v));
    for (let e = 1; e <= events; e++) this.events.set(EV(e), event(e, venues));
  }

  /** Removes a Venue and every Event membership that names it. */
  removeVenue(id: string): void {
    this.venues.delete(id);
    for (const e of this.events.values()) e.venueIds = (e.venueIds ?? []).filter((v) => v !== id);
  }

  document(): CatalogueDocument {
    return {
      artists: [1, 2, 3].map((n) => ({ publicId: AR(n), slug: `artist-${n}`, name: `Artist ${n}` })),
      venues: [...this.venues.values()],
      events: [...this.events.values()],
    };
  }
}

function venue(v: number): VenueInput {
  return {
    publicId: VE(v),
    slug: `venue-${v}`,
    name: `Venue ${String(v).padStart(3, '0')}`,
    statusCode: 'operational',
    capacity: 100 + v,
    address: { formattedAddress: `${v} Main Street`, locality: `City ${v % 4}`, countryName: 'Germany', countryCode: 'DE' },
    links: [{ url: `https://venue.example/${v}`, label: null }],
  };
}

function event(e: number, venues: number): EventInput {
  const day = String((e % 28) + 1).padStart(2, '0');
  return {
    publicId: EV(e),
    slug: `event-${e}`,
    name: `Event ${e}`,
    administrativeStateCode: 'scheduled',
    schedule: { referenceTimeZoneId: 'Europe/Berlin', start: { precision: 'date', localDate: `2026-03-${day}` } },
    artistIds: [AR((e % 3) + 1)],
    venueIds: [VE((e % venues) + 1)],
    links: [{ url: `https://event.example/${e}`, label: 'home' }],
  };
}

export interface ClientWorld {
  readonly t: TestDatabase;
  readonly server: TestServer;
  readonly catalogue: MutableCatalogue;
  /** Re-imports the catalogue with --replace (what is absent is removed). */
  reimport(): Promise<void>;
  close(): Promise<void>;
}

export async function openClientWorld(engine: EngineUnderTest, events = 40, venues = 12): Promise<ClientWorld> {
  const t = await openTestDatabase(engine);
  const catalogue = new MutableCatalogue(events, venues);
  const reimport = async () => {
    await importCatalogue(t.db, Readable.from([JSON.stringify(catalogue.document())]), { replace: true });
  };
  await reimport();
  const server = await startServer(t.db);
  return {
    t,
    server,
    catalogue,
    reimport,
    async close() {
      await server.close();
      await t.drop();
    },
  };
}

/** A fetch that holds every response to the contract (openapi.json) before the client sees it. */
export function contractFetch(inner: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const res = await inner(input, init);
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    await checkResponse(init?.method ?? 'GET', `${url.pathname}${url.search}`, res);
    return res;
  };
}

/** Everything the server holds now, read with a plain client (every field, sort=updatedAt). */
export async function serverState(base: string, fields: { events: string; venues: string }) {
  const client = createClient({ baseUrl: base, fetch: contractFetch(), etagCacheSize: 0 });
  const read = async (path: '/v1/events' | '/v1/venues', f: string) => {
    const map = new Map<string, Record<string, unknown>>();
    for await (const item of client.items(path, { query: { sort: 'updatedAt', fields: f, limit: 50 } })) map.set(item.publicId, item as Record<string, unknown>);
    return map;
  };
  return { events: await read('/v1/events', fields.events), venues: await read('/v1/venues', fields.venues) };
}

export function clientOptions(extra: Partial<ClientOptions> = {}): Omit<ClientOptions, 'baseUrl'> {
  return { fetch: contractFetch(), ...extra };
}

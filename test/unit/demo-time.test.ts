/**
 * The demo generator's local-time conversion (src/catalogue/demo/time.ts `instantOf`) remembers
 * each zone's offsets per week and asks Intl as little as it can; the instants must be the ones
 * asking Intl at every conversion gives: across the changes of offset of zones with summer time
 * on either hemisphere, half-hour and 45-minute offsets and changes, Morocco's two changes around
 * Ramadan, and zones Intl does not know (treated as UTC).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Random } from '../../src/catalogue/demo/random.js';
import { addDays, instantOf, isoSeconds } from '../../src/catalogue/demo/time.js';

const formats = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset in minutes at `ms`, asked of Intl each time. */
function offsetAt(ms: number, zone: string): number {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit',
    });
    formats.set(zone, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  const local = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute));
  return Math.round((local - Math.floor(ms / 60_000) * 60_000) / 60_000);
}

/** The definition: the offset at the local time read as UTC, then at the instant that gives. */
function expected(date: string, time: string, zone: string, withOffset: boolean): string {
  const guess = Date.parse(`${date}T${time}:00Z`);
  let offset = 0;
  try {
    offset = offsetAt(guess - offsetAt(guess, zone) * 60_000, zone);
  } catch {
    offset = 0;
  }
  if (!withOffset) return `${new Date(guess - offset * 60_000).toISOString().slice(0, 19)}Z`;
  const abs = Math.abs(offset);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date}T${time}:00${offset < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

const ZONES = [
  'Europe/Paris', 'America/New_York', 'America/Sao_Paulo', 'Australia/Lord_Howe', 'Asia/Kolkata', 'Asia/Kathmandu',
  'Pacific/Chatham', 'Africa/Casablanca', 'America/St_Johns', 'UTC', 'Mars/Olympus_Mons',
];
const TIMES = ['00:00', '00:30', '01:59', '02:00', '02:30', '03:00', '03:15', '12:00', '23:59'];

test('instantOf gives what asking Intl at every conversion gives, around every change of offset', () => {
  let checked = 0;
  for (const zone of ZONES) {
    // every day of two years (a week's cache filled in any order), then a day every 11 up to 2035
    const days: string[] = [];
    for (let d = '2024-01-01'; d < '2026-01-01'; d = addDays(d, 1)) days.push(d);
    for (let d = '2026-01-01'; d < '2036-01-01'; d = addDays(d, 11)) days.push(d);
    days.reverse(); // later weeks first: the next week's start is then already known
    for (const date of days) {
      for (const time of TIMES) {
        for (const withOffset of [false, true]) {
          assert.equal(instantOf(date, time, zone, withOffset), expected(date, time, zone, withOffset), `${zone} ${date} ${time}`);
          checked++;
        }
      }
    }
  }
  assert.ok(checked > 100_000);
});

test('isoSeconds is toISOString up to the seconds, for every second of a day, across years and outside four-digit years', () => {
  const at = (ms: number) => assert.equal(isoSeconds(ms), new Date(ms).toISOString().slice(0, 19), String(ms));
  const day = Date.UTC(2026, 2, 29);
  for (let s = 0; s < 86_400; s++) at(day + s * 1000 + (s % 1000));
  // instants spread over 0 … 9999-12-31, from the demo's own seeded generator
  const r = new Random('isoSeconds');
  for (let i = 0; i < 20_000; i++) at(r.int(0, 2_932_896) * 86_400_000 + r.int(0, 86_399_999));
  for (const edge of [0, 999, 1000, -1, -86_400_000, Date.UTC(9999, 11, 31, 23, 59, 59, 999), Date.UTC(10_000, 0, 1), Date.UTC(1969, 11, 31, 23, 59, 59)]) at(edge);
});

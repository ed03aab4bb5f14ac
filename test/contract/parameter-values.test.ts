/**
 * The documented parameter schemas tell the truth about the values each route accepts. For
 * every operation and every documented query parameter, a pool of values (sampled from the
 * parameter's own enum, members and bounds, plus values of every other format) is sent to the
 * server and checked with the parameter's schema as committed in openapi.json (ajv, as a client
 * would):
 *
 * - the schema never refuses a value the server accepts;
 * - the server refuses a value the schema accepts only for a rule JSON Schema cannot express,
 *   named below (HAND_WRITTEN): whether a date exists, lengths after trimming, duplicate
 *   members, a cursor the server did not issue, the range of radiusKm, sort=distance without
 *   near; enums, publicIds, country codes and limit are
 *   exact;
 * - every parameter has a sampled value both accept and one both refuse.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { OPERATIONS } from '../../src/http/openapi.js';
import { DATE_SCHEMA, QUERY_INSTANT_SCHEMA, TERM_SCHEMA, type ParameterSpec } from '../../src/controls/parameter-schemas.js';
import { engines, serveForSuite } from '../helper.js';

const engine = engines()[0]!; // what a parameter accepts does not depend on the database engine
const SOME_ID = 'aaaaaaaaaaaa';
const committed = JSON.parse(readFileSync('openapi.json', 'utf8'));
const ajv = new Ajv2020({ strict: true });

/** Values of every documented format, valid and not, whatever the parameter. */
const POOL = [
  'x', '0', 'null', '%', '_', ' ', '  padded  ', 'a.b', '-1', 'é', '\u{1F600}',
  'Ab0123456789', SOME_ID, 'Ab01234567890', 'Ab012345678-', 'Äb0123456789',
  'FR', 'fr', 'FRA',
  '2024-02-29', '2025-02-30', '2023-02-29', '0000-01-01', '0001-01-01', '9999-12-31', '2025-13-01', '2025-1-01', '2025-07-01 ',
  '2025-07-01T10:00:00Z', '2025-07-01T10:00:00.123456Z', '2025-07-01T10:00:00.1234567Z', '2025-07-01T24:00:00Z',
  '2025-07-01T10:00Z', '2025-07-01T10:00:00+02:00', '2025-02-30T00:00:00Z', '2024-02-29T23:59:59.999999Z',
  '52.52,13.405', '-90,180', '90.1,0', '1, 2', '1.1234567,2', '25', '500', '500.5', '0.000001', '1e2',
  'x'.repeat(200), 'x'.repeat(201), ` ${'y'.repeat(200)} `, '\u{1F600}'.repeat(200), '\u{1F600}'.repeat(201), 'z'.repeat(1025),
];

/** Values sampled from the parameter's own schema: its literals, members or bounds, and near misses. */
function samplesOf(spec: ParameterSpec): string[] {
  const schema = spec.schema as { anyOf?: { const: string }[]; const?: string; minimum?: number; maximum?: number; default?: number };
  const literals = schema.anyOf?.map((s) => s.const) ?? (schema.const === undefined ? [] : [schema.const]);
  if (literals.length > 0) return literals.flatMap((c) => [c, `${c}x`, c.toUpperCase(), ` ${c}`]);
  if (schema.minimum !== undefined && schema.maximum !== undefined) {
    const { minimum: min, maximum: max } = schema;
    return [min, max, schema.default ?? min, min - 1, max + 1].map(String).concat([`0${max}`, `+${min}`, '1e1', `${max}.0`]);
  }
  if ('members' in spec) {
    const members = spec.members as readonly string[];
    const [a, b] = [members[0]!, members[members.length - 1]!];
    return [...members, members.join(','), ` ${b} , ${a} `, `${a},${a}`, `${a}, ${a}`, `${a},`, `,${a}`, `${a},,${b}`, `${a}.x`, `${a}x`, a.toUpperCase()];
  }
  return [];
}

/** Other parameters a value needs to be read on its own (rules across parameters). */
const COMPANIONS: Record<string, string> = { updatedSince: 'sort=updatedAt&fields=updatedAt', editionId: `seriesId=${SOME_ID}`, radiusKm: 'near=1,2' };

const codePoints = (s: string) => [...s].length;
function dateExists(date: string): boolean {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const t = new Date(Date.UTC(2000, m - 1, d));
  t.setUTCFullYear(y);
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

/** Why the server may refuse a value its schema accepts: the rules a schema cannot express. */
function handWritten(spec: ParameterSpec, value: string): string | null {
  if ('members' in spec) {
    const members = value.split(',').map((m) => m.trim());
    return new Set(members).size < members.length ? 'duplicate members' : null;
  }
  if (spec.schema === TERM_SCHEMA) return codePoints(value.trim()) > 200 ? 'over 200 characters after trimming' : null;
  if (spec.schema === DATE_SCHEMA) return dateExists(value) ? null : 'no such day';
  if (spec.schema === QUERY_INSTANT_SCHEMA) return dateExists(value.slice(0, 10)) ? null : 'no such day';
  if (spec.name === 'cursor') return 'a cursor must be one the server issued';
  if (spec.name === 'radiusKm') return Number(value) > 0 && Number(value) <= 500 ? null : 'the range of a number given as text';
  if (spec.name === 'sort' && value === 'distance') return 'distance requires near';
  return null;
}

/**
 * The value a client's schema check sees: query text as is, or for an integer schema the integer
 * whose serialization the text is (a text that serializes no integer is no integer at all).
 */
function typed(schema: { type?: string }, text: string): unknown {
  if (schema.type !== 'integer') return text;
  const n = Number(text);
  return Number.isInteger(n) && String(n) === text ? n : text;
}

function documentedSchema(path: string, name: string): { type?: string } {
  const templated = path.replace(/:([A-Za-z]+)/g, '{$1}');
  const doc = committed.paths[templated].get.parameters.find((p: { name: string; in: string }) => p.name === name && p.in === 'query');
  assert.ok(doc, `${path}: ${name} is documented`);
  return doc.schema;
}

describe('documented parameter schemas = the values each route accepts', () => {
  const suite = serveForSuite(engine);

  for (const op of OPERATIONS.filter((o) => o.parameters.some((p) => p.in === 'query'))) {
    it(op.path, async () => {
      const path = op.path.replace(/:[A-Za-z]+/g, SOME_ID);
      for (const spec of op.parameters.filter((p) => p.in === 'query')) {
        const schema = documentedSchema(op.path, spec.name);
        const check = ajv.compile(schema);
        const verdicts = { both: 0, neither: 0 };
        for (const value of new Set([...samplesOf(spec), ...POOL])) {
          const companion = COMPANIONS[spec.name];
          const query = `${spec.name}=${encodeURIComponent(value)}${companion ? `&${companion}` : ''}`;
          const res = await suite.server.json(`${path}?${query}`);
          const where = `${op.path}?${query.slice(0, 120)}`;
          assert.notEqual(res.status, 500, where);
          const refusal = res.status === 400 ? res.body.error.details.find((d: { parameter: string }) => d.parameter === spec.name) : undefined;
          const serverAccepts = refusal === undefined;
          const schemaAccepts = check(typed(schema, value)) === true;
          if (serverAccepts) assert.ok(schemaAccepts, `${where}: the server accepts it, its documented schema refuses it`);
          if (schemaAccepts && !serverAccepts) {
            assert.ok(handWritten(spec, value), `${where}: the schema accepts it, the server refuses it (${refusal.message}) for no documented reason`);
          }
          if (serverAccepts && schemaAccepts) verdicts.both++;
          if (!serverAccepts && !schemaAccepts) verdicts.neither++;
        }
        if (spec.name !== 'cursor') assert.ok(verdicts.both > 0, `${op.path} ${spec.name}: no sampled value is accepted`);
        assert.ok(verdicts.neither > 0, `${op.path} ${spec.name}: no sampled value is refused`);
      }
    });
  }
});

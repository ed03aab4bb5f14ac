/**
 * Named query values → checked values, with the refusals every route shares (spec: Endpoints,
 * "unknown parameters, repeated scalar parameters, empty values, duplicate comma-separated
 * members, dotted paths and unsupported values return 400 invalid_query before any read").
 *
 * A reader is built from its route's parameter specs (controls/parameter-schemas.ts): their
 * names are the parameters the route accepts, and every value is checked by its spec's schema,
 * compiled once with TypeBox's TypeCompiler. What a schema cannot express is done here by hand
 * and says so: repetition and emptiness (the raw query keeps `a=` apart from `a` and repeated
 * keys), the digits-only spelling of an integer, and unique comma-separated members.
 */
import type { Static, TInteger, TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { InvalidQuery, type ErrorDetail } from './errors.js';
import type { CsvParameterSpec, ParameterSpec } from './parameter-schemas.js';
import type { RawQuery } from './query-string.js';

const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>();

/** Whether `schema` accepts `value`; each schema is compiled on first use and kept. */
export function schemaAccepts(schema: TSchema, value: unknown): boolean {
  let check = compiled.get(schema);
  if (check === undefined) {
    check = TypeCompiler.Compile(schema);
    compiled.set(schema, check);
  }
  return check.Check(value);
}

/**
 * The first problem of a comma-separated value, member by member (empty, dotted, unsupported,
 * duplicate), for the 400 message; null when there is none. The schema decides whether the list
 * is acceptable; this names what is wrong, and is the only check of uniqueness, which a pattern
 * cannot express.
 */
function csvProblem(value: string, members: readonly string[]): string | null {
  const seen = new Set<string>();
  for (const part of value.split(',')) {
    const member = part.trim();
    if (member === '') return 'must not contain empty members';
    if (member.includes('.')) return `dotted paths are not supported ("${member.slice(0, 64)}")`;
    if (!members.includes(member)) return `unsupported member "${member.slice(0, 64)}" (accepted: ${members.join(', ')})`;
    if (seen.has(member)) return `duplicate member "${member}"`;
    seen.add(member);
  }
  return null;
}

/**
 * A parameter reader that collects every problem, so one 400 names each offending parameter.
 * Each accessor returns `undefined` when the parameter is absent or invalid.
 */
export class ParameterReader {
  readonly details: ErrorDetail[] = [];
  private readonly accepted: ReadonlySet<string>;
  private readonly read = new Set<string>();

  /**
   * `specs` are the route's documented query parameters: the names it accepts. `refused` names
   * are recognized only for the route to refuse them with its own message (member routes and
   * `include`, decisions §2).
   */
  constructor(
    private readonly raw: RawQuery,
    specs: readonly ParameterSpec[],
    private readonly refused: readonly string[] = [],
  ) {
    const names = specs.filter((s) => s.in === 'query').map((s) => s.name);
    this.accepted = new Set(names);
    for (const name of raw.keys()) {
      if (this.accepted.has(name) || refused.includes(name)) continue;
      const message = name.includes('.')
        ? 'dotted paths are not supported'
        : `unknown parameter (accepted: ${names.length > 0 ? names.join(', ') : 'none'})`;
      this.fail(name === '' ? '(empty name)' : name.slice(0, 64), message);
    }
  }

  fail(parameter: string, message: string): undefined {
    this.details.push({ parameter, message });
    return undefined;
  }

  has(name: string): boolean {
    return this.raw.has(name);
  }

  /** The raw values of a parameter, for rules across parameters (nothing is checked or read). */
  peek(name: string): readonly string[] | undefined {
    return this.raw.get(name);
  }

  /** A scalar: present once, not empty (the query-string rules, by hand). */
  scalar(spec: ParameterSpec): string | undefined {
    if (!this.accepted.has(spec.name)) throw new Error(`parameter ${spec.name} is read but not among the route's specs`);
    this.read.add(spec.name);
    const values = this.raw.get(spec.name);
    if (values === undefined) return undefined;
    if (values.length > 1) return this.fail(spec.name, 'must not be repeated');
    const value = values[0] as string;
    if (value === '') return this.fail(spec.name, 'must not be empty');
    return value;
  }

  /** A scalar string that its spec's schema accepts (patterns, literal unions, lengths). */
  value<S extends TSchema & { static: string }>(spec: ParameterSpec<S>): Static<S> | undefined {
    const text = this.scalar(spec);
    if (text === undefined) return undefined;
    return schemaAccepts(spec.schema, text) ? (text as Static<S>) : this.fail(spec.name, spec.invalid);
  }

  /**
   * An integer. The query carries text, so its spelling is checked by hand (digits only, no
   * sign, no leading zero, as the schema's description says); the number is then checked by the
   * schema (minimum, maximum).
   */
  integer(spec: ParameterSpec<TInteger>): number | undefined {
    const text = this.scalar(spec);
    if (text === undefined) return undefined;
    const n = /^[1-9][0-9]*$/.test(text) ? Number(text) : Number.NaN;
    return schemaAccepts(spec.schema, n) ? n : this.fail(spec.name, spec.invalid);
  }

  /**
   * A comma-separated list that the spec's schema accepts (members of the spec's set, none
   * empty, whitespace around members ignored) and, by hand, without duplicates. Returns the
   * members in the spec's order (CSV order is irrelevant).
   */
  csv<T extends string>(spec: CsvParameterSpec<T>): T[] | undefined {
    const text = this.scalar(spec);
    if (text === undefined) return undefined;
    const problem = csvProblem(text, spec.members);
    if (!schemaAccepts(spec.schema, text)) return this.fail(spec.name, problem ?? spec.invalid);
    if (problem !== null) return this.fail(spec.name, problem);
    const given = new Set(text.split(',').map((m) => m.trim()));
    return spec.members.filter((m) => given.has(m));
  }

  /**
   * Throws the 400 when anything failed. A parameter that was given and accepted but that no
   * parser read is a programming error (documented, yet ignored), not the client's.
   */
  finish(message = 'The query is invalid.'): void {
    if (this.details.length > 0) throw new InvalidQuery(message, this.details);
    for (const name of this.raw.keys()) {
      if (!this.read.has(name) && !this.refused.includes(name)) throw new Error(`parameter ${name} is accepted but never read`);
    }
  }
}

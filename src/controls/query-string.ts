/**
 * Raw query string → named values, with the refusals every route shares (spec: Endpoints,
 * "unknown parameters, repeated scalar parameters, empty values, duplicate comma-separated
 * members, dotted paths and unsupported values return 400 invalid_query before any read").
 *
 * Written here rather than using Fastify's parser because the contract needs what generic
 * parsers hide: repeated keys, the difference between `a=` and `a`, and malformed escapes.
 */
import { invalidQuery, type ErrorDetail } from '../http/errors.js';

export const MAX_QUERY_PARAMETERS = 32;

export type RawQuery = ReadonlyMap<string, readonly string[]>;

function decode(component: string): string | null {
  try {
    return decodeURIComponent(component.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/** Splits and decodes; refuses malformed escapes, NUL characters and too many parameters. */
export function parseQueryString(search: string): RawQuery {
  const params = new Map<string, string[]>();
  if (search === '') return params;
  const details: ErrorDetail[] = [];
  let count = 0;
  for (const segment of search.split('&')) {
    if (segment === '') continue;
    count++;
    const eq = segment.indexOf('=');
    const rawName = eq === -1 ? segment : segment.slice(0, eq);
    const rawValue = eq === -1 ? '' : segment.slice(eq + 1);
    const name = decode(rawName);
    const value = decode(rawValue);
    if (name === null) {
      details.push({ parameter: rawName.slice(0, 64), message: 'the parameter name is not valid percent-encoded UTF-8' });
      continue;
    }
    if (value === null) {
      details.push({ parameter: name.slice(0, 64), message: 'the value is not valid percent-encoded UTF-8' });
      continue;
    }
    if (name.includes('\0') || value.includes('\0')) {
      details.push({ parameter: name.replace(/\0/g, '\\0').slice(0, 64), message: 'NUL characters are not allowed' });
      continue;
    }
    const list = params.get(name);
    if (list) list.push(value);
    else params.set(name, [value]);
  }
  if (count > MAX_QUERY_PARAMETERS) {
    details.unshift({ parameter: '*', message: `at most ${MAX_QUERY_PARAMETERS} query parameters are accepted` });
  }
  if (details.length > 0) throw invalidQuery('The query string is malformed.', details);
  return params;
}

/** The query part of a raw request URL (without `?`), or ''. */
export function searchOf(rawUrl: string): string {
  const q = rawUrl.indexOf('?');
  return q === -1 ? '' : rawUrl.slice(q + 1);
}

/** The path part of a raw request URL. */
export function pathOf(rawUrl: string): string {
  const q = rawUrl.indexOf('?');
  return q === -1 ? rawUrl : rawUrl.slice(0, q);
}

/**
 * A parameter reader that collects every problem, so one 400 names each offending parameter.
 * Each accessor returns `undefined` when the parameter is absent or invalid.
 */
export class ParameterReader {
  readonly details: ErrorDetail[] = [];

  constructor(private readonly raw: RawQuery, allowed: readonly string[]) {
    for (const name of raw.keys()) {
      if (allowed.includes(name)) continue;
      const message = name.includes('.')
        ? 'dotted paths are not supported'
        : `unknown parameter (accepted: ${allowed.length > 0 ? allowed.join(', ') : 'none'})`;
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

  /** A scalar: present once, not empty. */
  scalar(name: string): string | undefined {
    const values = this.raw.get(name);
    if (values === undefined) return undefined;
    if (values.length > 1) return this.fail(name, 'must not be repeated');
    const value = values[0] as string;
    if (value === '') return this.fail(name, 'must not be empty');
    return value;
  }

  /** A scalar from a fixed set of values. */
  oneOf<T extends string>(name: string, allowed: readonly T[]): T | undefined {
    const value = this.scalar(name);
    if (value === undefined) return undefined;
    if (!(allowed as readonly string[]).includes(value)) {
      return this.fail(name, `unsupported value (accepted: ${allowed.join(', ')})`);
    }
    return value as T;
  }

  /** A scalar checked by a pattern or predicate, with the message to give when it fails. */
  matching(name: string, test: (value: string) => boolean, message: string): string | undefined {
    const value = this.scalar(name);
    if (value === undefined) return undefined;
    return test(value) ? value : this.fail(name, message);
  }

  /**
   * A comma-separated list of unique members of `allowed`; whitespace around members ignored.
   * Returns the members in the order of `allowed` (CSV order is irrelevant).
   */
  csv<T extends string>(name: string, allowed: readonly T[]): T[] | undefined {
    const value = this.scalar(name);
    if (value === undefined) return undefined;
    const seen = new Set<string>();
    for (const part of value.split(',')) {
      const member = part.trim();
      if (member === '') return this.fail(name, 'must not contain empty members');
      if (member.includes('.')) return this.fail(name, `dotted paths are not supported ("${member.slice(0, 64)}")`);
      if (!(allowed as readonly string[]).includes(member)) {
        return this.fail(name, `unsupported member "${member.slice(0, 64)}" (accepted: ${allowed.join(', ')})`);
      }
      if (seen.has(member)) return this.fail(name, `duplicate member "${member}"`);
      seen.add(member);
    }
    return allowed.filter((m) => seen.has(m));
  }

  /** Throws the 400 when anything failed. */
  finish(message = 'The query is invalid.'): void {
    if (this.details.length > 0) throw invalidQuery(message, this.details);
  }
}

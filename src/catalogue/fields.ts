/**
 * Field readers for the structural validation of one entity. Each reader reports problems as
 * `path: message` to the Checker and returns the normalized value (or a harmless placeholder
 * when the value is wrong: the entity is then marked invalid and never written).
 */
import type { JsonObject, JsonValue, UrlEntry, DigitalLocation, DigitalLocationKindCode } from './document.js';
import { DIGITAL_LOCATION_KIND_CODES } from './document.js';
import { isLocalDate, isPublicId, isStorableText } from './formats.js';

export type Obj = Record<string, unknown>;

export const MESSAGES = {
  required: 'is required',
  unknownKey: 'unknown key',
  object: 'must be an object',
  objectOrNull: 'must be an object or null',
  array: 'must be an array',
  string: 'must be a string',
  stringOrNull: 'must be a string or null',
  text: 'must not contain NUL characters or unpaired surrogates',
  boolean: 'must be a boolean',
  integerOrNull: 'must be an integer or null',
  number: 'must be a finite number',
  publicId: 'not a valid publicId (12 characters of 0-9A-Za-z)',
  publicIdOrNull: 'not a valid publicId (12 characters of 0-9A-Za-z) or null',
  date: 'not a valid date',
  dateOrNull: 'not a valid date or null',
} as const;

export function join(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path ? `${path}.${key}` : key;
}

export function isPlainObject(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export class Checker {
  ok = true;
  constructor(private readonly sink: (path: string, message: string) => void) {}

  problem(path: string, message: string): void {
    this.ok = false;
    this.sink(path, message);
  }

  /** Reports unknown keys of an object whose type was already checked. */
  keys(o: Obj, path: string, allowed: ReadonlySet<string>): void {
    for (const key of Object.keys(o)) if (!allowed.has(key)) this.problem(join(path, key), MESSAGES.unknownKey);
  }

  /** A nested object (required, or nullable when `nullable`); undefined when absent/null/wrong. */
  object(o: Obj, key: string, path: string, allowed: ReadonlySet<string>, nullable: boolean): Obj | null | undefined {
    const value = o[key];
    if (value === undefined || value === null) {
      if (!nullable) this.problem(join(path, key), MESSAGES.required);
      return value === null ? null : undefined;
    }
    if (!isPlainObject(value)) {
      this.problem(join(path, key), nullable ? MESSAGES.objectOrNull : MESSAGES.object);
      return undefined;
    }
    this.keys(value, join(path, key), allowed);
    return value;
  }

  // Paths are joined only for a problem: most entities have none, and a path per field was a
  // string per field per entity (a seed validates ≈ 3 million entities).
  private text(value: string, path: string, key: string): string {
    if (!isStorableText(value)) this.problem(join(path, key), MESSAGES.text);
    return value;
  }

  string(o: Obj, key: string, path: string): string {
    const value = o[key];
    if (value === undefined) this.problem(join(path, key), MESSAGES.required);
    else if (typeof value !== 'string') this.problem(join(path, key), MESSAGES.string);
    else return this.text(value, path, key);
    return '';
  }

  stringOrNull(o: Obj, key: string, path: string): string | null {
    const value = o[key];
    if (value === undefined || value === null) return null;
    if (typeof value !== 'string') {
      this.problem(join(path, key), MESSAGES.stringOrNull);
      return null;
    }
    return this.text(value, path, key);
  }

  boolean(o: Obj, key: string, path: string, fallback: boolean): boolean {
    const value = o[key];
    if (value === undefined) return fallback;
    if (typeof value !== 'boolean') {
      this.problem(join(path, key), MESSAGES.boolean);
      return fallback;
    }
    return value;
  }

  integerOrNull(o: Obj, key: string, path: string): number | null {
    const value = o[key];
    if (value === undefined || value === null) return null;
    // any JSON integer a bigint column holds (beyond 2^53 a JSON number is already rounded)
    if (typeof value !== 'number' || !Number.isInteger(value) || Math.abs(value) >= 2 ** 63) {
      this.problem(join(path, key), MESSAGES.integerOrNull);
      return null;
    }
    return value;
  }

  number(o: Obj, key: string, path: string): number {
    const value = o[key];
    if (value === undefined) this.problem(join(path, key), MESSAGES.required);
    else if (typeof value !== 'number' || !Number.isFinite(value)) this.problem(join(path, key), MESSAGES.number);
    else return value;
    return 0;
  }

  enumValue<T extends string>(o: Obj, key: string, path: string, values: readonly T[]): T {
    const value = o[key];
    if (value === undefined) this.problem(join(path, key), MESSAGES.required);
    else if (typeof value !== 'string' || !(values as readonly string[]).includes(value))
      this.problem(join(path, key), `must be one of ${values.join(', ')}`);
    else return value as T;
    return values[0] as T;
  }

  enumOrNull<T extends string>(o: Obj, key: string, path: string, values: readonly T[]): T | null {
    const value = o[key];
    if (value === undefined || value === null) return null;
    if (typeof value !== 'string' || !(values as readonly string[]).includes(value)) {
      this.problem(join(path, key), `must be one of ${values.join(', ')} or null`);
      return null;
    }
    return value as T;
  }

  /** A formatted string (date, instant…) checked by `test`; `message` names the format. */
  formatted(o: Obj, key: string, path: string, test: (v: unknown) => boolean, message: string): string {
    const value = o[key];
    if (value === undefined) this.problem(join(path, key), MESSAGES.required);
    else if (!test(value)) this.problem(join(path, key), message);
    else return value as string;
    return '';
  }

  formattedOrNull(o: Obj, key: string, path: string, test: (v: unknown) => boolean, message: string): string | null {
    const value = o[key];
    if (value === undefined || value === null) return null;
    if (!test(value)) {
      this.problem(join(path, key), message);
      return null;
    }
    return value as string;
  }

  date(o: Obj, key: string, path: string): string {
    return this.formatted(o, key, path, isLocalDate, MESSAGES.date);
  }

  dateOrNull(o: Obj, key: string, path: string): string | null {
    return this.formattedOrNull(o, key, path, isLocalDate, MESSAGES.dateOrNull);
  }

  publicId(o: Obj, key: string, path: string): string {
    return this.formatted(o, key, path, isPublicId, MESSAGES.publicId);
  }

  publicIdOrNull(o: Obj, key: string, path: string): string | null {
    return this.formattedOrNull(o, key, path, isPublicId, MESSAGES.publicIdOrNull);
  }

  /** An optional list field: absent or null → []; anything but an array is a problem (→ []). */
  private list(o: Obj, key: string, path: string): unknown[] {
    const value = o[key];
    if (value === undefined || value === null) return [];
    if (Array.isArray(value)) return value;
    this.problem(join(path, key), MESSAGES.array);
    return [];
  }

  /**
   * A list of publicId references; `unique` rejects repeated ids (membership sets). A malformed
   * entry becomes '' (keeping positions), so a partial record's references can still be checked.
   */
  publicIds(o: Obj, key: string, path: string, unique: boolean): string[] {
    const value = this.list(o, key, path);
    const ids = new Array<string>(value.length);
    for (let i = 0; i < value.length; i++) {
      const id = value[i];
      if (!isPublicId(id)) {
        this.problem(join(join(path, key), i), MESSAGES.publicId);
        ids[i] = '';
        continue;
      }
      // lists are short (at most 25 members): a scan, not a Set per list
      if (unique && ids.indexOf(id) !== -1) this.problem(join(join(path, key), i), `duplicate reference ${id}`);
      ids[i] = id;
    }
    return ids;
  }

  /** URL entries `{url, label}` (+ `kindCode` when `digital`); only the types are checked. */
  urlEntries(o: Obj, key: string, path: string, digital: false): UrlEntry[];
  urlEntries(o: Obj, key: string, path: string, digital: true): DigitalLocation[];
  urlEntries(o: Obj, key: string, path: string, digital: boolean): UrlEntry[] | DigitalLocation[] {
    const value = this.list(o, key, path);
    if (value.length === 0) return [];
    const p = join(path, key);
    const allowed = digital ? DIGITAL_KEYS : URL_KEYS;
    return value.map((entry: unknown, i) => {
      const ep = join(p, i);
      if (!isPlainObject(entry)) {
        this.problem(ep, MESSAGES.object);
        return { url: '', label: null };
      }
      this.keys(entry, ep, allowed);
      const url = this.string(entry, 'url', ep);
      const label = this.stringOrNull(entry, 'label', ep);
      if (!digital) return { url, label };
      const kindCode = this.enumValue<DigitalLocationKindCode>(entry, 'kindCode', ep, DIGITAL_LOCATION_KIND_CODES);
      return { url, label, kindCode };
    });
  }

  /** A free-form JSON object (or null), e.g. `authoring`; strings inside must be storable. */
  jsonObjectOrNull(o: Obj, key: string, path: string): JsonObject | null {
    const value = o[key];
    if (value === undefined || value === null) return null;
    const p = join(path, key);
    if (!isPlainObject(value)) {
      this.problem(p, MESSAGES.objectOrNull);
      return null;
    }
    this.storableJson(value, p);
    return value as JsonObject;
  }

  /** Any JSON value (null when absent); strings inside must be storable. */
  json(o: Obj, key: string, path: string): JsonValue {
    const value = o[key];
    if (value === undefined) return null;
    this.storableJson(value, join(path, key));
    return value as JsonValue;
  }

  private storableJson(value: unknown, path: string): void {
    if (typeof value === 'string') {
      if (!isStorableText(value)) this.problem(path, MESSAGES.text);
    } else if (Array.isArray(value)) {
      value.forEach((v, i) => this.storableJson(v, join(path, i)));
    } else if (isPlainObject(value)) {
      for (const [k, v] of Object.entries(value)) {
        if (!isStorableText(k)) this.problem(join(path, k), MESSAGES.text);
        this.storableJson(v, join(path, k));
      }
    }
  }
}

const URL_KEYS: ReadonlySet<string> = new Set(['url', 'label']);
const DIGITAL_KEYS: ReadonlySet<string> = new Set(['url', 'label', 'kindCode']);

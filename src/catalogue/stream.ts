/**
 * Streaming reader of the catalogue document. The text goes through stream-json's tokenizer;
 * this module follows the top-level structure (one object of arrays) itself and assembles each
 * array element on its own, so memory is bounded by the largest entity, never by the document.
 * The whole text is never JSON.parse'd.
 *
 * Flow control: when the sink asks for a flush (a batch is full) the flush starts and reading
 * goes on; if the next batch fills before that flush is done, the tokenizer is paused until it
 * settles. The file stream is back-pressured through the pipe.
 */
import type { Readable } from 'node:stream';
import Parser from 'stream-json/Parser.js';
import { COLLECTIONS, type Collection } from './document.js';

export interface DocumentSink {
  /** One element of a top-level array, assembled. */
  entity(collection: Collection, index: number, value: unknown): void;
  /** A document-level problem (`document: …`). */
  problem(message: string): void;
  /** True when the sink wants `flush()` before taking more entities. */
  readonly wantsFlush: boolean;
  flush(): Promise<void>;
  /**
   * The Events' array begins, and the array of every other collection came before it (ended, so
   * no parent of an Event is read after this): the sink may merge them meanwhile (parents-first.ts).
   */
  parentsRead?(): void;
}

export interface ReadResult {
  /** False when reading stopped early (invalid JSON, not an object): later checks are moot. */
  readonly complete: boolean;
}

interface Token {
  name: string;
  value?: string;
}

type Container = Record<string, unknown> | unknown[];

/** Builds one JSON value from tokens (numbers via Number(), like JSON.parse). */
class Assembler {
  private stack: Array<{ container: Container; key: string | null }> = [];
  private current: Container | null = null;
  private key: string | null = null;
  result: unknown = undefined;
  done = false;

  begin(container: Container): void {
    this.stack = [];
    this.current = container;
    this.key = null;
    this.done = false;
    this.result = undefined;
  }

  /** Feeds one token of the element being assembled. */
  consume(t: Token): void {
    switch (t.name) {
      case 'startObject':
      case 'startArray':
        this.stack.push({ container: this.current!, key: this.key });
        this.current = t.name === 'startObject' ? {} : [];
        this.key = null;
        return;
      case 'endObject':
      case 'endArray': {
        const finished = this.current!;
        const parent = this.stack.pop();
        if (!parent) {
          this.result = finished;
          this.done = true;
          this.current = null;
          return;
        }
        this.current = parent.container;
        this.key = parent.key;
        this.add(finished);
        return;
      }
      case 'keyValue':
        this.key = t.value!;
        return;
      case 'stringValue':
        return this.add(t.value!);
      case 'numberValue':
        return this.add(Number(t.value));
      case 'nullValue':
        return this.add(null);
      case 'trueValue':
        return this.add(true);
      case 'falseValue':
        return this.add(false);
    }
  }

  private add(value: unknown): void {
    const cur = this.current!;
    if (Array.isArray(cur)) cur.push(value);
    // an own "__proto__" key must stay data (and be reported as unknown), not set the prototype
    else if (this.key === '__proto__')
      Object.defineProperty(cur, this.key, { value, enumerable: true, writable: true, configurable: true });
    else cur[this.key!] = value;
  }
}

const PRIMITIVES: Record<string, (v: string | undefined) => unknown> = {
  stringValue: (v) => v,
  numberValue: (v) => Number(v),
  nullValue: () => null,
  trueValue: () => true,
  falseValue: () => false,
};

const KNOWN = new Set<string>(COLLECTIONS);

/** Reads `input` into `sink`. Rejects only on I/O or sink failures; JSON problems go to the sink. */
export function readDocument(input: Readable, sink: DocumentSink): Promise<ReadResult> {
  return new Promise<ReadResult>((resolve, reject) => {
    const parser = new Parser({ packValues: true, streamValues: false });
    const assembler = new Assembler();
    const seen = new Set<string>();
    let level: 'start' | 'key' | 'value' | 'array' | 'end' = 'start';
    let key = '';
    let collection: Collection = 'media';
    let index = 0;
    let assembling = false;
    let skipDepth = 0;
    let pending: Promise<void> | null = null;
    let settled = false;

    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      input.unpipe(parser);
      fn();
    };
    const fail = (err: unknown) =>
      settle(() => {
        parser.destroy();
        input.destroy();
        reject(err);
      });
    const finish = (complete: boolean) => {
      const done = () => settle(() => resolve({ complete }));
      if (pending) pending.then(done, fail);
      else done();
    };
    const stopEarly = (message: string) => {
      sink.problem(message);
      finish(false);
      parser.destroy();
      input.destroy();
    };

    const handle = (t: Token) => {
      if (assembling) {
        assembler.consume(t);
        if (assembler.done) {
          assembling = false;
          sink.entity(collection, index++, assembler.result);
        }
        return;
      }
      if (skipDepth > 0) {
        if (t.name === 'startObject' || t.name === 'startArray') skipDepth++;
        else if (t.name === 'endObject' || t.name === 'endArray') skipDepth--;
        return;
      }
      switch (level) {
        case 'start':
          if (t.name !== 'startObject') return stopEarly('document: must be a JSON object');
          level = 'key';
          return;
        case 'key':
          if (t.name === 'endObject') level = 'end';
          else {
            key = t.value!;
            level = 'value';
          }
          return;
        case 'value':
          level = 'key';
          if (KNOWN.has(key) && !seen.has(key) && t.name === 'startArray') {
            seen.add(key);
            collection = key as Collection;
            index = 0;
            level = 'array';
            if (collection === 'events' && COLLECTIONS.every((c) => seen.has(c))) sink.parentsRead?.();
            return;
          }
          if (!KNOWN.has(key))
            sink.problem(`document: ${key}: unknown key (expected ${COLLECTIONS.join(', ')})`);
          else if (seen.has(key)) sink.problem(`document: ${key}: appears more than once`);
          else sink.problem(`document: ${key}: must be an array`);
          if (t.name === 'startObject' || t.name === 'startArray') skipDepth = 1;
          return;
        case 'array':
          if (t.name === 'endArray') level = 'key';
          else if (t.name === 'startObject' || t.name === 'startArray') {
            assembler.begin(t.name === 'startObject' ? {} : []);
            assembling = true;
          } else sink.entity(collection, index++, PRIMITIVES[t.name]?.(t.value));
          return;
        case 'end':
          return;
      }
    };

    // One flush may run while the tokenizer goes on filling the next batch (on PostgreSQL the
    // server works in parallel); a second full batch pauses the tokenizer until the first is done.
    let paused = false;
    const startFlush = () => {
      const p: Promise<void> = sink.flush().then(() => {
        if (pending === p) pending = null;
      });
      pending = p;
      p.catch(fail);
    };
    const maybeFlush = () => {
      if (settled || paused || !sink.wantsFlush) return;
      if (!pending) return startFlush();
      paused = true;
      parser.pause();
      pending.then(() => {
        paused = false;
        if (settled) return;
        if (sink.wantsFlush && !pending) startFlush();
        parser.resume();
      }, fail);
    };
    parser.on('data', (t: Token) => {
      if (settled) return;
      try {
        handle(t);
      } catch (err) {
        fail(err);
        return;
      }
      maybeFlush();
    });
    parser.on('end', () => finish(level === 'end'));
    parser.on('error', (err: Error) => {
      if (settled) return;
      sink.problem(`document: not valid JSON: ${err.message}`);
      finish(false);
      input.destroy(); // the rest of the input is not read
    });
    // I/O errors pass through unchanged (callers look at `code`, e.g. ENOENT)
    input.on('error', (err: Error) => fail(err));
    input.pipe(parser);
  });
}

/**
 * Feeds in-process entities (already parsed values, in document order) to `sink` with the same
 * flow control as `readDocument`: one flush may run while the next batch is built. A value is
 * given as its JSON text would parse: object keys whose value is `undefined` are left out.
 */
export async function readEntities(entities: Iterable<readonly [Collection, unknown]>, sink: DocumentSink): Promise<ReadResult> {
  const indexes = new Map<Collection, number>();
  let pending: Promise<void> | null = null;
  for (const [collection, value] of entities) {
    const index = indexes.get(collection) ?? 0;
    indexes.set(collection, index + 1);
    sink.entity(collection, index, asParsed(value));
    if (sink.wantsFlush) {
      if (pending) await pending;
      pending = sink.flush();
      pending.catch(() => {}); // awaited below or at the next batch; never left unhandled
    }
  }
  if (pending) await pending;
  return { complete: true };
}

/**
 * `value` as its JSON text would parse: object keys whose value is `undefined` left out, and
 * `undefined` array elements as null. Only what differs is copied (a `lineup seed` entity
 * usually has nothing to drop, and copying each one would cost a seed worker for nothing).
 */
export function asParsed(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      const parsed = v === undefined ? null : asParsed(v);
      if (out === null && parsed !== v) out = value.slice(0, i);
      out?.push(parsed);
    }
    return out ?? value;
  }
  const o = value as Record<string, unknown>;
  const keys = Object.keys(o);
  let out: Record<string, unknown> | null = null;
  for (let i = 0; i < keys.length; i++) {
    const v = o[keys[i]!];
    const parsed = v === undefined ? undefined : asParsed(v);
    if (out === null && (v === undefined || parsed !== v)) {
      out = {};
      for (let j = 0; j < i; j++) out[keys[j]!] = o[keys[j]!];
    }
    if (out !== null && parsed !== undefined) out[keys[i]!] = parsed;
  }
  return out ?? value;
}

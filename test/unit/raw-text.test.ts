/**
 * Text columns handed over undecoded (src/db/raw-text.ts): a DataRow's marked fields become
 * RawTexts whose bytes compare exactly as their texts do and decode to them, whatever the
 * characters; unmarked fields, NULLs and every other message are pg-protocol's, also when the
 * socket splits the messages anywhere; a RowDescription ends a result's marking. No database.
 */
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { test } from 'node:test';
import { RawText, RawTextClient, parseDataRow, rawTextParserOf } from '../../src/db/raw-text.js';
import { deepFreeze } from '../../src/text/deep-freeze.js';
import { TextMemo } from '../../src/queries/text-memo.js';

const TEXTS = ['', 'plain', '{"name":"Lady Dvořák","city":"Zürich"}', 'emoji 🎸 and ß', '\u0000nul inside', 'ÿ\u00ff\u0100'];

/** A backend message: its code, its length, then a count of parts and the parts. */
function message(code: 'D' | 'T', parts: readonly Buffer[]): Buffer {
  const count = Buffer.alloc(2);
  count.writeInt16BE(parts.length);
  const body = Buffer.concat([count, ...parts]);
  const head = Buffer.alloc(5);
  head.write(code, 0, 'latin1');
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

/** A DataRow message (code, length, then the fields), `null` as -1. */
function dataRow(fields: readonly (string | null)[]): Buffer {
  const parts = fields.map((f) => {
    if (f === null) {
      const b = Buffer.alloc(4);
      b.writeInt32BE(-1);
      return b;
    }
    const bytes = Buffer.from(f, 'utf8');
    const len = Buffer.alloc(4);
    len.writeInt32BE(bytes.length);
    return Buffer.concat([len, bytes]);
  });
  return message('D', parts);
}

/** A CommandComplete message. */
function commandComplete(tag: string): Buffer {
  const body = Buffer.from(`${tag}\0`, 'utf8');
  const head = Buffer.alloc(5);
  head.write('C', 0, 'latin1');
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

/** A RowDescription of `names`, every field of type text. */
function rowDescription(names: readonly string[]): Buffer {
  const fields = names.map((name) => {
    const meta = Buffer.alloc(18);
    meta.writeInt32BE(0, 0); // table oid
    meta.writeInt16BE(0, 4); // column
    meta.writeInt32BE(25, 6); // text
    meta.writeInt16BE(-1, 10);
    meta.writeInt32BE(-1, 12);
    meta.writeInt16BE(0, 16); // text format
    return Buffer.concat([Buffer.from(`${name}\0`, 'utf8'), meta]);
  });
  return message('T', fields);
}

test('a result’s end clears its marking: DataRows after it (none in the protocol, but never raw by mistake) are decoded', () => {
  const seen = readThrough([Buffer.concat([rowDescription(['a']), dataRow(['é']), commandComplete('SELECT 1'), dataRow(['é'])])], (state) => {
    state.raw = [true];
  });
  const values = seen.filter((m) => m.name === 'dataRow').map((m) => m.fields![0]);
  assert.ok(values[0] instanceof RawText);
  assert.equal(values[1], 'é');
});

test('parseDataRow: marked fields as RawText (decoding to their text), the others decoded, NULL as null', () => {
  const fields = [...TEXTS, null];
  const message = dataRow(fields);
  const everyOther = fields.map((_, i) => i % 2 === 0);
  const parsed = parseDataRow(message, 5, message.length - 1, everyOther);
  assert.equal(parsed.name, 'dataRow');
  assert.equal(parsed.fieldCount, fields.length);
  assert.equal(parsed.length, message.length - 1);
  parsed.fields.forEach((value: unknown, i: number) => {
    if (fields[i] === null) return assert.equal(value, null);
    if (everyOther[i]) {
      assert.ok(value instanceof RawText, `field ${i} raw`);
      assert.equal(value.text(), fields[i]);
      assert.equal(value.bytes, Buffer.from(fields[i]!, 'utf8').toString('latin1'));
    } else {
      assert.equal(value, fields[i]);
    }
  });
});

test('RawText: equal bytes exactly when the texts are equal', () => {
  const all = TEXTS.map((t) => parseDataRow(dataRow([t]), 5, 0, [true]).fields[0] as unknown as RawText);
  for (let i = 0; i < TEXTS.length; i++) {
    for (let j = 0; j < TEXTS.length; j++) assert.equal(all[i]!.bytes === all[j]!.bytes, TEXTS[i] === TEXTS[j], `${i} vs ${j}`);
    const again = parseDataRow(dataRow([TEXTS[i]!]), 5, 0, [true]).fields[0] as unknown as RawText;
    assert.equal(again.bytes, all[i]!.bytes);
    assert.equal(again.text(), TEXTS[i]);
  }
});

/** A RawTextClient's connection reading `chunks` from a stand-in socket; its messages in order. */
function readThrough(chunks: readonly Buffer[], onDescription: (raw: { raw: readonly boolean[] | null }) => void) {
  const client = new RawTextClient({});
  const connection = (client as unknown as { connection: EventEmitter & { attachListeners(s: EventEmitter): void } }).connection;
  const socket = new EventEmitter();
  connection.attachListeners(socket);
  const state = rawTextParserOf(connection)!;
  assert.ok(state, 'the connection has the raw-text parser');
  const seen: { name: string; fields?: unknown[] }[] = [];
  connection.on('rowDescription', () => onDescription(state));
  connection.on('dataRow', (m: { fields: unknown[] }) => seen.push({ name: 'dataRow', fields: m.fields }));
  connection.on('rowDescription', () => seen.push({ name: 'rowDescription' }));
  connection.on('commandComplete', () => seen.push({ name: 'commandComplete' }));
  for (const chunk of chunks) socket.emit('data', chunk);
  return seen;
}

test('a RawTextClient reads split messages: raw fields only between the marking query’s RowDescription and the next', () => {
  const rows = [TEXTS.slice(0, 3), TEXTS.slice(3, 6)];
  const stream = Buffer.concat([
    rowDescription(['own', 'other', 'stored']),
    ...rows.map((r) => dataRow(r)),
    commandComplete('SELECT 2'),
    rowDescription(['own', 'other', 'stored']), // a second result whose query marks nothing
    ...rows.map((r) => dataRow(r)),
    commandComplete('SELECT 2'),
  ]);
  // every split of the stream in two, and the stream one byte at a time; each chunk a buffer of
  // its own, as a socket hands them over (pg-protocol may write into a chunk's memory when it
  // joins the next to it: the RawTexts are copies)
  const splits: Buffer[][] = [];
  for (let at = 1; at < stream.length; at++) splits.push([Buffer.from(stream.subarray(0, at)), Buffer.from(stream.subarray(at))]);
  splits.push([...stream].map((b) => Buffer.from([b])));
  for (const chunks of splits) {
    let descriptions = 0;
    const seen = readThrough(chunks, (state) => {
      // as db/named-query.ts does for a statement with raw columns: the first result only
      if (descriptions++ === 0) state.raw = [true, false, true];
    });
    assert.deepEqual(seen.map((m) => m.name), ['rowDescription', 'dataRow', 'dataRow', 'commandComplete', 'rowDescription', 'dataRow', 'dataRow', 'commandComplete']);
    const values = seen.filter((m) => m.name === 'dataRow').map((m) => m.fields!);
    for (const [k, fields] of values.entries()) {
      const texts = rows[k % 2]!;
      if (k < 2) {
        assert.ok(fields[0] instanceof RawText && fields[2] instanceof RawText);
        assert.deepEqual(fields.map((f) => (f instanceof RawText ? f.text() : f)), texts);
        assert.equal(typeof fields[1], 'string');
      } else {
        assert.deepEqual(fields, texts, 'after an unmarked RowDescription: strings');
      }
    }
  }
});

test('TextMemo: a RawText is matched by its bytes, parsed from its text when new; a string is another text', () => {
  const parsed: string[] = [];
  const memo = new TextMemo<unknown>(10, (t) => (parsed.push(t), deepFreeze(JSON.parse(t) as unknown)));
  const raw = (t: string) => parseDataRow(dataRow([t]), 5, 0, [true]).fields[0] as unknown as RawText;
  const text = '{"name":"Lady Dvořák 🎸"}';
  const a = memo.get('1', raw(text));
  assert.deepEqual(a, { name: 'Lady Dvořák 🎸' });
  assert.equal(memo.get('1', raw(text)), a, 'the same bytes: the same shared value, not parsed again');
  assert.deepEqual(memo.get('1', raw('{"name":"Lady Dvorak"}')), { name: 'Lady Dvorak' }, 'other bytes: parsed');
  assert.equal(memo.get('1', raw(text)), a);
  const fromString = memo.get('1', text);
  assert.deepEqual(fromString, a, 'a string of the same text: parsed as a text of its own');
  assert.deepEqual(parsed, [text, '{"name":"Lady Dvorak"}', text]);
});

test("a RawTextClient hears its own errors from its creation: a connection error emitted before any connect or checkout is not uncaught", () => {
  const client = new RawTextClient({ connectionString: 'postgresql://lineup@127.0.0.1:1/lineup' });
  assert.equal(client.listenerCount('error'), 1);
  const fatal = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01', severity: 'FATAL' });
  assert.doesNotThrow(() => client.emit('error', fatal));
});

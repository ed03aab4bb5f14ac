/**
 * Text columns handed over undecoded: a statement names output columns whose text the rows
 * stage only compares with a text it already holds, and parses when it is new (an Event's own
 * columns and stored previews: queries/text-memo.ts). node-postgres decodes every field of every
 * row from UTF-8 to a string; for those columns a page's ≈ 16–30 KB of mostly non-ASCII JSON is a
 * large share of the server's busy time on an Events page
 * (docs/architecture.md#texts-the-rows-stage-only-compares). Here such a field becomes a
 * `RawText`: its bytes as a one-byte (latin1) string, copied, not decoded. Two fields hold the same text exactly when their bytes are the same, so the memo compares those
 * strings, and decodes (`text()`) only a text it has not seen.
 *
 * Written here rather than found in a library: pg 8.23's parser (pg-protocol 1.16) has no mode
 * that leaves a field undecoded ("binary mode not supported yet"), and no hook per field. So a
 * client of this module's `RawTextClient` reads its socket with pg-protocol's own parser, whose
 * DataRow messages are parsed here while a result has raw columns; everything else is pg's.
 * Which fields are raw is set per result, by the query that receives its RowDescription
 * (db/named-query.ts, `handleRowDescription`), and cleared by the next RowDescription or the end
 * of the result; only for columns of type `text`: for them pg's value
 * parser is the identity, so leaving it out changes nothing but the decoding. A client that is
 * not a RawTextClient (PGlite's, a test's) hands over strings: the rows stage takes both.
 * test/db/raw-text.test.ts pins the parts of pg this relies on.
 */
import pg from 'pg';
import { DataRowMessage } from 'pg-protocol/dist/messages.js';
import { Parser } from 'pg-protocol/dist/parser.js';

/** A text field's UTF-8 bytes, undecoded: equal `bytes` ⇔ equal texts. */
export class RawText {
  constructor(
    /** The field's bytes, one character per byte (latin1). */
    readonly bytes: string,
  ) {}

  /** The text itself. */
  text(): string {
    return Buffer.from(this.bytes, 'latin1').toString('utf8');
  }
}

/** A text column's value as a statement of this layer hands it over. */
export type TextValue = string | RawText;

const ROW_DESCRIPTION = 0x54; // 'T'
const DATA_ROW = 0x44; // 'D'
/** Messages that end a result: CommandComplete, ErrorResponse, EmptyQueryResponse, PortalSuspended, ReadyForQuery. */
const RESULT_ENDS = new Set([0x43, 0x45, 0x49, 0x73, 0x5a]);
/** PostgreSQL's `text` type. */
export const TEXT_OID = 25;

/** pg-protocol's Parser, with the members this module reaches (private in its typings). */
interface ParserInternals {
  handlePacket(offset: number, code: number, length: number, bytes: Buffer): unknown;
}

/** The parser of one connection: which fields of the current result's rows stay raw. */
export interface RawTextParser {
  /** Set by the query receiving a RowDescription, for that result's DataRows; `null`: none. */
  raw: readonly boolean[] | null;
}

/**
 * A DataRow (Int16 count, then per field Int32 length, -1 for NULL, and its bytes) with the
 * `raw` fields as RawText and the others decoded as pg-protocol decodes them (UTF-8).
 */
export function parseDataRow(bytes: Buffer, offset: number, length: number, raw: readonly boolean[]): DataRowMessage {
  let at = offset;
  const count = bytes.readInt16BE(at);
  at += 2;
  const fields: (string | RawText | null)[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const len = bytes.readInt32BE(at);
    at += 4;
    if (len === -1) {
      fields[i] = null;
      continue;
    }
    fields[i] = raw[i] === true ? new RawText(bytes.toString('latin1', at, at + len)) : bytes.toString('utf8', at, at + len);
    at += len;
  }
  return new DataRowMessage(length, fields as string[]);
}

/** pg-protocol's parser, with the DataRows of a result that has raw columns parsed here. */
function rawTextParser(state: RawTextParser): Parser {
  const parser = new Parser();
  const internals = parser as unknown as ParserInternals;
  const pgHandle = internals.handlePacket.bind(parser);
  internals.handlePacket = (offset, code, length, bytes) => {
    if (code === DATA_ROW) {
      if (state.raw !== null) return parseDataRow(bytes, offset, length, state.raw);
    } else if (code === ROW_DESCRIPTION || RESULT_ENDS.has(code)) {
      state.raw = null; // a new result (its query says which are raw), or the end of one
    }
    return pgHandle(offset, code, length, bytes);
  };
  return parser;
}

/**
 * A connection lost (a terminated backend, a restart, a reset) is also emitted as 'error' on its
 * client, and an 'error' nobody hears ends the process. pg-pool listens only while a client is
 * idle in the pool, and hands a new client over from inside the parser's loop, where the same
 * read may already hold the server's FATAL message. So every client hears its errors from its
 * creation to its end: the failure itself reaches whoever uses the client through the statement's
 * promise (pg fails it), and the client is no longer queryable, so it is released with the error
 * and discarded, never reused.
 */
function listenForConnectionErrors(client: pg.Client): void {
  client.on('error', () => {});
}

/** pg's Connection (lib/connection.js), with the members this module reads or replaces. */
interface ConnectionInternals {
  _emitMessage: boolean;
  emit(event: string, message: unknown): boolean;
  attachListeners(stream: NodeJS.ReadableStream): void;
  /** This module's parser, once the connection reads its socket. */
  rawText?: RawTextParser;
}

/** The raw-text parser of the connection a query was submitted on, if it has one. */
export const rawTextParserOf = (connection: unknown): RawTextParser | undefined => (connection as ConnectionInternals).rawText;

/**
 * A pg client whose connection parses with `rawTextParser`. Its `attachListeners` is pg's own
 * (lib/connection.js: each message emitted under its name, errors as 'errorMessage', and as
 * 'message' when listened for), with this module's parser instead of pg-protocol's `parse`.
 */
export class RawTextClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    listenForConnectionErrors(this);
    const connection = (this as unknown as { connection: ConnectionInternals }).connection;
    connection.attachListeners = (stream) => {
      const state: RawTextParser = { raw: null };
      const parser = rawTextParser(state);
      connection.rawText = state;
      stream.on('data', (buffer: Buffer) =>
        parser.parse(buffer, (msg) => {
          const eventName = msg.name === 'error' ? 'errorMessage' : msg.name;
          if (connection._emitMessage) connection.emit('message', msg);
          connection.emit(eventName, msg);
        }),
      );
    };
  }
}

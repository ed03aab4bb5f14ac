/**
 * A named statement's execution on a node-postgres client, with what pg would otherwise rebuild
 * from every execution's RowDescription kept from the first: the field list, the value parsers
 * and the empty row object rows are copied from. pg builds them anew per execution (Result
 * addFields: a dictionary-mode object, a parser lookup per column), which at 1M Events cost
 * ≈ 6% of a Venue detail's Node CPU. A description is reused only when the one PostgreSQL sends
 * is the same, field by field (name, type, format), so a changed schema is simply learnt again.
 *
 * Written here, not found in a library: pg 8.23 offers no such cache. It extends pg.Query and
 * sets the three members of pg's Result that addFields sets (`fields`, `_parsers`,
 * `_prebuiltEmptyResultObject`); test/db/named-query.test.ts pins that on the installed pg.
 *
 * It is also where a result's raw text columns are marked (db/raw-text.ts): the statement's
 * `rawText` columns of type text, on a connection that reads with the raw-text parser, for the
 * DataRows that follow this RowDescription, with pg's value parser left out for them.
 */
import pg from 'pg';
import { TEXT_OID, rawTextParserOf } from './raw-text.js';

export interface NamedStatement {
  readonly name: string;
  readonly text: string;
  readonly values: readonly unknown[];
  /** Output columns of type `text` to hand over as RawText where the client can (db/raw-text.ts). */
  readonly rawText?: readonly string[];
}

/** The members of pg's Result (lib/result.js) that its addFields sets. */
interface ResultInternals {
  fields: pg.FieldDef[];
  _parsers: unknown[] | undefined;
  _prebuiltEmptyResultObject: Record<string, null> | null;
  _types: unknown;
  addFields(fields: pg.FieldDef[]): void;
}

/** The members of pg's Query (lib/query.js) this class reads or sets. */
interface QueryInternals {
  name: string | undefined;
  submit(connection: unknown): Error | null | undefined;
  values: unknown[];
  callback: (err: Error | null, result: pg.QueryResult) => void;
  _result: ResultInternals;
  _accumulateRows: boolean;
  _checkForMultirow(): void;
}

interface Shape {
  readonly fields: pg.FieldDef[];
  readonly parsers: unknown[];
  readonly emptyRow: Record<string, null>;
  /** The statement's raw text columns among the fields (`null`: none), and the parsers that leave them as they come. */
  readonly raw: { readonly mask: readonly boolean[]; readonly parsers: unknown[] } | null;
}

const asItComes = (value: unknown) => value;

/** Which of `fields` are `rawText` columns (by name, of type text), and the value parsers for them. */
function rawColumns(fields: readonly pg.FieldDef[], parsers: readonly unknown[], rawText: readonly string[] | undefined): Shape['raw'] {
  if (rawText === undefined || rawText.length === 0) return null;
  const mask = fields.map((f) => f.dataTypeID === TEXT_OID && f.format !== 'binary' && rawText.includes(f.name));
  if (!mask.includes(true)) return null;
  return { mask, parsers: parsers.map((p, i) => (mask[i] ? asItComes : p)) };
}

/**
 * By the client's value types, then statement name: pg gives each client a TypeOverrides of its
 * own (the parsers a shape holds come from it), so one map per client. Keyed by name alone, with
 * the types compared, the shapes of a pool's or a pipeline's connections would replace one another
 * on every execution.
 * Bounded: a client's names are (src/db/prepared.ts, at most MAX_PREPARED texts), and a closed
 * client's map goes with it.
 */
const shapes = new WeakMap<object, Map<string, Shape>>();

function shapesOf(types: unknown): Map<string, Shape> | undefined {
  if (types === null || typeof types !== 'object') return undefined;
  let map = shapes.get(types);
  if (map === undefined) shapes.set(types, (map = new Map()));
  return map;
}

function sameFields(a: readonly pg.FieldDef[], b: readonly pg.FieldDef[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.name !== y.name || x.dataTypeID !== y.dataTypeID || x.format !== y.format) return false;
  }
  return true;
}

class NamedQuery<R extends pg.QueryResultRow> extends pg.Query<R> {
  readonly rawText: readonly string[] | undefined;
  /** The connection this query was written on (pg's Connection; set by `submit`, below). */
  submittedOn: unknown;

  constructor(statement: NamedStatement | UnnamedStatement, callback: (err: Error | null, result: pg.QueryResult<R>) => void) {
    // a text, not a config object: pg copies a config object's property descriptors one by one
    // (utils.cloneQueryConfig), and the constructor only reads these members from it anyway
    super(statement.text);
    const self = this as unknown as QueryInternals;
    if (statement.name !== undefined) self.name = statement.name;
    self.values = statement.values as unknown[];
    self.callback = callback as QueryInternals['callback'];
    this.rawText = statement.rawText;
  }

  /** pg's handleRowDescription (lib/query.js), with the description's derived state reused. */
  handleRowDescription(msg: { fields: pg.FieldDef[] }): void {
    const self = this as unknown as QueryInternals;
    self._checkForMultirow();
    const result = self._result;
    // (an unnamed statement's shape is not kept: its texts are not bounded as names are)
    const kept = self.name === undefined ? undefined : shapesOf(result._types);
    let shape = kept?.get(self.name!);
    if (shape !== undefined && sameFields(shape.fields, msg.fields)) {
      result.fields = shape.fields;
      result._parsers = shape.parsers;
      result._prebuiltEmptyResultObject = shape.emptyRow;
    } else {
      result.addFields(msg.fields);
      shape = undefined;
      if (result._parsers !== undefined && result._prebuiltEmptyResultObject !== null) {
        const raw = rawColumns(result.fields, result._parsers, this.rawText);
        shape = { fields: result.fields, parsers: result._parsers, emptyRow: result._prebuiltEmptyResultObject, raw };
        kept?.set(self.name!, shape);
      }
    }
    // this result's DataRows: the raw columns left undecoded, when the connection can
    const raw = shape?.raw;
    const parser = raw ? rawTextParserOf(this.submittedOn) : undefined;
    if (raw && parser) {
      parser.raw = raw.mask;
      result._parsers = raw.parsers;
    }
    // this query always has a callback (pg: accumulate the rows when there is one)
    self._accumulateRows = true;
  }
}

// pg's submit (lib/query.js), noting the connection: a typed property in pg's typings, so not
// overridden by a method of the class
const pgSubmit = (pg.Query.prototype as unknown as QueryInternals).submit;
(NamedQuery.prototype as unknown as QueryInternals).submit = function (this: NamedQuery<pg.QueryResultRow>, connection: unknown) {
  this.submittedOn = connection;
  return pgSubmit.call(this, connection);
};

/** A statement run unnamed (planned on every execution), its raw text columns marked as a named one's. */
export type UnnamedStatement = Omit<NamedStatement, 'name'> & { readonly name?: undefined };

function run<R extends pg.QueryResultRow>(client: pg.ClientBase, statement: NamedStatement | UnnamedStatement): Promise<pg.QueryResult<R>> {
  return new Promise((resolve, reject) => {
    client.query(new NamedQuery<R>(statement, (err, result) => (err ? reject(err) : resolve(result))));
  });
}

/** Runs an unnamed statement on `client` and resolves with pg's result (its row description learnt anew). */
export const queryUnnamed = <R extends pg.QueryResultRow>(client: pg.ClientBase, statement: UnnamedStatement) => run<R>(client, statement);

/** Runs a named statement on `client` (pooled or pipelined) and resolves with pg's result. */
export const queryNamed = <R extends pg.QueryResultRow>(client: pg.ClientBase, statement: NamedStatement) => run<R>(client, statement);

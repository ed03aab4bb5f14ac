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
 */
import pg from 'pg';

export interface NamedStatement {
  readonly name: string;
  readonly text: string;
  readonly values: readonly unknown[];
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
  name: string;
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
  readonly types: unknown;
}

/** By statement name. Bounded: names are (src/db/prepared.ts, at most MAX_PREPARED texts). */
const shapes = new Map<string, Shape>();

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
  constructor(statement: NamedStatement, callback: (err: Error | null, result: pg.QueryResult<R>) => void) {
    // a text, not a config object: pg copies a config object's property descriptors one by one
    // (utils.cloneQueryConfig), and the constructor only reads these members from it anyway
    super(statement.text);
    const self = this as unknown as QueryInternals;
    self.name = statement.name;
    self.values = statement.values as unknown[];
    self.callback = callback as QueryInternals['callback'];
  }

  /** pg's handleRowDescription (lib/query.js), with the description's derived state reused. */
  handleRowDescription(msg: { fields: pg.FieldDef[] }): void {
    const self = this as unknown as QueryInternals;
    self._checkForMultirow();
    const result = self._result;
    const known = shapes.get(self.name);
    if (known !== undefined && known.types === result._types && sameFields(known.fields, msg.fields)) {
      result.fields = known.fields;
      result._parsers = known.parsers;
      result._prebuiltEmptyResultObject = known.emptyRow;
    } else {
      result.addFields(msg.fields);
      if (result._parsers !== undefined && result._prebuiltEmptyResultObject !== null) {
        shapes.set(self.name, { fields: result.fields, parsers: result._parsers, emptyRow: result._prebuiltEmptyResultObject, types: result._types });
      }
    }
    // this query always has a callback (pg: accumulate the rows when there is one)
    self._accumulateRows = true;
  }
}

/** Runs a named statement on `client` (pooled or pipelined) and resolves with pg's result. */
export function queryNamed<R extends pg.QueryResultRow>(client: pg.ClientBase, statement: NamedStatement): Promise<pg.QueryResult<R>> {
  return new Promise((resolve, reject) => {
    client.query(new NamedQuery<R>(statement, (err, result) => (err ? reject(err) : resolve(result))));
  });
}

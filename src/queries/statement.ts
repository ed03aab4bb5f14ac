/** A parameterized SQL statement: the only thing the query layer hands to the database. */
export interface Statement {
  /** A short label for logs and statement accounting. */
  readonly name: string;
  readonly text: string;
  readonly values: readonly unknown[];
}

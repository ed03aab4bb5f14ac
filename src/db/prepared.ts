/**
 * Names for prepared statements (node-postgres prepares a named query once per connection and
 * then only binds and executes it). A statement's name is derived from its text, so equal texts
 * share one prepared statement and different texts can never collide on a name.
 *
 * Bounded: at most MAX_PREPARED distinct texts are ever named; later texts run unnamed. Every
 * connection therefore holds at most that many prepared statements, whatever a client varies
 * (field selections multiply statement texts).
 */
import { digest } from '../text/digest.js';

export const MAX_PREPARED = 256;

export class PreparedNames {
  private readonly names = new Map<string, string>();

  constructor(private readonly capacity = MAX_PREPARED) {}

  /** The name to prepare `text` under, or undefined when the registry is full. */
  nameOf(text: string): string | undefined {
    const known = this.names.get(text);
    if (known !== undefined || this.names.size >= this.capacity) return known;
    const name = `lineup_${digest('sha1', text, 'hex').slice(0, 20)}`;
    this.names.set(text, name);
    return name;
  }

  get size(): number {
    return this.names.size;
  }
}

/**
 * SQLSTATEs a transaction pooler that does not carry named prepared statements produces (PgBouncer
 * before 1.21 in transaction pooling: the statement was prepared on another server connection):
 * 26000 "prepared statement … does not exist", 42P05 "prepared statement … already exists".
 */
const POOLER_PREPARE_ERRORS = new Set(['26000', '42P05']);

export function isPoolerPrepareError(err: unknown): boolean {
  return err instanceof Error && POOLER_PREPARE_ERRORS.has(String((err as { code?: unknown }).code));
}

/**
 * Whether reads name their stable-plan statements (LINEUP_PREPARED_STATEMENTS). On by default
 * for the generic plans on direct connections; the first pooler error turns it off for the rest
 * of the process (the failed statement is run again unnamed by the reader), so Lineup is correct
 * behind such a pooler even without the setting.
 */
export class PreparedStatements {
  private on: boolean;
  private readonly names: PreparedNames;

  constructor(
    enabled: boolean,
    private readonly onDisable: (reason: string) => void = () => {},
    names = new PreparedNames(),
  ) {
    this.on = enabled;
    this.names = names;
  }

  get enabled(): boolean {
    return this.on;
  }

  /** The name to prepare `text` under, or undefined to run it unnamed. */
  nameOf(text: string): string | undefined {
    return this.on ? this.names.nameOf(text) : undefined;
  }

  /** Called with a pooler's prepared-statement error: every later read runs unnamed. */
  disable(err: Error): void {
    if (!this.on) return;
    this.on = false;
    this.onDisable(`named prepared statements turned off after "${err.message}" (a transaction pooler that does not carry them); set LINEUP_PREPARED_STATEMENTS=false to start that way`);
  }
}

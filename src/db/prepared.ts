/**
 * Names for prepared statements (node-postgres prepares a named query once per connection and
 * then only binds and executes it). A statement's name is derived from its text, so equal texts
 * share one prepared statement and different texts can never collide on a name.
 *
 * Bounded: at most MAX_PREPARED distinct texts are ever named; later texts run unnamed. Every
 * connection therefore holds at most that many prepared statements, whatever a client varies
 * (field selections multiply statement texts).
 */
import { createHash } from 'node:crypto';

export const MAX_PREPARED = 256;

export class PreparedNames {
  private readonly names = new Map<string, string>();

  constructor(private readonly capacity = MAX_PREPARED) {}

  /** The name to prepare `text` under, or undefined when the registry is full. */
  nameOf(text: string): string | undefined {
    const known = this.names.get(text);
    if (known !== undefined || this.names.size >= this.capacity) return known;
    const name = `lineup_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    this.names.set(text, name);
    return name;
  }

  get size(): number {
    return this.names.size;
  }
}

/**
 * A bounded memo of values parsed from text that a statement returns: the same text always parses
 * to the same value, so every request that reads it shares one frozen value, and the projection
 * stage can render that value once (present/, keyed by the value's identity). Used for the stored
 * previews and for the Events' own columns (docs/performance.md, "Rendered once per distinct row").
 *
 * Entries are found by a short slot key (an Event's id and what the text is) and then matched by
 * the WHOLE text: a row changed in any way (also by hand, outside the importer) never matches, so
 * it is parsed and checked again. A slot keeps the last few distinct texts it saw (a selection of
 * other fields is another text). The slot key only makes the lookup cheap: hashing a long string
 * read from the socket costs a pass over it on every read, comparing two equal strings is a
 * memory compare. Bounded by slot count, oldest slot first out.
 */
const TEXTS_PER_SLOT = 2;

interface Entry<T> {
  readonly text: string;
  readonly value: T;
}

export class TextMemo<T> {
  private readonly slots = new Map<string, Entry<T>[]>();

  constructor(
    private readonly maxSlots: number,
    private readonly parse: (text: string) => T,
  ) {}

  get(slot: string, text: string): T {
    let entries = this.slots.get(slot);
    if (entries !== undefined) {
      for (const entry of entries) if (entry.text === text) return entry.value;
    } else {
      if (this.slots.size >= this.maxSlots) this.slots.delete(this.slots.keys().next().value as string);
      this.slots.set(slot, (entries = []));
    }
    const value = this.parse(text);
    if (entries.length >= TEXTS_PER_SLOT) entries.shift();
    entries.push({ text, value });
    return value;
  }
}

/** JSON text → its value with every object and array in it frozen (it is shared by requests). */
export function deepFrozenJson(text: string): unknown {
  return deepFreeze(JSON.parse(text) as unknown);
}

/** `value` with every object and array in it frozen; returned. */
export function deepFreeze(value: unknown): unknown {
  if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

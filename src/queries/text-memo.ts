/**
 * A bounded memo of values parsed from text that a statement returns: the same text always parses
 * to the same value, so every request that reads it shares one frozen value, and the projection
 * stage can render that value once (present/, keyed by the value's identity). Used for the stored
 * previews and for the Events' own columns (docs/architecture.md#texts-the-rows-stage-only-compares).
 *
 * Entries are found by a short slot key (an Event's id and what the text is) and then matched by
 * the WHOLE text: a row changed in any way (also by hand, outside the importer) never matches, so
 * it is parsed and checked again. A slot keeps the last few distinct texts it saw (a selection of
 * other fields is another text). The slot key only makes the lookup cheap: hashing a long string
 * read from the socket costs a pass over it on every read, comparing two equal strings is a
 * memory compare. Bounded by slot count, oldest slot first out.
 */
import { RawText, type TextValue } from '../db/raw-text.js';

const TEXTS_PER_SLOT = 2;

interface Entry<T> {
  /** The text, or a raw text's bytes (`raw`): compared as they came, never decoded to compare. */
  readonly key: string;
  readonly raw: boolean;
  readonly value: T;
}

export class TextMemo<T> {
  private readonly slots = new Map<string, Entry<T>[]>();

  constructor(
    private readonly maxSlots: number,
    private readonly parse: (text: string) => T,
  ) {}

  /**
   * `text` as the driver handed it over: a string, or a RawText (db/raw-text.ts), whose bytes are
   * compared with those held and decoded only when new. A slot's texts came one way or the other
   * (a process reads on one engine); the other way is a new text.
   */
  get(slot: string, text: TextValue): T {
    const raw = text instanceof RawText;
    const key = raw ? text.bytes : text;
    let entries = this.slots.get(slot);
    if (entries !== undefined) {
      for (const entry of entries) if (entry.key === key && entry.raw === raw) return entry.value;
    } else {
      if (this.slots.size >= this.maxSlots) this.slots.delete(this.slots.keys().next().value as string);
      this.slots.set(slot, (entries = []));
    }
    const value = this.parse(raw ? text.text() : key);
    if (entries.length >= TEXTS_PER_SLOT) entries.shift();
    entries.push({ key, raw, value });
    return value;
  }
}

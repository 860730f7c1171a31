/**
 * `JSON.stringify(value, null, 2)` of an object whose last member is a long array, written an
 * item at a time: the same text, never one string. The array's items are indented by hand
 * (pretty JSON has newlines only between tokens: strings hold theirs escaped).
 * @module
 */

/** A key no session holds, to find where the array's items go. */
const MARK = "\u0000pi-session-items\u0000";

/**
 * @example
 * ```ts
 * const json = new PrettyJsonArray({ path: "a", entries: [] }, "entries");
 * json.item({ id: 1 }) + json.end(); // JSON.stringify({ path: "a", entries: [{ id: 1 }] }, null, 2)
 * ```
 */
export class PrettyJsonArray {
  readonly #before: string;
  readonly #after: string;
  readonly #empty: string;
  readonly #indent: string;
  #count = 0;

  /** `value`: the object as printed, its member `key` (an array, at the top level) left empty. */
  constructor(value: Record<string, unknown>, key: string) {
    this.#empty = JSON.stringify(value, null, 2);
    const marked = JSON.stringify({ ...value, [key]: [MARK] }, null, 2);
    const quoted = JSON.stringify(MARK);
    const at = marked.indexOf(quoted);
    const lineStart = marked.lastIndexOf("\n", at) + 1;
    this.#indent = marked.slice(lineStart, at);
    this.#before = marked.slice(0, lineStart);
    this.#after = marked.slice(at + quoted.length);
  }

  /** What each line of an item begins with. */
  get indent(): string {
    return this.#indent;
  }

  /** The text of the next item. */
  item(value: unknown): string {
    return this.itemText(this.#indent + (JSON.stringify(value, null, 2) ?? "null").replaceAll("\n", "\n" + this.#indent));
  }

  /** The text of the next item, given as its pretty JSON with `indent` at the start of each line (what `item` makes). */
  itemText(json: string): string {
    return (this.#count++ === 0 ? this.#before : ",\n") + json;
  }

  /** The rest of the document. */
  end(): string {
    return this.#count === 0 ? this.#empty : this.#after;
  }
}

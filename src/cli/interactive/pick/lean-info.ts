/**
 * The sessions as the picker holds them while it is open: every session of every project (25,000
 * in the scale bench), so each byte a row keeps counts 25,000 times. A row's strings come out of
 * the catalog's stored JSON, and JavaScriptCore keeps a string parsed out of a text with any
 * character past U+00FF at two bytes a character, though ids, folders and most names never need
 * more than one: the rows keep one-byte copies of those, and one string per project folder.
 * @module
 */
import type { SessionInfo } from "../../../core/info/session-info.ts";
import { WideTexts } from "./wide-texts.ts";

/** A character that needs two bytes in the engine's strings. */
const WIDE = /[^\x00-\xff]/;
/** Where a row's first message is in its `WideTexts`. */
const AT = Symbol("firstMessageAt");
/** Distinct folders kept at most (a session's own folder beyond them is copied, not shared). */
const MAX_FOLDERS = 10_000;

/**
 * A copy of `text` in one piece, one byte a character where its characters allow (the engine
 * builds a JSON text that way and parses it into such a string), else `text` itself.
 */
function compact(text: string): string {
  return WIDE.test(text) ? text : JSON.parse(JSON.stringify(text));
}

/**
 * Makes the picker's rows lean: the same session, field for field, with its strings compacted
 * and the folders of sessions in the same project shared.
 *
 * @example
 * ```ts
 * const lean = new LeanInfos();
 * // found.push(lean.of(info));
 * ```
 */
export class LeanInfos {
  readonly #folders = new Map<string, string>();
  readonly #texts = new WideTexts();
  /** The getter of every row's first message kept in `#texts`: one function for all of them. */
  readonly #firstMessage: (this: Record<symbol, number>) => string;

  constructor() {
    const texts = this.#texts;
    this.#firstMessage = function () {
      return texts.text(this[AT]);
    };
  }

  #folder(cwd: string): string {
    const known = this.#folders.get(cwd);
    if (known !== undefined) return known;
    const kept = compact(cwd);
    if (this.#folders.size < MAX_FOLDERS) this.#folders.set(kept, kept);
    return kept;
  }

  /** `info` with its strings compacted (the path is the listing's own, shared already). */
  of(info: SessionInfo): SessionInfo {
    const { name, parentSessionPath, firstMessage } = info;
    const at = WIDE.test(firstMessage) ? this.#texts.add(firstMessage) : undefined;
    const row: SessionInfo = {
      ...info,
      id: compact(info.id),
      cwd: this.#folder(info.cwd),
      name: name === undefined ? undefined : compact(name),
      parentSessionPath: parentSessionPath === undefined ? undefined : compact(parentSessionPath),
      firstMessage: at === undefined ? compact(firstMessage) : "",
    };
    if (at === undefined) return row;
    // An own enumerable property still, in its place (spread, JSON and comparisons see the
    // text), read from the shared blocks; where it is, under a key that nothing enumerates.
    Object.defineProperty(row, "firstMessage", { get: this.#firstMessage, enumerable: true, configurable: true });
    Object.defineProperty(row, AT, { value: at });
    return row;
  }
}

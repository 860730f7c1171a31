/**
 * A one-line text field as a pure reducer: typing appends, Backspace deletes a character,
 * Ctrl+W a word, Ctrl+U everything. Shared by the search, rename and label inputs.
 * @module
 */
import { chord, type Key, typed } from "./keys.ts";

/**
 * The field's text after `key`, or undefined when the key is not an editing key.
 *
 * @example
 * ```ts
 * editLine("ab", keyOf("backspace")); // "a"
 * editLine("ab", keyOf("up")); // undefined
 * ```
 */
export function editLine(value: string, key: Key): string | undefined {
  switch (chord(key)) {
    case "backspace":
      return [...value].slice(0, -1).join("");
    case "ctrl+u":
      return "";
    case "ctrl+w":
    case "alt+backspace":
      return value.replace(/\S*\s*$/, "");
  }
  const text = typed(key);
  return text ? value + text : undefined;
}

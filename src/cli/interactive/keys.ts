/**
 * Key events as the prompt reducers see them: a name, modifiers and the text a key types.
 * `chord()` spells a key the way INTERACTIVE.md and pi's keybindings do (`ctrl+s`, `shift+ctrl+o`).
 * @module
 */

/** One decoded key press. */
export interface Key {
  /** Lower-case key name: `up`, `enter`, `escape`, `tab`, `backspace`, `pageup`, `a`, `space`… */
  name: string;
  ctrl: boolean;
  /** Alt (Option, Meta). */
  meta: boolean;
  shift: boolean;
  /** What the key types ("" for keys that type nothing, such as arrows or Ctrl chords). */
  text: string;
}

/**
 * A key as `[ctrl+][alt+][shift+]name`, e.g. `ctrl+left`, `alt+left`, `shift+l`, `enter`.
 * Shift is part of the chord only where it matters to a binding: with Ctrl or on letters.
 *
 * @example
 * ```ts
 * chord({ name: "o", ctrl: true, meta: false, shift: true, text: "" }); // "shift+ctrl+o"
 * ```
 */
export function chord(key: Key): string {
  const shift = key.shift && (key.ctrl || /^[a-z]$/.test(key.name)) ? "shift+" : "";
  return `${shift}${key.ctrl ? "ctrl+" : ""}${key.meta ? "alt+" : ""}${key.name}`;
}

/** The text a key types when it is plain typing (no Ctrl or Alt), else "". */
export function typed(key: Key): string {
  return key.ctrl || key.meta ? "" : key.text;
}

function make(name: string, mods: Partial<Key> = {}): Key {
  return { name, ctrl: false, meta: false, shift: false, text: "", ...mods };
}

/**
 * Builds keys for tests and scripted runs: `keyOf("up")`, `keyOf("ctrl+s")`,
 * `keyOf("shift+ctrl+o")`, `keyOf("alt+left")`; a single character is typed text.
 */
export function keyOf(spec: string): Key {
  if ([...spec].length === 1) {
    const lower = spec.toLowerCase();
    const letter = /^[a-z]$/.test(lower);
    return make(spec === " " ? "space" : letter ? lower : spec, { text: spec, shift: letter && spec !== lower });
  }
  const parts = spec.split("+");
  const name = parts.pop()!;
  return make(name, { ctrl: parts.includes("ctrl"), meta: parts.includes("alt"), shift: parts.includes("shift") });
}

/** Every character of `text` as a typed key. */
export function typing(text: string): Key[] {
  return [...text].map(keyOf);
}

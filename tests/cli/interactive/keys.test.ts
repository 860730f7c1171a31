/**
 * Tests for key events: chords as bindings spell them, test key specs, and how readline's
 * key reports (as Node, Deno and Bun deliver them) become keys.
 * @module
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { chord, keyOf, typed, typing } from "../../../src/cli/interactive/keys.ts";
import { editLine } from "../../../src/cli/interactive/line-input.ts";
import { KeyAssembler, toKey } from "../../../src/cli/interactive/terminal.ts";

test("chord() spells modifiers in binding order and Shift only where a binding needs it", () => {
  const cases: [Parameters<typeof keyOf>[0], string][] = [
    ["up", "up"],
    ["ctrl+s", "ctrl+s"],
    ["shift+ctrl+o", "shift+ctrl+o"],
    ["alt+left", "alt+left"],
    ["L", "shift+l"],
    ["l", "l"],
    [" ", "space"],
    ['"', '"'],
  ];
  for (const [spec, expected] of cases) assert.equal(chord(keyOf(spec)), expected, spec);
  assert.equal(typed(keyOf("L")), "L");
  assert.equal(typed(keyOf("ctrl+a")), "");
  assert.deepEqual(typing("a b").map(chord), ["a", "space", "b"]);
});

test("toKey() maps readline's reports, the lone-Escape Meta flag, unknown names and kitty's Shift+Ctrl+O", () => {
  const cases: [Record<string, unknown>, string, string][] = [
    [{ sequence: "a", name: "a" }, "a", "a"],
    [{ sequence: "A", name: "a", shift: true }, "shift+a", "A"],
    [{ sequence: '"' }, '"', '"'],
    [{ sequence: "é" }, "é", "é"],
    [{ sequence: "\r", name: "return" }, "enter", ""],
    [{ sequence: "\x1b", name: "escape", meta: true }, "escape", ""],
    [{ sequence: "\x04", name: "d", ctrl: true }, "ctrl+d", ""],
    [{ sequence: "\x1b[1;5D", name: "left", ctrl: true }, "ctrl+left", ""],
    [{ sequence: "\x1b[1;3D", name: "left", meta: true }, "alt+left", ""],
    [{ sequence: "\x1b[111;6u", name: "undefined", code: "[111;6u" }, "shift+ctrl+o", ""],
    [{ sequence: "\x1b[27;6;111~", name: "undefined" }, "shift+ctrl+o", ""],
    [{ sequence: "\x1b[27;5;111~", name: "undefined" }, "ctrl+o", ""],
    [{ sequence: "\x1b[5~", name: "pageup" }, "pageup", ""],
    [{ sequence: "\x1b[99;99q", name: "undefined" }, "", ""],
  ];
  for (const [raw, expected, text] of cases) {
    const key = toKey(raw);
    assert.deepEqual([chord(key), key.text], [expected, text], JSON.stringify(raw));
  }
});

test("editLine() types, deletes a character, a word or everything, and ignores other keys", () => {
  assert.equal(editLine("ab", keyOf("c")), "abc");
  assert.equal(editLine("a日", keyOf("backspace")), "a");
  assert.equal(editLine("one two ", keyOf("ctrl+w")), "one ");
  assert.equal(editLine("one two", keyOf("alt+backspace")), "one ");
  assert.equal(editLine("one", keyOf("ctrl+u")), "");
  assert.equal(editLine("one", keyOf("up")), undefined);
  assert.equal(editLine("one", keyOf("ctrl+x")), undefined);
});

test("KeyAssembler joins the pieces readline cuts xterm's and (under Deno) kitty's Shift+Ctrl+O into", () => {
  const piece = (sequence: string) => ({ sequence, name: /^[a-z0-9]$/.test(sequence) ? sequence : sequence.startsWith("\x1b") ? "undefined" : undefined });
  const feed = (pieces: string[]) => {
    const assembler = new KeyAssembler();
    return pieces.map((p) => assembler.feed(piece(p))).filter((k) => k !== undefined).map((k) => chord(k!));
  };
  // Node, Deno and Bun: ESC [ 27 ; 6 ; 111 ~ arrives as five reports.
  assert.deepEqual(feed(["\x1b[27;6;", "1", "1", "1", "~"]), ["shift+ctrl+o"]);
  // Deno: ESC [ 111 ; 6 u arrives as four.
  assert.deepEqual(feed(["\x1b[111", ";", "6", "u", "a"]), ["shift+ctrl+o", "a"]);
  // Typing goes on as usual around them, and an unfinished sequence gives way to the next key.
  assert.deepEqual(feed(["1", "\x1b[27;6;", "7", "9", "~", "2"]), ["1", "shift+ctrl+o", "2"]);
  assert.deepEqual(feed(["\x1b[27;6;", "1", "x"]), ["x"]);
});

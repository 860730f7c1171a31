/**
 * Table tests for the fork message selector: which messages it lists, its keys, its frame.
 * @module
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { renderForkSelect } from "../../../src/cli/interactive/fork-select/render.ts";
import { type ForkSelectState, initialForkSelect, reduceForkSelect, userMessages } from "../../../src/cli/interactive/fork-select/state.ts";
import { keyOf } from "../../../src/cli/interactive/keys.ts";
import { textWidth } from "../../../src/render/text-width.ts";
import { assistant, message, user, userMsg } from "../../core/_builders.ts";

const MESSAGES = Array.from({ length: 25 }, (_, i) => ({ id: `m${i + 1}`, text: `message ${i + 1}` }));

function press(state: ForkSelectState, ...keys: string[]): ForkSelectState {
  return keys.reduce((s, k) => reduceForkSelect(s, keyOf(k)), state);
}

const selectedId = (s: ForkSelectState) => s.messages[s.selected].id;

test("userMessages() lists every user message with text, in file order across branches", () => {
  const entries = [
    user("u1", null, "first"),
    assistant("a1", "u1", "reply"),
    user("u2", "a1", "second\nline"),
    user("u3", "u1", "   "), // no text: left out
    message("u4", "u1", userMsg("", { content: [{ type: "text", text: "a" }, { type: "image", data: "", mimeType: "image/png" }, { type: "text", text: "b" }] })),
  ];
  assert.deepEqual(userMessages(entries), [{ id: "u1", text: "first" }, { id: "u2", text: "second\nline" }, { id: "u4", text: "ab" }]);
});

const KEYS: [keys: string[], expected: string][] = [
  [[], "m25"], // starts on the newest
  [["up"], "m24"],
  [["down"], "m1"], // wraps
  [["down", "up"], "m25"],
  [["pageup"], "m15"],
  [["pageup", "pageup", "pageup"], "m1"], // clamped
  [["down", "pagedown"], "m11"],
  [["pagedown"], "m25"],
  [["x", "tab"], "m25"], // other keys do nothing
];

for (const [keys, expected] of KEYS) {
  test(`reduceForkSelect() [${keys.join(", ")}] selects ${expected}`, () => {
    assert.equal(selectedId(press(initialForkSelect(MESSAGES), ...keys)), expected);
  });
}

test("reduceForkSelect() Enter chooses the message; Escape and Ctrl+C cancel", () => {
  assert.deepEqual(press(initialForkSelect(MESSAGES), "up", "enter").exit, { kind: "done", value: MESSAGES[23] });
  assert.deepEqual(press(initialForkSelect(MESSAGES), "escape").exit, { kind: "cancel" });
  assert.deepEqual(press(initialForkSelect(MESSAGES), "ctrl+c").exit, { kind: "cancel" });
});

test("renderForkSelect() shows each message on one line with `Message i of n`, within 40 columns", () => {
  const long = [...MESSAGES.slice(0, 3), { id: "x", text: "a message far too long for a terminal only forty columns wide\nwith two lines" }];
  const lines = renderForkSelect(initialForkSelect(long, 3), { columns: 40, rows: 20 }).lines;
  assert.equal(lines[0], "Fork from Message");
  assert.deepEqual(lines.slice(4), [
    "  message 2",
    "  Message 2 of 4",
    "  message 3",
    "  Message 3 of 4",
    "› a message far too long for a terminal…",
    "  Message 4 of 4",
    "  (4/4)",
  ]);
  for (const line of lines) assert.ok(textWidth(line) <= 40, line);
});

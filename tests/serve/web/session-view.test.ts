/**
 * A session page's entry blocks as the server renders them: thinking folded (the page's toggle
 * opens it), and custom messages pi does not display marked hidden, as the export viewer has them.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { SessionEntry } from "../../../src/core/format/types.ts";
import { entryView } from "../../../src/serve/web/views/session-view.ts";

const at = "2025-06-01T10:00:00.000Z";

test("entryView() marks a custom message with display: false hidden, and only that", () => {
  const custom = (display: boolean) => ({ type: "custom_message", id: "x1", parentId: null, timestamp: at, customType: "note", content: "kept quiet", display }) as unknown as SessionEntry;
  assert.match(entryView("s", custom(false)).html, /^<article class="entry kind-custom_message hidden-message" id="entry-x1"/);
  assert.match(entryView("s", custom(true)).html, /^<article class="entry kind-custom_message" id="entry-x1"/);
  const user = { type: "message", id: "u1", parentId: null, timestamp: at, message: { role: "user", content: "hi", timestamp: 0, display: false } } as unknown as SessionEntry;
  assert.doesNotMatch(entryView("s", user).html, /hidden-message/);
});

test("entryView() shows thinking folded, in full", () => {
  const reply = {
    type: "message", id: "a1", parentId: null, timestamp: at,
    message: { role: "assistant", content: [{ type: "thinking", thinking: "first look <here>" }, { type: "text", text: "done" }], provider: "p", model: "m", usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: "stop", timestamp: 0 },
  } as unknown as SessionEntry;
  assert.match(entryView("s", reply).html, /<details class="thinking"><summary>thinking<\/summary><div class="text">first look &lt;here&gt;<\/div><\/details>/);
});

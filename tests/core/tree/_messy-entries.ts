/**
 * Generated entry lists of every shape a session file can hold: branches, repeated ids, missing,
 * self and later parents (cycles), entries without an id or a parentId, equal and unreadable
 * timestamps, labels set, cleared and on nothing, tool calls and their results. Seeded, so a
 * failing shape can be made again.
 * @module
 */
import type { SessionEntry } from "../../../src/core/mod.ts";
import { mulberry32 as seeded } from "../../../scripts/seeded-random.ts";
import { assistant, assistantMsg, at, custom, entry, label, message, sessionInfo, toolResult, user } from "../_builders.ts";

/** `count` entries of a messy session from `seed` (mostly a tree, `messy`: how often something is wrong, 0 to 1). */
export function messyEntries(seed: number, count: number, messy: number): SessionEntry[] {
  const random = seeded(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const below = (n: number) => Math.floor(random() * n);
  const ids: string[] = [];
  const calls: string[] = [];
  const entries: SessionEntry[] = [];
  for (let i = 0; i < count; i++) {
    const wrong = random() < messy;
    // A repeated id now and then; otherwise a fresh one.
    const id = wrong && ids.length > 0 && random() < 0.3 ? pick(ids) : `e${i.toString(16).padStart(7, "0")}`;
    let parent: string | null = ids.length === 0 || random() < 0.05 ? null : random() < 0.7 ? ids[ids.length - 1] : pick(ids);
    if (wrong) parent = pick([null, id, "missing0", `e${(i + 1 + below(3)).toString(16).padStart(7, "0")}`, parent]);
    const time = wrong && random() < 0.3 ? pick(["", "not a time", at(below(5))]) : at(random() < 0.2 ? i - below(3) : i);
    const kind = below(10);
    let made: SessionEntry;
    if (kind < 3) made = user(id, parent, `question ${i}`);
    else if (kind < 5) {
      const call = `call${i}`;
      calls.push(call);
      const content = [...(random() < 0.6 ? [{ type: "text", text: `answer ${i}` }] : []), ...(random() < 0.6 ? [{ type: "toolCall", id: call, name: "read", arguments: { path: `f${i}.ts` } }] : [])];
      made = message(id, parent, assistantMsg("", { content, stopReason: pick(["stop", "toolUse", "error", "aborted"]) }));
    } else if (kind < 7) made = toolResult(id, parent, `output ${i}`, { toolCallId: calls.length > 0 ? pick(calls) : "none" });
    else if (kind === 7) made = label(id, parent, random() < 0.8 && ids.length > 0 ? pick(ids) : "nowhere", pick(["keep", "", "todo"]));
    else if (kind === 8) made = pick([custom(id, parent), sessionInfo(id, parent, `name ${i}`), entry("usage", id, parent), entry("model_change", id, parent, { provider: "p", modelId: "m" })]);
    else made = assistant(id, parent, `reply ${i}`);
    made = { ...made, timestamp: time };
    if (wrong && random() < 0.1) delete (made as { parentId?: unknown }).parentId;
    if (wrong && random() < 0.05) delete (made as { id?: unknown }).id;
    entries.push(made);
    if (!ids.includes(id)) ids.push(id);
  }
  return entries;
}

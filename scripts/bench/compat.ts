/**
 * Bench case `compat`: pi's synchronous SessionManager API, ours (`pi-session/compat`) against pi 1.6.0.
 *
 *   node --import tsx scripts/bench/compat.ts --impl append-ref|append-ours DIR [--count 10000] [--verify]
 *   node --import tsx scripts/bench/compat.ts --impl open-ref|open-ours FILE [--verify]
 *
 * - append-*: `SessionManager.create(cwd, DIR)` then `appendMessage` COUNT times (user and assistant
 *   messages in turn), each on disk when it returns. DIR is emptied first.
 * - open-*:   `SessionManager.open(FILE)`, the context at its leaf, and the entry count
 *             (`getEntryCount()`, which both have; `getEntries()` would read every entry).
 *
 * Imports happen before the clock starts; only the work is timed.
 */
import { readFileSync, rmSync } from "node:fs";
import { digest, importOrSkip, measure, parseCaseArgs } from "./_harness.ts";

const args = parseCaseArgs();
const [target] = args.positional;
if (!target) throw new Error("usage: compat.ts --impl IMPL DIR|FILE");
const count = Number(args.flags.get("count") ?? 10_000);

interface Manager {
  appendMessage(message: unknown): string;
  getSessionFile(): string | undefined;
  getEntryCount(): number;
  getLeafId(): string | null;
  buildSessionContext(): { messages: unknown[] };
}
interface ManagerClass {
  create(cwd: string, dir: string): Manager;
  open(path: string): Manager;
}

const usage = { input: 10, output: 20, cacheRead: 0, cacheWrite: 0, totalTokens: 30, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const message = (n: number) =>
  n % 2 === 0
    ? { role: "user", content: `question ${n}: ${"lorem ipsum ".repeat(20)}`, timestamp: n }
    : { role: "assistant", content: [{ type: "text", text: `answer ${n}: ${"dolor sit amet ".repeat(30)}` }], api: "x", provider: "p", model: "m", usage, stopReason: "stop", timestamp: n };

async function load(impl: string): Promise<ManagerClass> {
  if (impl.endsWith("-ref")) {
    return (await import("../../node_modules/@earendil-works/pi-coding-agent/dist/core/session-manager.js")).SessionManager as unknown as ManagerClass;
  }
  return (await importOrSkip<typeof import("../../src/compat/mod.ts")>("../../src/compat/mod.ts", "src/compat/mod.ts")).SessionManager as unknown as ManagerClass;
}

const Manager = await load(args.impl);
if (args.impl.startsWith("append-")) {
  rmSync(target, { recursive: true, force: true });
  await measure(args, () => {
    const session = Manager.create("/work/bench", target);
    for (let n = 0; n < count; n++) session.appendMessage(message(n));
    return session.getSessionFile()!;
  }, (file) => `${readFileSync(file, "utf8").trim().split("\n").length} lines`);
} else if (args.impl.startsWith("open-")) {
  await measure(args, () => {
    const session = Manager.open(target);
    return { entries: session.getEntryCount(), context: session.buildSessionContext() };
  }, (r) => `${r.entries} entries, ${r.context.messages.length} msgs, ${digest(r.context)}`);
} else {
  throw new Error(`unknown --impl ${args.impl}`);
}

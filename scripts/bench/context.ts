/**
 * Bench case `context`: the model context at the default leaf (the last entry) of one session file.
 *
 *   node --import tsx scripts/bench/context.ts --impl ref|ours|ours-full|baseline FILE [--verify]
 *
 * - ref:       the reference (pi 1.6.0) as pi loads a session: loadEntriesFromFile,
 *              migrateSessionEntries, buildSessionContext over the entries after the header.
 *              It may append a newline to a file without one, so give it a copy.
 * - ours:      readContextFromFile(nodeFileSystem, FILE) (src/session/read-context.ts).
 * - ours-full: readSession(fs.read(FILE)) + buildSessionContext (everything parsed, then the tree).
 * - baseline:  the floor: read the file, JSON.parse every line into an array, no tree, no context.
 *
 * Imports happen before the clock starts; only the work is timed.
 */
import { readFileSync } from "node:fs";
import { digest, importOrSkip, measure, parseCaseArgs } from "./_harness.ts";

const args = parseCaseArgs();
const [file] = args.positional;
if (!file) throw new Error("usage: context.ts --impl IMPL FILE");

interface Context {
  messages: unknown[];
  thinkingLevel: string;
  model: unknown;
}
const check = (c: Context) => `${c.messages.length} msgs, ${c.thinkingLevel}, ${digest(c)}`;

switch (args.impl) {
  case "ref": {
    const ref = await import("../../node_modules/@earendil-works/pi-coding-agent/dist/core/session-manager.js");
    await measure(args, () => {
      const entries = ref.loadEntriesFromFile(file);
      ref.migrateSessionEntries(entries);
      const sessionEntries = entries.filter((e) => e.type !== "session") as Parameters<typeof ref.buildSessionContext>[0];
      return ref.buildSessionContext(sessionEntries) as Context;
    }, check);
    break;
  }
  case "ours": {
    type Mod = typeof import("../../src/session/read-context.ts");
    const { readContextFromFile } = await importOrSkip<Mod>("../../src/session/read-context.ts", "src/session/read-context.ts");
    const { nodeFileSystem } = await importOrSkip<typeof import("../../src/io/node.ts")>("../../src/io/node.ts", "src/io/node.ts");
    await measure(args, async () => (await readContextFromFile(nodeFileSystem, file)).context as Context, check);
    break;
  }
  case "ours-full": {
    const core = await importOrSkip<typeof import("../../src/core/mod.ts")>("../../src/core/mod.ts", "src/core/mod.ts");
    const { nodeFileSystem } = await importOrSkip<typeof import("../../src/io/node.ts")>("../../src/io/node.ts", "src/io/node.ts");
    await measure(args, async () => {
      const session = await core.readSession(nodeFileSystem.read(file));
      return core.buildSessionContext(session.entries) as Context;
    }, check);
    break;
  }
  case "baseline": {
    await measure(args, () => {
      const bytes = readFileSync(file);
      const entries: unknown[] = [];
      let start = 0;
      while (start < bytes.length) {
        let end = bytes.indexOf(10, start);
        if (end === -1) end = bytes.length;
        if (end > start) entries.push(JSON.parse(bytes.toString("utf8", start, end)));
        start = end + 1;
      }
      return entries;
    }, (entries) => `${entries.length} lines`);
    break;
  }
  default:
    throw new Error(`unknown --impl ${args.impl}`);
}

/**
 * Bench case `list`: list every session of every project under an agent dir (pi's `/resume` "all").
 *
 *   node --import tsx scripts/bench/list.ts --impl ref|ours AGENT_DIR [--verify]
 *
 * - ref:  SessionManager.listAll() of pi 1.6.0. With no argument it lists `<agentDir>/sessions/*`
 *         where agentDir comes from PI_CODING_AGENT_DIR (a string argument would list ONE folder),
 *         so this script sets that variable to AGENT_DIR before calling it.
 * - ours: listAllCached(nodeFileSystem, { agentDir }, { cacheDir }) from src/catalog/list-cached.ts:
 *         the listing through the catalog (on Node 20 the portable file store; SQLite elsewhere).
 *         The runner deletes the cold row's DIR before each run, so it builds the catalog from nothing.
 * - ours-warm: the same with the catalog kept between runs (SPEC §7: warm ≤ 0.05×): the warm-up
 *         run fills it, timed runs find every file unchanged.
 * With PI_SESSION_CHECK=full in the environment, ours does a full check, as the binary would.
 */
import process from "node:process";
import { digest, importOrSkip, measure, parseCaseArgs, skip } from "./_harness.ts";

const args = parseCaseArgs();
const [agentDir] = args.positional;
if (!agentDir) throw new Error("usage: list.ts --impl IMPL AGENT_DIR");

interface Listed {
  path: string;
  messageCount?: number;
}
const check = (sessions: Listed[]) =>
  `${sessions.length} sessions, ${sessions.reduce((n, s) => n + (s.messageCount ?? 0), 0)} msgs, ` +
  digest(sessions.map((s) => s.path).sort());

switch (args.impl) {
  case "ref": {
    process.env.PI_CODING_AGENT_DIR = agentDir;
    const { SessionManager } = await import("../../node_modules/@earendil-works/pi-coding-agent/dist/core/session-manager.js");
    await measure(args, () => SessionManager.listAll() as Promise<Listed[]>, check);
    break;
  }
  case "ours":
  case "ours-warm": {
    const { listAllCached } = await importOrSkip<typeof import("../../src/catalog/list-cached.ts")>("../../src/catalog/list-cached.ts", "src/catalog/list-cached.ts");
    const { nodeFileSystem } = await importOrSkip<typeof import("../../src/io/node.ts")>("../../src/io/node.ts", "src/io/node.ts");
    const cacheDir = args.flags.get("cache-dir");
    if (!cacheDir) skip("no --cache-dir given");
    // PI_SESSION_CHECK=full as the binary takes it: every folder listed, every file stat'ed.
    const full = process.env.PI_SESSION_CHECK === "full" ? { check: "full" as const } : {};
    await measure(args, () => listAllCached(nodeFileSystem, { agentDir }, { cacheDir, realDisk: true, ...full }) as Promise<Listed[]>, check);
    break;
  }
  default:
    throw new Error(`unknown --impl ${args.impl}`);
}

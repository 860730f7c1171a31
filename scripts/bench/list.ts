/**
 * Bench case `list`: list every session of every project under an agent dir (pi's `/resume` "all").
 *
 *   node --import tsx scripts/bench/list.ts --impl ref|ours AGENT_DIR [--verify]
 *
 * - ref:  SessionManager.listAll() of pi 1.6.0. With no argument it lists `<agentDir>/sessions/*`
 *         where agentDir comes from PI_CODING_AGENT_DIR (a string argument would list ONE folder),
 *         so this script sets that variable to AGENT_DIR before calling it.
 * - ours: listAllSessions(nodeFileSystem, { agentDir }) from src/session/list-sessions.ts.
 * - ours-warm: the same with the incremental cache kept between runs (SPEC §7: warm ≤ 0.05×). The
 *         runner passes `--cache-dir DIR` to both of our rows and deletes the cold row's DIR before
 *         each run. Until list-sessions.ts has a cache option, ours-warm is skipped; wire the option
 *         into `ourOptions` below when it exists.
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
    // deno-lint-ignore no-explicit-any
    const mod: any = await importOrSkip("../../src/session/list-sessions.ts", "src/session/list-sessions.ts");
    const { nodeFileSystem } = await importOrSkip<typeof import("../../src/io/node.ts")>("../../src/io/node.ts", "src/io/node.ts");
    if (typeof mod.listAllSessions !== "function") throw new Error("src/session/list-sessions.ts has no listAllSessions");
    // The cache directory, for when listAllSessions gains an incremental cache.
    const _cacheDir = args.flags.get("cache-dir");
    const ourOptions = {};
    if (args.impl === "ours-warm") skip("no incremental cache in src/session/list-sessions.ts yet");
    await measure(args, async () => {
      const result = await mod.listAllSessions(nodeFileSystem, { agentDir }, ourOptions);
      return (Array.isArray(result) ? result : result.sessions) as Listed[];
    }, check);
    break;
  }
  default:
    throw new Error(`unknown --impl ${args.impl}`);
}

/**
 * Bench helper in plain JavaScript, for node without tsx: pi 1.6.0's SessionManager.listAll()
 * over AGENT_DIR, as pi itself runs it; prints the number of sessions found. The yardstick of
 * the rows that run the npm package's CLI (also plain node).
 *
 *   node scripts/bench/list-all-ref.mjs AGENT_DIR
 */
import process from "node:process";

const [agentDir] = process.argv.slice(2);
if (!agentDir) throw new Error("usage: list-all-ref.mjs AGENT_DIR");
process.env.PI_CODING_AGENT_DIR = agentDir;
const { SessionManager } = await import("../../node_modules/@earendil-works/pi-coding-agent/dist/core/session-manager.js");
const sessions = await SessionManager.listAll();
console.log(`${sessions.length} sessions`);

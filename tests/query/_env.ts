/**
 * A query env over a memory file system for the query tests, with what it reported collected.
 * @module
 */
import { createQueryEnv, type QueryEnv } from "../../src/query/env.ts";
import type { FileSystem } from "../../src/io/file-system.ts";
import { AGENT_DIR, CWD, HOME, NOW } from "../cli/_harness.ts";

export interface TestEnv {
  env: QueryEnv;
  /** Every note, notice and warning, as `kind: message`. */
  reported: string[];
}

/** An env acting for `cwd` (default the harness's) and the catalog the CLI harness gets (the file store in memory). */
export function testEnv(fs: FileSystem, options: { cwd?: string; envVars?: Record<string, string> } = {}): TestEnv {
  const reported: string[] = [];
  const vars: Record<string, string> = { ...options.envVars };
  const env = createQueryEnv({
    fs,
    storage: { env: (name) => vars[name], home: HOME, processCwd: CWD },
    agentDir: AGENT_DIR,
    cwd: options.cwd,
    now: () => NOW,
    report: {
      note: (m) => reported.push(`note: ${m}`),
      notice: (m) => reported.push(`notice: ${m}`),
      warn: (m) => reported.push(`warn: ${m}`),
    },
  });
  return { env, reported };
}

/**
 * The few facts about the running process that storage rules need (environment
 * variables, home directory, working directory), read once per runtime.
 * @module
 */
import type { StorageEnv } from "../core/storage/layout.ts";

interface DenoLike {
  env: { get(name: string): string | undefined };
  cwd(): string;
}

interface ProcessLike {
  env: Record<string, string | undefined>;
  cwd(): string;
}

/** The current process's environment, home and cwd (Deno, or Node and Bun via `process`). */
export function processEnvironment(): StorageEnv {
  const g = globalThis as { Deno?: DenoLike; process?: ProcessLike };
  if (g.Deno && !g.process) {
    const deno = g.Deno;
    const env = (name: string) => {
      try {
        return deno.env.get(name);
      } catch {
        return undefined;
      }
    };
    return { env, home: env("HOME") ?? env("USERPROFILE") ?? "/", processCwd: deno.cwd() };
  }
  const proc = g.process!;
  const env = (name: string) => proc.env[name];
  return { env, home: env("HOME") || env("USERPROFILE") || "/", processCwd: proc.cwd() };
}

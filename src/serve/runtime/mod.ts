/**
 * The HTTP server adapter of the runtime this code runs on, chosen once at start-up as the
 * FileSystem adapter is (Bun, Deno, else Node), and the signals that ask a server to stop.
 * This folder is the only place the serve feature touches a runtime.
 * @module
 */
import type { Listen } from "./listener.ts";

export type { FetchHandler, Listen, ListenOptions, RunningServer } from "./listener.ts";

/** The `Listen` of the current runtime. */
export async function detectListen(): Promise<Listen> {
  const runtime = globalThis as { Bun?: unknown; Deno?: unknown };
  if (runtime.Bun !== undefined) return (await import("./bun.ts")).listenBun;
  if (runtime.Deno !== undefined) return (await import("./deno.ts")).listenDeno;
  return (await import("./node.ts")).listenNode;
}

/**
 * Resolves with the name of the first SIGINT or SIGTERM (Ctrl+C, `docker stop`); until then
 * the process keeps running. The handlers are removed once one arrives, so a second Ctrl+C
 * during a slow shutdown ends the process the usual way.
 */
export async function shutdownSignal(): Promise<string> {
  const { default: process } = await import("node:process");
  return new Promise((resolve) => {
    const signals = ["SIGINT", "SIGTERM"] as const;
    const handlers = signals.map((signal) => {
      const handler = () => {
        signals.forEach((s, i) => process.off(s, handlers[i]));
        resolve(signal);
      };
      process.on(signal, handler);
      return handler;
    });
  });
}

/** The program that opens a URL in the browser on this platform. */
export async function browserOpener(): Promise<string> {
  const { default: process } = await import("node:process");
  return process.platform === "darwin" ? "open" : process.platform === "win32" ? "explorer" : "xdg-open";
}

/**
 * A server for tests, without a socket: the app's `fetch` over a memory file system (or any),
 * with the CLI harness's home, agent dir and clock, so API answers can be compared with
 * `runCli([... "--json"])` over the same files.
 * @module
 */
import { createApp } from "../../src/serve/app.ts";
import { openServeState, type ServeConfig, type ServeState } from "../../src/serve/serve-state.ts";
import type { FileSystem } from "../../src/io/file-system.ts";
import { CWD, HOME, memoryFs, NOW } from "../cli/_harness.ts";

export interface TestServer {
  fs: FileSystem;
  state: ServeState;
  /** `fetch` of the app, with a path relative to http://127.0.0.1:8377. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** The JSON body of a GET, asserting the status. */
  json(path: string, status?: number): Promise<unknown>;
  close(): Promise<void>;
}

export async function testServer(options: Partial<ServeConfig> & { env?: Record<string, string> } = {}): Promise<TestServer> {
  const fs = options.fs ?? memoryFs();
  const env = options.env ?? {};
  const state = await openServeState({
    fs,
    storage: { env: (name) => env[name], home: HOME, processCwd: CWD },
    bindHost: "127.0.0.1",
    redact: true,
    version: "pi-session test",
    now: () => NOW,
    pollMs: { watched: 50, unwatched: 50 },
    ...options,
  });
  const app = createApp(state);
  const fetch = (path: string, init?: RequestInit) => Promise.resolve(app.fetch(new Request(new URL(path, "http://127.0.0.1:8377"), init)));
  return {
    fs,
    state,
    fetch,
    async json(path, status = 200) {
      const response = await fetch(path);
      const text = await response.text();
      if (response.status !== status) throw new Error(`GET ${path}: ${response.status}, expected ${status}: ${text}`);
      return JSON.parse(text);
    },
    close: () => state.close(),
  };
}

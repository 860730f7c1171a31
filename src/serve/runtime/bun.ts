/**
 * The HTTP server on Bun (and in the compiled binary): `Bun.serve` calls the app's `fetch`.
 * @module
 */
import type { Listen } from "./listener.ts";

interface BunServer {
  port: number;
  stop(closeActiveConnections?: boolean): Promise<void>;
}

interface BunLike {
  serve(options: { fetch: (request: Request) => Response | Promise<Response>; hostname: string; port: number; idleTimeout?: number }): BunServer;
}

export const listenBun: Listen = async (fetch, { hostname, port }) => {
  const bun = (globalThis as unknown as { Bun: BunLike }).Bun;
  // idleTimeout 0: an event stream may stay quiet for long; Bun would cut it after 10 s.
  const server = bun.serve({ fetch, hostname, port, idleTimeout: 0 });
  return { port: server.port, close: () => server.stop(false) };
};

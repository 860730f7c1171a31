/**
 * The HTTP server on Deno: `Deno.serve` calls the app's `fetch`.
 * @module
 */
import type { Listen } from "./listener.ts";

interface DenoServer {
  addr: { port: number };
  shutdown(): Promise<void>;
}

interface DenoLike {
  serve(
    options: { hostname: string; port: number; onListen?: (addr: { port: number }) => void; onError?: (error: unknown) => Response },
    handler: (request: Request) => Response | Promise<Response>,
  ): DenoServer;
}

export const listenDeno: Listen = async (fetch, { hostname, port }) => {
  const deno = (globalThis as unknown as { Deno: DenoLike }).Deno;
  const server = deno.serve({ hostname, port, onListen: () => {} }, fetch);
  return { port: server.addr.port, close: () => server.shutdown() };
};

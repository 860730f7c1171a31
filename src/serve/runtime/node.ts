/**
 * The HTTP server on Node: `@hono/node-server` turns Node's `http` requests into Web
 * `Request`s for the app's `fetch`.
 * @module
 */
import type { AddressInfo } from "node:net";
import type { Listen } from "./listener.ts";

export const listenNode: Listen = async (fetch, { hostname, port }) => {
  const { serve } = await import("@hono/node-server");
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, hostname, port }, (info: AddressInfo) => {
      server.off("error", reject);
      resolve({
        port: info.port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            // Idle keep-alive sockets would hold close() open; busy ones finish their response.
            (server as { closeIdleConnections?: () => void }).closeIdleConnections?.();
          }),
      });
    });
    server.once("error", reject);
  });
};

/**
 * What a runtime's HTTP server adapter gives the `serve` command: start listening with a
 * `fetch` handler, learn the real port, and close gracefully (requests in flight finish).
 * @module
 */

/** A Web-standard request handler, as `app.fetch` is. */
export type FetchHandler = (request: Request) => Response | Promise<Response>;

export interface ListenOptions {
  hostname: string;
  /** 0 picks a free port. */
  port: number;
}

export interface RunningServer {
  /** The port actually bound (useful with port 0). */
  port: number;
  /** Stops accepting connections and resolves once the requests in flight have finished. */
  close(): Promise<void>;
}

/** Starts a server; rejects when the address cannot be bound (in use, not permitted). */
export type Listen = (fetch: FetchHandler, options: ListenOptions) => Promise<RunningServer>;

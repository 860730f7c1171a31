/**
 * `/api/events`: Server-Sent Events carrying the watcher's session events to each open page,
 * with a comment every so often so proxies keep the connection, and `closeAll` for shutdown.
 * @module
 */
import type { SessionEvent } from "./session-watcher.ts";

const encoder = new TextEncoder();

/** One event in the `text/event-stream` format (the data is one JSON line). */
export function sseMessage(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

export interface EventStreamsOptions {
  subscribe: (listener: (event: SessionEvent) => void) => () => void;
  /** Changes an event before it is sent (redaction of the name). */
  present?: (event: SessionEvent) => SessionEvent;
  /** A keep-alive comment this often; default 15 s. */
  heartbeatMs?: number;
}

export class EventStreams {
  readonly #options: EventStreamsOptions;
  readonly #open = new Set<() => void>();

  constructor(options: EventStreamsOptions) {
    this.#options = options;
  }

  /** How many streams are open (a metric). */
  get size(): number {
    return this.#open.size;
  }

  /** A streaming response that lasts until the client goes, `signal` aborts, or `closeAll`. */
  response(signal?: AbortSignal): Response {
    const { subscribe, present = (e) => e, heartbeatMs = 15_000 } = this.#options;
    let stop = () => {};
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        const send = (text: string) => {
          try {
            controller.enqueue(encoder.encode(text));
          } catch {
            stop();
          }
        };
        const unsubscribe = subscribe((event) => send(sseMessage(event.type, present(event))));
        const heartbeat = setInterval(() => send(": keep-alive\n\n"), heartbeatMs);
        let stopped = false;
        stop = () => {
          if (stopped) return;
          stopped = true;
          unsubscribe();
          clearInterval(heartbeat);
          this.#open.delete(stop);
          try {
            controller.close();
          } catch {
            // Already closed by the client.
          }
        };
        this.#open.add(stop);
        signal?.addEventListener("abort", stop, { once: true });
        // The browser reconnects after 1 s if the stream drops; the first line confirms it is live.
        send("retry: 1000\n" + sseMessage("ready", {}));
      },
      cancel: () => stop(),
    });
    return new Response(body, {
      headers: { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store", "X-Accel-Buffering": "no" },
    });
  }

  /** Ends every open stream (shutdown: the server can then finish). */
  closeAll(): void {
    for (const stop of [...this.#open]) stop();
  }
}

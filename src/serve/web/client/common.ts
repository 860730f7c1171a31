/**
 * What the pages' script shares between its pages: the page's data block, a query, JSON from
 * the API with its next-page cursor, a debounce, and the listeners of the event stream.
 * @module
 */

/** The data the server put in the page for its script. */
export const data = JSON.parse(document.getElementById("page-data")?.textContent || "null") ?? {};
export const $ = <T extends Element = HTMLElement>(selector: string) => document.querySelector(selector) as T | null;

export async function getJson<T>(url: string): Promise<{ value: T; next: string | null; ok: boolean; status: number }> {
  const response = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
  const value = await response.json() as T;
  return { value, next: response.headers.get("X-Next-Cursor"), ok: response.ok, status: response.status };
}

export function debounce(fn: () => void, ms: number): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return () => {
    clearTimeout(timer);
    timer = setTimeout(fn, ms);
  };
}

export type Listener = (type: string, event: { id: string; size?: number; name?: string | null }) => void;
/** Called with each event of `/api/events`. */
export const listeners: Listener[] = [];

/** Connects to `/api/events`, marks the page live, and passes each event to the listeners. */
export function connectEvents(): void {
  if (!("EventSource" in window)) return;
  const source = new EventSource("/api/events");
  const live = $("#live");
  source.addEventListener("ready", () => live?.classList.add("on"));
  source.addEventListener("error", () => live?.classList.remove("on"));
  for (const type of ["created", "appended", "renamed", "deleted"]) {
    source.addEventListener(type, (e) => {
      const event = JSON.parse((e as MessageEvent).data);
      for (const listener of listeners) listener(type, event);
    });
  }
}

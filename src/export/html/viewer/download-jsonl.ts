/**
 * The "Download JSONL" button: the session as the page holds it (header, then every entry
 * in file order: the exported branch, or all branches), one JSON value a line, the way pi
 * writes session files, so pi can open or import it. Built from the data in the page.
 * @module
 */

/**
 * The session file's text.
 *
 * @example
 * ```ts
 * sessionJsonl({ type: "session", version: 3, id: "s1", timestamp: "…", cwd: "/w" }, []); // one line
 * ```
 */
export function sessionJsonl(header: Record<string, unknown>, entries: readonly object[]): string {
  const lines = [JSON.stringify({ ...header, type: "session" })];
  for (const entry of entries) lines.push(JSON.stringify(entry));
  return lines.join("\n") + "\n";
}

/** Offers `text` as a download named `name` (a blob URL, so nothing leaves the page). */
export function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: "application/x-ndjson" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

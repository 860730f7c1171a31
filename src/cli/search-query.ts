/**
 * A simple session filter for `list --search`: every whitespace token (or "quoted phrase")
 * must appear, case-insensitively, in the name, id, message text or cwd.
 * @module
 */
import type { SessionInfo } from "../core/info/session-info.ts";

/** Splits a query into lower-cased tokens; `"a phrase"` stays one token. */
export function queryTokens(query: string): string[] {
  const tokens: string[] = [];
  for (const match of query.matchAll(/"([^"]*)"|(\S+)/g)) {
    const token = (match[1] ?? match[2]).replace(/\s+/g, " ").trim().toLowerCase();
    if (token) tokens.push(token);
  }
  return tokens;
}

/** True when every token of `query` is found in one of the session's fields. */
export function matchesQuery(session: SessionInfo, query: string): boolean {
  const fields = [session.name ?? "", session.id, session.allMessagesText, session.cwd].map((f) => f.replace(/\s+/g, " ").toLowerCase());
  return queryTokens(query).every((token) => fields.some((field) => field.includes(token)));
}

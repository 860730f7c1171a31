/**
 * Builders for picker tests: `SessionInfo` values with a fixed time base, and a picker
 * state loaded with them.
 * @module
 */
import type { SessionInfo } from "../../../src/core/info/session-info.ts";
import { initialPickState, type PickState, type Scope, sessionsLoaded } from "../../../src/cli/interactive/pick/state.ts";

/** Minute 0 of every builder's `modified`. */
export const BASE = Date.UTC(2026, 0, 1);

/** A listed session; `modified` is `minutes` after `BASE`. */
export function info(id: string, fields: Partial<SessionInfo> & { minutes?: number } = {}): SessionInfo {
  const { minutes = 0, ...rest } = fields;
  return {
    path: `/s/${id}.jsonl`,
    id,
    cwd: "/home/dev/app",
    created: new Date(BASE),
    modified: new Date(BASE + minutes * 60_000),
    messageCount: 2,
    firstMessage: `first message of ${id}`,
    allMessagesText: "",
    ...rest,
  };
}

/** A picker whose `scope` has finished loading `sessions` (newest first, as listing sorts). */
export function loaded(sessions: SessionInfo[], options: { scope?: Scope; pageSize?: number } = {}): PickState {
  const scope = options.scope ?? "current";
  const state = { ...initialPickState({ scope, processCwd: "/", pageSize: options.pageSize ?? 3 }), effects: [] };
  const sorted = [...sessions].sort((a, b) => b.modified.getTime() - a.modified.getTime());
  return sessionsLoaded(state, scope, { sessions: sorted, loaded: sessions.length, total: sessions.length, done: true });
}

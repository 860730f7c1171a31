/**
 * The session layer: everything that needs a `FileSystem`. `SessionManager` (pi's API over
 * injected IO), listing, the fast context read, and the errors they throw.
 * @module
 */
export * from "./errors.ts";
export * from "./list-sessions.ts";
export * from "./read-context.ts";
export * from "./read-header.ts";
export { SessionManager, type CompactionExtra, type ListProgress } from "./session-manager.ts";
export { SessionCore } from "./session-core.ts";
export { SessionView } from "./session-view.ts";
export type { NewSessionOptions, SessionManagerOptions } from "./session-options.ts";
export type { ContextEditReplacement } from "./context-edit.ts";
export type { ResolvedLabel } from "./entry-index.ts";
export { SESSION_FILE_MODE } from "./session-writer.ts";
export * from "./backup.ts";
export { runRewrite, safeRewrite } from "./safe-rewrite.ts";
export { rewriteSteps, type CarriedOver, type RewriteDecision, type RewriteInput, type RewriteOutcome, type RewriteRequest, type RewriteSteps } from "./rewrite-steps.ts";
export { branchedEntries, branchedSession, forkedSession, type NewSessionParts } from "./branched-session.ts";
export { findMostRecentSession } from "./session-files.ts";
export { randomEntryId, uniqueEntryId, uuidV4, uuidV7 } from "./ids.ts";

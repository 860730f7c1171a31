/**
 * The query layer: each question a user can ask as one function `(env, options)` whose result's
 * `value` is the JSON `--json` prints. The CLI, the HTTP API and the MCP tools are adapters
 * around these; docs/JSON.md and docs/schema/ describe the values.
 * @module
 */
export { createQueryEnv, openQueryCatalog, type Progress, type QueryEnv, type QueryEnvInit, type QueryReport } from "./env.ts";
export { type ErrorValue, errorValue, QueryError } from "./errors.ts";
export { JSON_SCHEMA_VERSION, versioned } from "./json-version.ts";
export { resolveSessionRef } from "./resolve/session-ref.ts";
export { resolveEntryRef } from "./resolve/entry-ref.ts";
export { checkLimit, LIST_SORTS, type ListOptions, type ListResult, type ListSort, listSessions, type SessionJson, sessionJson } from "./list.ts";
export { type InfoJson, type InfoOptions, type InfoResult, sessionInfo } from "./info.ts";
export { checkTreeFilter, sessionTree, type TreeJson, type TreeOptions, type TreeResult, type TreeRowJson } from "./tree.ts";
export { type EntriesJson, type EntriesOptions, type EntriesResult, sessionEntries } from "./entries.ts";
export { CONTEXT_FORMATS, type ContextFormat, type ContextOptions, type ContextResult, sessionContext } from "./context.ts";
export { sessionTranscript, type TranscriptJson, type TranscriptOptions, type TranscriptResult } from "./transcript.ts";
export { DOC_ROLES, type SearchHitJson, type SearchOptions, type SearchResultValue, searchText } from "./search.ts";
export { STATS_BY, type StatsBy, type StatsJson, type StatsOptions, type StatsResult, usageStats } from "./stats.ts";
export { BLOCK_HOURS, type BlocksJson, type BlocksOptions, type BlocksResult, usageBlockReport } from "./blocks.ts";
export { type FileHit, type FileSessionJson, type FilesOptions, type FilesResult, fileSessions } from "./files.ts";
export { diskUse, type DuJson, type DuOptions, type DuResult } from "./du.ts";

/**
 * The shapes found in pi session files (format versions 1–3, pi 1.x entries included).
 * Fields are typed as pi writes them; readers must still expect anything, since files
 * are hand-edited, torn or written by other tools.
 * @module
 */

/** The format version this library writes. */
export const CURRENT_SESSION_VERSION = 3;

export interface TextContent {
  type: "text";
  text: string;
  [key: string]: unknown;
}

export interface ImageContent {
  type: "image";
  /** Base64 of the image bytes. */
  data: string;
  mimeType: string;
  [key: string]: unknown;
}

export interface ThinkingContent {
  type: "thinking";
  thinking: string;
  [key: string]: unknown;
}

export interface ToolCall {
  type: "toolCall";
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  [key: string]: unknown;
}

export type ContentBlock = TextContent | ImageContent | ThinkingContent | ToolCall;

export interface UsageCost {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  total: number;
}

export interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  totalTokens: number;
  cost: UsageCost;
  [key: string]: unknown;
}

export type StopReason = "stop" | "length" | "toolUse" | "error" | "aborted";

export interface SystemMessage {
  role: "system";
  content: string | TextContent[];
  timestamp?: number;
  [key: string]: unknown;
}

export interface UserMessage {
  role: "user";
  content: string | (TextContent | ImageContent)[];
  timestamp: number;
  [key: string]: unknown;
}

export interface AssistantMessage {
  role: "assistant";
  content: (TextContent | ThinkingContent | ToolCall)[];
  api: string;
  provider: string;
  model: string;
  responseModel?: string;
  usage: Usage;
  stopReason: StopReason;
  errorMessage?: string;
  timestamp: number;
  [key: string]: unknown;
}

export interface ToolResultMessage {
  role: "toolResult";
  toolCallId: string;
  toolName: string;
  content: (TextContent | ImageContent)[];
  details?: unknown;
  usage?: Usage;
  isError: boolean;
  timestamp: number;
  [key: string]: unknown;
}

export interface BashExecutionMessage {
  role: "bashExecution";
  command: string;
  output: string;
  exitCode: number | undefined | null;
  cancelled: boolean;
  truncated: boolean;
  fullOutputPath?: string;
  excludeFromContext?: boolean;
  timestamp: number;
  [key: string]: unknown;
}

export interface CustomMessage {
  role: "custom";
  customType: string;
  content: string | (TextContent | ImageContent)[];
  display: boolean;
  details?: unknown;
  timestamp: number;
  [key: string]: unknown;
}

export interface BranchSummaryMessage {
  role: "branchSummary";
  summary: string;
  fromId: string;
  timestamp: number;
  [key: string]: unknown;
}

export interface CompactionSummaryMessage {
  role: "compactionSummary";
  summary: string;
  tokensBefore: number;
  timestamp: number;
  [key: string]: unknown;
}

/** A role this library does not know; kept and shown, never sent to a model. */
export interface UnknownRoleMessage {
  role: string;
  [key: string]: unknown;
}

export type AgentMessage =
  | SystemMessage
  | UserMessage
  | AssistantMessage
  | ToolResultMessage
  | BashExecutionMessage
  | CustomMessage
  | BranchSummaryMessage
  | CompactionSummaryMessage;

/** What `convertToLlm` produces: the messages a provider sees. */
export type LlmMessage = SystemMessage | UserMessage | AssistantMessage | ToolResultMessage;

/** Line 1 of a session file. Not part of the entry tree. */
export interface SessionHeader {
  type: "session";
  /** Missing means version 1. */
  version?: number;
  id: string;
  timestamp: string;
  cwd: string;
  parentSession?: string;
  [key: string]: unknown;
}

export interface SessionEntryBase {
  type: string;
  /** Normally 8 hex characters; may be a full UUID. */
  id: string;
  parentId: string | null;
  /** ISO 8601. */
  timestamp: string;
}

export interface MessageEntry extends SessionEntryBase {
  type: "message";
  message: AgentMessage;
}

export interface ThinkingLevelChangeEntry extends SessionEntryBase {
  type: "thinking_level_change";
  thinkingLevel: string;
}

export interface ModelChangeEntry extends SessionEntryBase {
  type: "model_change";
  provider: string;
  modelId: string;
}

/** pi 1.x: usage not tied to a message (e.g. cache warming). */
export interface UsageEntry extends SessionEntryBase {
  type: "usage";
  kind: string;
  provider: string;
  model: string;
  usage: Usage;
  note?: string;
}

export interface FileDetails {
  readFiles?: string[];
  modifiedFiles?: string[];
  [key: string]: unknown;
}

export interface CompactionEntry extends SessionEntryBase {
  type: "compaction";
  summary: string;
  /** Where the kept range starts; older files and pi 1.x. */
  firstKeptEntryId?: string;
  tokensBefore: number;
  /** The seeds' checkpoint form: the kept messages embedded in the entry. */
  retainedTail?: AgentMessage[];
  /** pi 1.x: the system prompt replayed at the head of the compacted context. */
  systemMessage?: SystemMessage;
  details?: unknown;
  usage?: Usage;
  fromHook?: boolean;
}

export interface BranchSummaryEntry extends SessionEntryBase {
  type: "branch_summary";
  fromId: string;
  summary: string;
  details?: unknown;
  usage?: Usage;
  fromHook?: boolean;
}

export interface CustomEntry extends SessionEntryBase {
  type: "custom";
  customType: string;
  data?: unknown;
}

export interface CustomMessageEntry extends SessionEntryBase {
  type: "custom_message";
  customType: string;
  content: string | (TextContent | ImageContent)[];
  display: boolean;
  details?: unknown;
}

export interface LabelEntry extends SessionEntryBase {
  type: "label";
  targetId: string;
  /** Absent or empty clears the label. */
  label?: string;
}

export interface SessionInfoEntry extends SessionEntryBase {
  type: "session_info";
  name?: string;
}

/** pi 1.x: replaces (or with `null` omits) a message's content in the model context. */
export interface ContextEditEntry extends SessionEntryBase {
  type: "context_edit";
  targetId: string;
  replacement: { content: string | ContentBlock[] } | null;
}

/** An entry of a type this library does not know: kept, shown, ignored for context. */
export interface UnknownEntry extends SessionEntryBase {
  [key: string]: unknown;
}

export type SessionEntry =
  | MessageEntry
  | ThinkingLevelChangeEntry
  | ModelChangeEntry
  | UsageEntry
  | CompactionEntry
  | BranchSummaryEntry
  | CustomEntry
  | CustomMessageEntry
  | LabelEntry
  | SessionInfoEntry
  | ContextEditEntry;

/** Any line of a session file after parsing. */
export type FileEntry = SessionHeader | SessionEntry;

/** The model and thinking level in force at an entry. */
export interface ModelRef {
  provider: string;
  modelId: string;
}

export interface SessionContext {
  messages: AgentMessage[];
  thinkingLevel: string;
  model: ModelRef | null;
}

export interface ProjectedEntry {
  sourceEntry: SessionEntry;
  messages: AgentMessage[];
}

export interface SessionProjection extends SessionContext {
  entries: ProjectedEntry[];
}

export interface SessionTreeNode {
  entry: SessionEntry;
  children: SessionTreeNode[];
  label?: string;
  labelTimestamp?: string;
}

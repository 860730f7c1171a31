/**
 * The shapes of the query values the pages show: the `--json` outputs of list, info, tree,
 * show (entries), context, stats, search and files (docs/JSON.md), only the fields used here.
 * @module
 */

export interface ListedSession {
  path: string;
  id: string;
  cwd: string;
  name: string | null;
  created: string | null;
  modified: string | null;
  messageCount: number;
  firstMessage: string;
}

export interface UsageValue {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  totalTokens: number;
  cost: { total: number };
}

export interface InfoValue {
  path: string;
  id: string;
  cwd: string;
  name: string | null;
  parentSession: string | null;
  created: string | null;
  modified: string | null;
  entryCount: number;
  leafId: string | null;
  leafCount: number;
  usage: UsageValue;
  models: unknown[];
}

export interface TreeRowValue {
  id: string;
  parentId: string | null;
  depth: number;
  type: string;
  role?: string;
  label?: string;
  active: boolean;
  text: string;
}

export interface TreeValue {
  leafId: string | null;
  rows: TreeRowValue[];
}

export interface StatsRow extends UsageValue {
  key: string;
  sessions: number;
  models?: (UsageValue & { key: string })[];
}

export interface StatsValue {
  totals: UsageValue;
  rows: StatsRow[];
}

export interface SearchHit {
  sessionId: string;
  cwd: string;
  name: string | null;
  entryId: string | null;
  role: string | null;
  timestamp: string | null;
  snippet: string;
}

export interface FileRef {
  entryId: string;
  timestamp: string | null;
  op: string;
  tool: string;
  path: string;
  command?: string;
}

export interface FilesItem {
  id: string;
  cwd: string;
  name: string | null;
  refs: FileRef[];
}

/**
 * What each kind of append adds, as a `NewEntry`: how to make the entry at the leaf once its id,
 * parent and time are known, and what to check first. Both session managers hand these to
 * `SessionCore` (the steps, or a burst's quick line), so each kind is written once.
 * @module
 */
import type {
  AgentMessage,
  ImageContent,
  SessionEntry,
  SessionProjection,
  SystemMessage,
  TextContent,
  Usage,
  UsageEntry,
} from "../core/format/types.ts";
import { checkedContextEdit, type ContextEditReplacement } from "./context-edit.ts";
import * as build from "./entry-builders.ts";
import { UnknownEntryError } from "./errors.ts";
import { currentSystemMessage } from "./system-message.ts";

/** An entry to append: `make` builds it at the leaf; `check` (which may throw) runs first, before any id or time is taken. */
export interface NewEntry<T extends SessionEntry = SessionEntry> {
  make(base: build.EntryBase): T;
  check?(): void;
}

/** What the checks and the compaction read of the session (a `SessionView`'s own questions). */
export interface EntryContext {
  getEntry(id: string): SessionEntry | undefined;
  getBranch(): SessionEntry[];
  buildSessionProjection(): SessionProjection;
}

/** Compaction fields beyond pi's signature. */
export interface CompactionExtra {
  /** Stored as given; when absent it is replayed from the context's system messages (as pi does); null stores none. */
  systemMessage?: SystemMessage | null;
  /** The seeds' checkpoint form: the kept messages embedded in the entry. */
  retainedTail?: AgentMessage[];
}

// Plain methods, not arrow functions: the bundler's name-keeping wraps each arrow it makes, which
// cost more than the rest of a `make` (a third of a microsecond).

export function message(message: AgentMessage): NewEntry {
  return {
    make(base) {
      return build.messageEntry(base, message);
    },
  };
}

export function thinkingLevelChange(thinkingLevel: string): NewEntry {
  return {
    make(base) {
      return build.thinkingLevelChangeEntry(base, thinkingLevel);
    },
  };
}

export function modelChange(provider: string, modelId: string): NewEntry {
  return {
    make(base) {
      return build.modelChangeEntry(base, provider, modelId);
    },
  };
}

/** A null or undefined `firstKeptEntryId` keeps nothing before it (the entry's own id, as pi 1.6 writes). */
export function compaction(
  session: EntryContext,
  summary: string,
  firstKeptEntryId: string | null | undefined,
  tokensBefore: number,
  details?: unknown,
  fromHook?: boolean,
  usage?: Usage,
  extra: CompactionExtra = {},
): NewEntry {
  return {
    make(base) {
      let systemMessage = extra.systemMessage ?? undefined;
      if (extra.systemMessage === undefined) {
        const replayed = currentSystemMessage(session.buildSessionProjection().messages);
        if (replayed) systemMessage = { ...replayed, timestamp: new Date(base.timestamp).getTime() };
      }
      const retainedTail = extra.retainedTail;
      const fields = { summary, firstKeptEntryId: firstKeptEntryId ?? base.id, tokensBefore, details, usage, fromHook, systemMessage, retainedTail };
      return build.compactionEntry(base, fields);
    },
  };
}

export function customEntry(customType: string, data?: unknown): NewEntry {
  return {
    make(base) {
      return build.customEntry(base, customType, data);
    },
  };
}

/** Runs of CR/LF become one space, then the name is trimmed. */
export function sessionInfo(name: string): NewEntry {
  return {
    make(base) {
      return build.sessionInfoEntry(base, name.replace(/[\r\n]+/g, " ").trim());
    },
  };
}

export function customMessage(customType: string, content: string | (TextContent | ImageContent)[], display: boolean, details?: unknown): NewEntry {
  return {
    make(base) {
      return build.customMessageEntry(base, customType, content, display, details);
    },
  };
}

/** The target must be an entry of the session. */
export function labelChange(session: EntryContext, targetId: string, label: string | undefined): NewEntry {
  return {
    make(base) {
      return build.labelEntry(base, targetId, label);
    },
    check() {
      if (session.getEntry(targetId) === undefined) throw new UnknownEntryError(targetId);
    },
  };
}

export function usage(kind: string, provider: string, model: string, usage: Usage, note?: string): NewEntry<UsageEntry> {
  return {
    make(base) {
      return build.usageEntry(base, kind, provider, model, usage, note);
    },
  };
}

/** The target must be a message of the active branch (`checkedContextEdit`). */
export function contextEdit(session: EntryContext, targetId: string, replacement: ContextEditReplacement): NewEntry {
  let stored: ContextEditReplacement = null;
  return {
    make(base) {
      return build.contextEditEntry(base, targetId, stored);
    },
    check() {
      const onBranch = session.getBranch().some((entry) => entry.id === targetId);
      stored = checkedContextEdit(targetId, session.getEntry(targetId), onBranch, replacement);
    },
  };
}

/** Hangs under `branchFromId` (null: a new root, which must exist otherwise); its `fromId` is the leaf (or "root"). */
export function branchSummary(session: EntryContext, branchFromId: string | null, summary: string, details?: unknown, fromHook?: boolean, usage?: Usage): NewEntry {
  return {
    make(base) {
      return build.branchSummaryEntry({ ...base, parentId: branchFromId }, base.parentId ?? "root", summary, details, usage, fromHook);
    },
    check() {
      if (branchFromId !== null && session.getEntry(branchFromId) === undefined) throw new UnknownEntryError(branchFromId);
    },
  };
}

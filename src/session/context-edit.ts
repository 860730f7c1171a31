/**
 * pi 1.6's rules for a `context_edit`: what may be replaced, and how a replacement is stored.
 * @module
 */
import type { ContentBlock, MessageEntry, SessionEntry } from "../core/format/types.ts";
import { InvalidContextEditError, UnknownEntryError } from "./errors.ts";

/** A context edit's payload: new content for the target, or null to leave it out of the context. */
export type ContextEditReplacement = { content: string | ContentBlock[] } | null;

const EDITABLE_MESSAGE_ROLES = new Set(["user", "assistant", "toolResult"]);

function isReplacement(value: unknown): value is ContextEditReplacement {
  if (value === null) return true;
  if (typeof value !== "object" || !("content" in value)) return false;
  const content = (value as { content: unknown }).content;
  return typeof content === "string" || Array.isArray(content);
}

/**
 * Checks an edit of `target` (looked up by `targetId`) in pi's order and returns the
 * replacement as it is stored: string content for an assistant or toolResult message
 * becomes one text block. Throws `UnknownEntryError` or `InvalidContextEditError`.
 */
export function checkedContextEdit(
  targetId: string,
  target: SessionEntry | undefined,
  onActiveBranch: boolean,
  replacement: unknown,
): ContextEditReplacement {
  if (!isReplacement(replacement)) {
    throw new InvalidContextEditError("Context edit replacement must be null or contain string/array content");
  }
  if (!target) throw new UnknownEntryError(targetId);
  if (!onActiveBranch) throw new InvalidContextEditError(`Entry ${targetId} is not on the active branch`);
  const role = target.type === "message" ? (target as MessageEntry).message?.role : undefined;
  if (target.type !== "custom_message" && !(role !== undefined && EDITABLE_MESSAGE_ROLES.has(role))) {
    throw new InvalidContextEditError(`Entry ${targetId} does not contribute editable model content`);
  }
  if (replacement !== null && (role === "assistant" || role === "toolResult") && typeof replacement.content === "string") {
    return { content: [{ type: "text", text: replacement.content }] };
  }
  return replacement;
}

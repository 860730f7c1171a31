/**
 * `context`: the model context pi would build at an entry: `{messages, thinkingLevel, model}`,
 * or the provider-facing `convertToLlm` array of its messages.
 * @module
 */
import { convertToLlm } from "../core/context/convert-to-llm.ts";
import { buildSessionContext } from "../core/context/session-projection.ts";
import type { LlmMessage, SessionContext } from "../core/format/types.ts";
import { readContextFromFile } from "../session/read-context.ts";
import type { QueryEnv } from "./env.ts";
import { QueryError } from "./errors.ts";
import { loadSessionAt } from "./load.ts";
import { resolveEntryRef } from "./resolve/entry-ref.ts";
import { resolveSessionRef } from "./resolve/session-ref.ts";
import { reportSkipped } from "./skipped-note.ts";

export const CONTEXT_FORMATS = ["json", "llm"] as const;
export type ContextFormat = typeof CONTEXT_FORMATS[number];

export interface ContextOptions {
  /** A session reference: path, id, unique id prefix, or `@`. */
  ref: string;
  /** The entry to build at: id, unique prefix or `label:NAME` (default: the last entry). */
  leaf?: string;
  /** `json` (default): pi's context as it is; `llm`: `convertToLlm` of its messages. */
  format?: ContextFormat;
}

export interface ContextResult {
  /** What `context --format json|llm` prints (pi's own shapes: no `schemaVersion` added). */
  value: SessionContext | LlmMessage[];
  /** The context itself, whatever the format (the text view prints its messages). */
  context: SessionContext;
  path: string;
}

/** The context at `leaf` (or the last entry) of a session. Skipped lines are reported as a warning. */
export async function sessionContext(env: QueryEnv, options: ContextOptions): Promise<ContextResult> {
  const format = options.format ?? "json";
  if (!(CONTEXT_FORMATS as readonly string[]).includes(format)) {
    throw new QueryError("bad-option", `Unknown context format "${format}"`, `Use one of ${CONTEXT_FORMATS.join(", ")}`);
  }
  const path = await resolveSessionRef(env, options.ref);
  let context: SessionContext;
  if (options.leaf !== undefined) {
    const { file, tree } = await loadSessionAt(env, path);
    reportSkipped(env, path, file.issues);
    context = buildSessionContext(file.entries, resolveEntryRef(tree, options.leaf, path), tree.byId);
  } else {
    // The fast path parses only what the context at the default leaf needs (and checks every line).
    const read = await readContextFromFile(env.fs, path);
    reportSkipped(env, path, read.issues);
    context = read.context;
  }
  return { value: format === "llm" ? convertToLlm(context.messages) : context, context, path };
}

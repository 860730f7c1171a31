/**
 * From entries to the model context, with pi's exact semantics plus retainedTail checkpoints.
 * @module
 */
export * from "./entry-messages.ts";
export * from "./build-context-entries.ts";
export * from "./session-projection.ts";
export * from "./convert-to-llm.ts";
export * from "./lazy-projection.ts";

/**
 * The fixed texts pi wraps around summaries and shell runs when it hands them to a
 * model. They must match pi byte for byte, or contexts differ from what pi sends.
 * @module
 */
import type { BashExecutionMessage } from "./types.ts";

/** Opens a compaction summary in the model context. */
export const COMPACTION_SUMMARY_PREFIX =
  "The conversation history before this point was compacted into the following summary:\n\n<summary>\n";
/** Closes a compaction summary (note the leading newline). */
export const COMPACTION_SUMMARY_SUFFIX = "\n</summary>";
/** Opens a branch summary in the model context. */
export const BRANCH_SUMMARY_PREFIX =
  "The following is a summary of a branch that this conversation came back from:\n\n<summary>\n";
/** Closes a branch summary (no leading newline, unlike the compaction suffix). */
export const BRANCH_SUMMARY_SUFFIX = "</summary>";

/**
 * The user text a `!command` run becomes in the model context.
 *
 * @example Render a failed command
 * ```ts
 * bashExecutionText({ role: "bashExecution", command: "false", output: "", exitCode: 1,
 *   cancelled: false, truncated: false, timestamp: 0 });
 * // "Ran `false`\n(no output)\n\nCommand exited with code 1"
 * ```
 */
export function bashExecutionText(message: BashExecutionMessage): string {
  const parts = ["Ran `" + message.command + "`\n"];
  parts.push(message.output ? "```\n" + message.output + "\n```" : "(no output)");
  if (message.cancelled) {
    parts.push("\n\n(command cancelled)");
  } else if (message.exitCode !== null && message.exitCode !== undefined && message.exitCode !== 0) {
    parts.push("\n\nCommand exited with code " + message.exitCode);
  }
  if (message.truncated && message.fullOutputPath) {
    parts.push("\n\n[Output truncated. Full output: " + message.fullOutputPath + "]");
  }
  return parts.join("");
}

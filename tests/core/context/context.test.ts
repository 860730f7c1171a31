/**
 * Tests for the model context: compaction selection (firstKeptEntryId, retain-none, the
 * seeds' retainedTail checkpoints), context edits, settings, entry -> message and convertToLlm.
 * @module
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  type AgentMessage,
  BRANCH_SUMMARY_PREFIX,
  BRANCH_SUMMARY_SUFFIX,
  buildContextEntries,
  buildSessionContext,
  buildSessionProjection,
  COMPACTION_SUMMARY_PREFIX,
  COMPACTION_SUMMARY_SUFFIX,
  convertToLlm,
  type SessionEntry,
  sessionEntryToContextMessages,
} from "../../../src/core/mod.ts";
import {
  assistant,
  assistantMsg,
  at,
  branchSummary,
  compaction,
  contextEdit,
  custom,
  customMessage,
  entry,
  label,
  message,
  modelChange,
  sessionInfo,
  system,
  systemMsg,
  T0_MS,
  thinking,
  toolResult,
  user,
  userMsg,
} from "../_builders.ts";

/** One short tag per message, e.g. `user:hello`, `compactionSummary:summary of c1`. */
function tags(messages: readonly AgentMessage[]): string[] {
  return messages.map((m) => {
    const body = m.role === "compactionSummary" || m.role === "branchSummary"
      ? m.summary
      : typeof m.content === "string"
      ? m.content
      : Array.isArray(m.content)
      ? m.content.map((b) => (b as { text?: string }).text ?? `<${b.type}>`).join("+")
      : String(m.content);
    return `${m.role}:${body}`;
  });
}

function contextTags(entries: readonly SessionEntry[], leafId?: string | null): string[] {
  return tags(buildSessionContext(entries, leafId).messages);
}

function ids(entries: readonly SessionEntry[]): string[] {
  return entries.map((e) => e.id);
}

// ---------------------------------------------------------------- selection

test("buildSessionContext() of no entries is empty, thinking off, no model", () => {
  assert.deepEqual(buildSessionContext([]), { messages: [], thinkingLevel: "off", model: null });
  assert.deepEqual(buildSessionContext([user("u1", null, "x")], null).messages, []);
});

test("buildSessionContext() without a compaction gives the stored messages of the path", () => {
  const entries = [user("u1", null, "q"), assistant("a1", "u1", "r"), toolResult("t1", "a1", "out"), user("u2", "t1", "q2")];
  const { messages } = buildSessionContext(entries);
  assert.deepEqual(messages, entries.map((e) => (e as { message: AgentMessage }).message));
  assert.equal(messages[0], (entries[0] as { message: AgentMessage }).message);
});

test("buildSessionContext() follows the given leaf and falls back to the last entry for an unknown one", () => {
  const entries = [user("u1", null, "1"), assistant("a1", "u1", "2"), user("u2", "a1", "3"), user("u3", "a1", "4")];
  assert.deepEqual(contextTags(entries, "u2"), ["user:1", "assistant:2", "user:3"]);
  assert.deepEqual(contextTags(entries, "nope"), ["user:1", "assistant:2", "user:4"]);
});

// sys1 - u1 - a1 - sys2 - u2 - a2 - C(first kept a1) - sys3 - u3
const compacted = [
  system("sys1", null, "rules"),
  user("u1", "sys1", "1"),
  assistant("a1", "u1", "2"),
  system("sys2", "a1", "mid rules"),
  user("u2", "sys2", "3"),
  assistant("a2", "u2", "4"),
  compaction("c1", "a2", { firstKeptEntryId: "a1" }),
  system("sys3", "c1", "new rules"),
  user("u3", "sys3", "5"),
];

test("buildSessionContext() with a compaction: summary, kept range without system messages, then the rest", () => {
  assert.deepEqual(contextTags(compacted), [
    "compactionSummary:summary of c1",
    "assistant:2",
    "user:3",
    "assistant:4",
    "system:new rules",
    "user:5",
  ]);
  assert.deepEqual(ids(buildContextEntries(compacted)), ["c1", "a1", "u2", "a2", "sys3", "u3"]);
});

test("buildSessionContext() builds the compaction summary message from the entry", () => {
  const [summary] = buildSessionContext(compacted).messages;
  assert.deepEqual(summary, { role: "compactionSummary", summary: "summary of c1", tokensBefore: 1000, timestamp: T0_MS });
});

test("buildSessionContext() keeps from the root when firstKeptEntryId names it", () => {
  const entries = [user("u1", null, "1"), assistant("a1", "u1", "2"), compaction("c1", "a1", { firstKeptEntryId: "u1" }), user("u2", "c1", "3")];
  assert.deepEqual(contextTags(entries), ["compactionSummary:summary of c1", "user:1", "assistant:2", "user:3"]);
});

test("buildSessionContext() keeps nothing before a compaction whose firstKeptEntryId is not on the path", () => {
  for (const firstKeptEntryId of ["elsewhere", undefined]) {
    const entries = [user("u1", null, "1"), compaction("c1", "u1", { firstKeptEntryId }), user("u2", "c1", "2")];
    assert.deepEqual(contextTags(entries), ["compactionSummary:summary of c1", "user:2"]);
  }
});

test("buildSessionContext() retains nothing when firstKeptEntryId is the compaction's own id", () => {
  const entries = [user("u1", null, "1"), assistant("a1", "u1", "2"), compaction("c1", "a1", { firstKeptEntryId: "c1" })];
  assert.deepEqual(contextTags(entries), ["compactionSummary:summary of c1"]);
});

test("buildSessionContext() with several compactions: only the latest speaks", () => {
  const entries = [
    user("u1", null, "1"),
    assistant("a1", "u1", "2"),
    compaction("c1", "a1", { firstKeptEntryId: "u1" }),
    user("u2", "c1", "3"),
    assistant("a2", "u2", "4"),
    compaction("c2", "a2", { firstKeptEntryId: "u2" }),
    user("u3", "c2", "5"),
  ];
  assert.deepEqual(contextTags(entries), ["compactionSummary:summary of c2", "user:3", "assistant:4", "user:5"]);
});

test("buildSessionContext() keeps an older compaction inside the kept range silent", () => {
  const entries = [
    user("u1", null, "1"),
    assistant("a1", "u1", "2"),
    compaction("c1", "a1", { firstKeptEntryId: "a1" }),
    user("u2", "c1", "3"),
    compaction("c2", "u2", { firstKeptEntryId: "a1" }),
    user("u3", "c2", "4"),
  ];
  assert.deepEqual(contextTags(entries), ["compactionSummary:summary of c2", "assistant:2", "user:3", "user:4"]);
  const projection = buildSessionProjection(entries);
  assert.deepEqual(projection.entries.map((e) => [e.sourceEntry.id, e.messages.length]), [
    ["c2", 1],
    ["a1", 1],
    ["c1", 0],
    ["u2", 1],
    ["u3", 1],
  ]);
});

test("buildSessionContext() ignores a compaction on another branch", () => {
  const entries = [
    user("u1", null, "1"),
    assistant("a1", "u1", "2"),
    compaction("c1", "a1", { firstKeptEntryId: "c1" }),
    user("u2", "c1", "3"),
    user("u3", "a1", "4"),
  ];
  assert.deepEqual(contextTags(entries), ["user:1", "assistant:2", "user:4"]);
  assert.deepEqual(contextTags(entries, "u2"), ["compactionSummary:summary of c1", "user:3"]);
});

test("buildSessionContext() puts a compaction's systemMessage before its summary", () => {
  const stored = systemMsg("replayed rules", { timestamp: 42 });
  const entries = [system("s0", null, "old"), user("u1", "s0", "1"), compaction("c1", "u1", { firstKeptEntryId: "s0", systemMessage: stored }), user("u2", "c1", "2")];
  const { messages } = buildSessionContext(entries);
  assert.deepEqual(tags(messages), ["system:replayed rules", "compactionSummary:summary of c1", "user:1", "user:2"]);
  assert.equal(messages[0], stored);
});

// ---------------------------------------------------------------- retainedTail (the seeds' checkpoint form)

const tail = [userMsg("latest request"), assistantMsg("latest reply")];

// u1 - a1 - u2 - a2 - C(retainedTail) - u3 - a3
//                   \                \- u4
//                    \- x (fork before the compaction)
function checkpointed(fields: Record<string, unknown> = {}): SessionEntry[] {
  return [
    user("u1", null, "1"),
    assistant("a1", "u1", "2"),
    user("u2", "a1", "3"),
    assistant("a2", "u2", "4"),
    compaction("c1", "a2", { retainedTail: tail, ...fields }),
    user("u3", "c1", "5"),
    assistant("a3", "u3", "6"),
    user("u4", "c1", "7"),
    user("x", "a2", "fork"),
  ];
}

test("buildSessionContext() with retainedTail: summary, then the tail, then what follows; nothing from before", () => {
  const entries = checkpointed();
  assert.deepEqual(contextTags(entries, "a3"), [
    "compactionSummary:summary of c1",
    "user:latest request",
    "assistant:latest reply",
    "user:5",
    "assistant:6",
  ]);
  assert.deepEqual(ids(buildContextEntries(entries, "a3")), ["c1", "u3", "a3"]);
  const { messages } = buildSessionContext(entries, "a3");
  assert.deepEqual(messages.slice(1, 3), tail);
});

test("buildSessionContext() with retainedTail ignores a firstKeptEntryId beside it", () => {
  for (const firstKeptEntryId of ["u1", "a2", "c1"]) {
    assert.deepEqual(contextTags(checkpointed({ firstKeptEntryId }), "u4"), [
      "compactionSummary:summary of c1",
      "user:latest request",
      "assistant:latest reply",
      "user:7",
    ], firstKeptEntryId);
  }
});

test("buildSessionContext() with retainedTail and systemMessage: system, summary, tail", () => {
  const entries = checkpointed({ systemMessage: systemMsg("rules") });
  assert.deepEqual(contextTags(entries, "u4"), [
    "system:rules",
    "compactionSummary:summary of c1",
    "user:latest request",
    "assistant:latest reply",
    "user:7",
  ]);
});

test("buildSessionContext() ignores a checkpoint on another branch that forks before it", () => {
  assert.deepEqual(contextTags(checkpointed(), "x"), ["user:1", "assistant:2", "user:3", "assistant:4", "user:fork"]);
  assert.deepEqual(contextTags(checkpointed()), contextTags(checkpointed(), "x"));
});

test("buildSessionContext() applies a checkpoint on every branch that forks after it", () => {
  const entries = checkpointed();
  const head = ["compactionSummary:summary of c1", "user:latest request", "assistant:latest reply"];
  assert.deepEqual(contextTags(entries, "u4"), [...head, "user:7"]);
  assert.deepEqual(contextTags(entries, "u3"), [...head, "user:5"]);
  assert.deepEqual(contextTags(entries, "c1"), head);
});

test("buildSessionContext() treats an empty retainedTail as a checkpoint that keeps nothing", () => {
  assert.deepEqual(contextTags(checkpointed({ retainedTail: [], firstKeptEntryId: "u1" }), "u4"), [
    "compactionSummary:summary of c1",
    "user:7",
  ]);
});

test("buildSessionContext() patches null content in retainedTail messages", () => {
  const entries = [user("u1", null, "1"), compaction("c1", "u1", { retainedTail: [{ role: "user", content: null, timestamp: 1 }] })];
  assert.deepEqual(buildSessionContext(entries).messages[1], { role: "user", content: [], timestamp: 1 });
});

test("buildSessionContext() keeps an older checkpoint inside a newer compaction's range silent, tail included", () => {
  const entries = [
    user("u1", null, "1"),
    compaction("c1", "u1", { retainedTail: tail }),
    user("u2", "c1", "2"),
    compaction("c2", "u2", { firstKeptEntryId: "c1" }),
    user("u3", "c2", "3"),
  ];
  assert.deepEqual(contextTags(entries), ["compactionSummary:summary of c2", "user:2", "user:3"]);
});

test("buildSessionContext() uses a newer checkpoint over an older firstKeptEntryId compaction", () => {
  const entries = [
    user("u1", null, "1"),
    compaction("c1", "u1", { firstKeptEntryId: "u1" }),
    user("u2", "c1", "2"),
    compaction("c2", "u2", { retainedTail: [userMsg("kept")] }),
    user("u3", "c2", "3"),
  ];
  assert.deepEqual(contextTags(entries), ["compactionSummary:summary of c2", "user:kept", "user:3"]);
});

test("buildSessionContext() falls back to firstKeptEntryId when retainedTail is not an array", () => {
  const entries = [user("u1", null, "1"), compaction("c1", "u1", { retainedTail: "nope", firstKeptEntryId: "u1" }), user("u2", "c1", "2")];
  assert.deepEqual(contextTags(entries), ["compactionSummary:summary of c1", "user:1", "user:2"]);
});

test("sessionEntryToContextMessages() of a checkpoint compaction is its summary followed by its tail", () => {
  const c = compaction("c1", null, { retainedTail: tail, systemMessage: systemMsg("s") });
  assert.deepEqual(tags(sessionEntryToContextMessages(c)), [
    "system:s",
    "compactionSummary:summary of c1",
    "user:latest request",
    "assistant:latest reply",
  ]);
});

// ---------------------------------------------------------------- context edits

test("buildSessionContext() applies a context_edit replacement to its target", () => {
  const entries = [
    user("u1", null, "q"),
    assistant("a1", "u1", "r"),
    toolResult("t1", "a1", "out"),
    customMessage("m1", "t1", "injected"),
    contextEdit("e1", "m1", "u1", { content: "short q" }),
    contextEdit("e2", "e1", "a1", { content: "short r" }),
    contextEdit("e3", "e2", "t1", { content: "short out" }),
    contextEdit("e4", "e3", "m1", { content: "short inj" }),
  ];
  const { messages } = buildSessionContext(entries);
  assert.equal(messages[0].content, "short q");
  assert.deepEqual(messages[1].content, [{ type: "text", text: "short r" }]);
  assert.deepEqual(messages[2].content, [{ type: "text", text: "short out" }]);
  assert.equal(messages[3].content, "short inj");
  assert.equal((messages[1] as { model?: string }).model, "claude-test");
});

test("buildSessionContext() keeps an array replacement as it is", () => {
  const blocks = [{ type: "text", text: "a" }, { type: "text", text: "b" }];
  const entries = [user("u1", null, "q"), assistant("a1", "u1", "r"), contextEdit("e1", "a1", "a1", { content: blocks }), contextEdit("e2", "e1", "u1", { content: blocks })];
  const { messages } = buildSessionContext(entries);
  assert.deepEqual(messages[0].content, blocks);
  assert.deepEqual(messages[1].content, blocks);
});

test("buildSessionContext() omits the target of a context_edit with replacement null", () => {
  const entries = [user("u1", null, "q"), assistant("a1", "u1", "r"), contextEdit("e1", "a1", "u1", null), user("u2", "e1", "q2")];
  assert.deepEqual(contextTags(entries), ["assistant:r", "user:q2"]);
});

test("buildSessionContext() uses the latest context_edit per target", () => {
  const entries = [
    user("u1", null, "q"),
    contextEdit("e1", "u1", "u1", null),
    contextEdit("e2", "e1", "u1", { content: "second" }),
    user("u2", "e2", "x"),
    contextEdit("e3", "u2", "u2", { content: "first" }),
    contextEdit("e4", "e3", "u2", null),
  ];
  assert.deepEqual(contextTags(entries), ["user:second"]);
});

test("buildSessionContext() ignores a context_edit outside the selected range", () => {
  // On another branch.
  const branched = [user("u1", null, "q"), contextEdit("e1", "u1", "u1", { content: "edited" }), assistant("a1", "u1", "r")];
  assert.deepEqual(contextTags(branched), ["user:q", "assistant:r"]);
  // Compacted away, while its target is still kept.
  const compactedAway = [
    user("u1", null, "q"),
    contextEdit("e1", "u1", "a1", { content: "edited" }),
    assistant("a1", "e1", "r"),
    compaction("c1", "a1", { firstKeptEntryId: "a1" }),
  ];
  assert.deepEqual(contextTags(compactedAway), ["compactionSummary:summary of c1", "assistant:r"]);
});

test("buildSessionContext() leaves system and bashExecution targets of a context_edit unchanged", () => {
  const bash = { role: "bashExecution", command: "ls", output: "x", exitCode: 0, cancelled: false, truncated: false, timestamp: 1 };
  const entries = [system("s1", null, "rules"), message("b1", "s1", bash), contextEdit("e1", "b1", "s1", { content: "x" }), contextEdit("e2", "e1", "b1", { content: "y" })];
  const { messages } = buildSessionContext(entries);
  assert.equal(messages[0].content, "rules");
  assert.deepEqual(messages[1], bash);
});

// ---------------------------------------------------------------- settings

test("buildSessionContext() takes thinking level and model from the full path", () => {
  const entries = [
    thinking("t1", null, "high"),
    modelChange("m1", "t1", "openai", "gpt-x"),
    user("u1", "m1", "1"),
    compaction("c1", "u1", { firstKeptEntryId: "c1" }),
    user("u2", "c1", "2"),
  ];
  const context = buildSessionContext(entries);
  assert.equal(context.thinkingLevel, "high");
  assert.deepEqual(context.model, { provider: "openai", modelId: "gpt-x" });
  assert.deepEqual(tags(context.messages), ["compactionSummary:summary of c1", "user:2"]);
});

test("buildSessionContext() lets the later of model_change and assistant message decide the model", () => {
  const assistantAfter = [modelChange("m1", null, "openai", "gpt-x"), assistant("a1", "m1", "r")];
  assert.deepEqual(buildSessionContext(assistantAfter).model, { provider: "anthropic", modelId: "claude-test" });
  const changeAfter = [assistant("a1", null, "r"), modelChange("m1", "a1", "openai", "gpt-x")];
  assert.deepEqual(buildSessionContext(changeAfter).model, { provider: "openai", modelId: "gpt-x" });
});

test("buildSessionContext() reads settings from the leaf's branch only", () => {
  const entries = [user("u1", null, "1"), thinking("t1", "u1", "high"), modelChange("m1", "u1", "x", "y"), user("u2", "t1", "2")];
  assert.equal(buildSessionContext(entries).thinkingLevel, "high");
  assert.equal(buildSessionContext(entries).model, null);
  assert.equal(buildSessionContext(entries, "m1").thinkingLevel, "off");
});

// ---------------------------------------------------------------- entry -> messages

test("sessionEntryToContextMessages() patches null or missing content: '' for system, [] for the main roles", () => {
  const of = (msg: unknown) => sessionEntryToContextMessages(message("m", null, msg))[0];
  assert.deepEqual(of({ role: "system", content: null }), { role: "system", content: "" });
  assert.deepEqual(of({ role: "user", content: null, timestamp: 1 }), { role: "user", content: [], timestamp: 1 });
  assert.deepEqual(of({ role: "assistant" }), { role: "assistant", content: [] });
  assert.deepEqual(of({ role: "toolResult", content: null }), { role: "toolResult", content: [] });
  assert.deepEqual(of({ role: "custom", content: null }), { role: "custom", content: null });
});

test("sessionEntryToContextMessages() turns a custom_message into a custom message with a details key", () => {
  const [msg] = sessionEntryToContextMessages(customMessage("m1", null, "hello", { timestamp: at(5) }));
  assert.deepEqual(msg, { role: "custom", customType: "ext", content: "hello", display: true, details: undefined, timestamp: T0_MS + 5000 });
  assert.equal(Object.hasOwn(msg, "details"), true);
  const [withDetails] = sessionEntryToContextMessages(customMessage("m1", null, null, { details: { a: 1 }, display: false }));
  assert.deepEqual(withDetails.content, []);
  assert.deepEqual(withDetails.details, { a: 1 });
  assert.equal(withDetails.display, false);
});

test("sessionEntryToContextMessages() gives a branch summary only when its summary is not empty", () => {
  assert.deepEqual(sessionEntryToContextMessages(branchSummary("b1", null, "x9", "explored A")), [
    { role: "branchSummary", summary: "explored A", fromId: "x9", timestamp: T0_MS },
  ]);
  assert.deepEqual(sessionEntryToContextMessages(branchSummary("b1", null, "x9", "")), []);
});

test("sessionEntryToContextMessages() gives nothing for entries that are not part of the context", () => {
  for (
    const e of [
      custom("c", null),
      label("l", null, "x", "tag"),
      sessionInfo("i", null, "name"),
      modelChange("m", null, "p", "m"),
      thinking("t", null, "high"),
      contextEdit("e", null, "x", null),
      entry("usage", "u", null, { kind: "warm" }),
      entry("mystery", "z", null),
      message("n", null, null),
    ]
  ) {
    assert.deepEqual(sessionEntryToContextMessages(e), [], e.type);
  }
});

test("buildSessionContext() places a branch summary at its tree position", () => {
  const entries = [user("u1", null, "1"), branchSummary("b1", "u1", "zz", "went elsewhere"), user("u2", "b1", "2")];
  assert.deepEqual(contextTags(entries), ["user:1", "branchSummary:went elsewhere", "user:2"]);
});

// ---------------------------------------------------------------- convertToLlm

function bash(fields: Record<string, unknown>): AgentMessage {
  return { role: "bashExecution", command: "make test", output: "", exitCode: 0, cancelled: false, truncated: false, timestamp: 9, ...fields } as AgentMessage;
}

function llmText(msg: AgentMessage): string {
  const [converted] = convertToLlm([msg]);
  assert.equal(converted.role, "user");
  const content = converted.content as { type: string; text: string }[];
  assert.equal(content.length, 1);
  return content[0].text;
}

test("convertToLlm() renders a bash run with output", () => {
  assert.equal(llmText(bash({ output: "ok\n2 passed" })), "Ran `make test`\n```\nok\n2 passed\n```");
});

test("convertToLlm() renders a bash run without output", () => {
  assert.equal(llmText(bash({ output: "" })), "Ran `make test`\n(no output)");
});

test("convertToLlm() renders a non-zero exit code, but not 0, null or undefined", () => {
  assert.equal(llmText(bash({ output: "boom", exitCode: 2 })), "Ran `make test`\n```\nboom\n```\n\nCommand exited with code 2");
  for (const exitCode of [0, null, undefined]) assert.equal(llmText(bash({ exitCode })), "Ran `make test`\n(no output)");
});

test("convertToLlm() renders a cancelled run, which hides the exit code", () => {
  assert.equal(llmText(bash({ cancelled: true, exitCode: 130 })), "Ran `make test`\n(no output)\n\n(command cancelled)");
});

test("convertToLlm() renders a truncated run only when the full output path is known", () => {
  assert.equal(
    llmText(bash({ output: "…", truncated: true, fullOutputPath: "/tmp/out.txt", exitCode: 1 })),
    "Ran `make test`\n```\n…\n```\n\nCommand exited with code 1\n\n[Output truncated. Full output: /tmp/out.txt]",
  );
  assert.equal(llmText(bash({ truncated: true })), "Ran `make test`\n(no output)");
});

test("convertToLlm() keeps the bash run's timestamp and drops runs excluded from context", () => {
  assert.equal(convertToLlm([bash({})])[0].timestamp, 9);
  assert.deepEqual(convertToLlm([bash({ excludeFromContext: true })]), []);
});

test("convertToLlm() turns a custom message into a user message, string content into a text block", () => {
  const custom = { role: "custom", customType: "ext", content: "note", display: false, details: { x: 1 }, timestamp: 3 } as AgentMessage;
  assert.deepEqual(convertToLlm([custom]), [{ role: "user", content: [{ type: "text", text: "note" }], timestamp: 3 }]);
  const blocks = [{ type: "image", data: "AA==", mimeType: "image/png" }];
  assert.deepEqual(convertToLlm([{ ...custom, content: blocks } as AgentMessage])[0].content, blocks);
});

test("convertToLlm() wraps summaries in pi's exact texts", () => {
  assert.equal(
    COMPACTION_SUMMARY_PREFIX,
    "The conversation history before this point was compacted into the following summary:\n\n<summary>\n",
  );
  assert.equal(COMPACTION_SUMMARY_SUFFIX, "\n</summary>");
  assert.equal(BRANCH_SUMMARY_PREFIX, "The following is a summary of a branch that this conversation came back from:\n\n<summary>\n");
  assert.equal(BRANCH_SUMMARY_SUFFIX, "</summary>");
  const compactionText = llmText({ role: "compactionSummary", summary: "S", tokensBefore: 1, timestamp: 1 } as AgentMessage);
  assert.equal(
    compactionText,
    "The conversation history before this point was compacted into the following summary:\n\n<summary>\nS\n</summary>",
  );
  const branchText = llmText({ role: "branchSummary", summary: "B", fromId: "x", timestamp: 1 } as AgentMessage);
  assert.equal(branchText, "The following is a summary of a branch that this conversation came back from:\n\n<summary>\nB</summary>");
});

test("convertToLlm() passes system, user, assistant and toolResult through as they are", () => {
  const messages = [systemMsg("s"), userMsg("u"), assistantMsg("a"), { role: "toolResult", toolCallId: "c", toolName: "t", content: [], isError: false, timestamp: 1 } as AgentMessage];
  const converted = convertToLlm(messages);
  assert.equal(converted.length, 4);
  converted.forEach((m, i) => assert.equal(m, messages[i]));
});

test("convertToLlm() drops unknown roles", () => {
  const odd = [{ role: "hookMessage", content: "x" }, { role: "narrator" }, {}] as unknown as AgentMessage[];
  assert.deepEqual(convertToLlm([...odd, userMsg("kept")]), [userMsg("kept")]);
});

test("convertToLlm() of a compacted context puts the summary first as user text", () => {
  const converted = convertToLlm(buildSessionContext(compacted).messages);
  assert.deepEqual(converted.map((m) => m.role), ["user", "assistant", "user", "assistant", "system", "user"]);
  assert.match((converted[0].content as { text: string }[])[0].text, /^The conversation history[^]*summary of c1\n<\/summary>$/);
});

/**
 * Every kind of secret, in every place an export puts session text: the HTML page (its data
 * blocks, as the viewer decodes them, and the raw page), Markdown, JSONL, JSON and NDJSON. Each
 * kind is tried as written and with its first characters spelled as JSON `\u` escapes, which
 * the viewer decodes; no output may hold the secret, nor anything that decodes to it. Ordinary
 * text (words, git hashes) comes through every format unchanged.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { addSession, memoryFs, readText, runCli } from "../cli/_harness.ts";
import { at, entry, header } from "../core/_builders.ts";
import { SECRET_RULES } from "../../src/core/redact/mod.ts";
import { NEW_KINDS } from "../core/redact/_secret-cases.ts";
import { parseHtmlExport } from "./_fixture.ts";

const ID = "places-1";

/** [kind, text, expected when masked alone]: one case per kind, issue 16's kinds, and the issue's own escaped token. */
const CASES: [string, string, string][] = [
  ["openai-key", "key: sk-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb3dEf6hIj9kLm2n end", "key: sk-…[redacted openai key] end"],
  ["anthropic-key", "sk-ant-api03-AbCdEfGh1234567890abcdefghijKLMNOP-xyz_AA", "sk-ant-…[redacted anthropic key]"],
  ["github-token", "token ghp_1234567890abcdefghijABCDEFGHIJklmnop12", "token ghp_…[redacted github token]"],
  ["slack-token", "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx", "xoxb-…[redacted slack token]"],
  ["google-api-key", "AIzaSyA1234567890abcdefghijklmnopqrstuv", "AIza…[redacted google api key]"],
  ["aws-access-key-id", "id AKIAIOSFODNN7EXAMPLE,", "id AKIA…[redacted aws access key id],"],
  ["aws-secret-key", "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws_secret_access_key = …[redacted aws secret key]"],
  ["jwt", "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "eyJ…[redacted jwt]"],
  ["bearer-token", "Authorization: Bearer abcdef1234567890ABCDEF.ghij", "Authorization: Bearer …[redacted bearer token]"],
  ["private-key", "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----", "-----BEGIN PRIVATE KEY-----…[redacted private key]"],
  ["env-secret", "DATABASE_PASSWORD=hunter2xyz", "DATABASE_PASSWORD=…[redacted secret value]"],
  ["url-password", "postgres://admin:s3cr3tP4ss@db.example.com:5432/app", "postgres://admin:…[redacted url password]@db.example.com:5432/app"],
  ...NEW_KINDS,
];

/** Ordinary text no format may change (it looks a little like several rules). */
const ORDINARY = [
  "commit 3f786850e387550fdab836ed7e6dc881de23001b fixes it; see /3f786850e387550fdab836ed7e6dc881de23001b",
  "The token limit and the password field: max_tokens=4096, token = tokens[0], const token = await getToken()",
  "skip_live_reload, npm_config_cache, hf_hub_download, the SG. prefix, https://example.com:8443/users/@me",
];

/** The part of `input` a mask replaced: what no output may show. */
function secretOf(input: string, expected: string): string {
  let start = 0;
  while (start < input.length && input[start] === expected[start]) start++;
  let end = 0;
  while (end < input.length - start && input[input.length - 1 - end] === expected[expected.length - 1 - end]) end++;
  return input.slice(start, input.length - end);
}

/** The label a mask of this kind shows. */
const labelOf = (kind: string) => SECRET_RULES.find((rule) => rule.kind === kind)!.label;

/** A user message and a tool result holding `text`, as session lines. */
function sessionLines(text: string): string[] {
  const user = entry("message", "u0000001", null, { message: { role: "user", content: [{ type: "text", text: `see ${text} ok` }], timestamp: 1 } }, { timestamp: at(1) });
  const result = entry("message", "r0000001", "u0000001", {
    message: { role: "toolResult", toolCallId: "c1", toolName: "bash", content: [{ type: "text", text: `$ cat .env\n${text}\n` }], isError: false, timestamp: 2 },
  }, { timestamp: at(2) });
  return [JSON.stringify(header(ID, 3)), JSON.stringify(user), JSON.stringify(result)];
}

/** `text` as JSON string content with the characters from the start of its token to 4 into `secret` as `\u` escapes. */
function escapeStart(line: string, secret: string): string {
  const json = JSON.stringify(secret).slice(1, -1);
  const at = line.indexOf(json);
  assert.ok(at > 0, "the secret is in the line as written");
  let from = at;
  while (from > 0 && !/[\s"]/.test(line[from - 1]) && line.slice(from - 2, from) !== "\\n") from--;
  // Only plain characters are escaped (a `\"` in the line stays as it is).
  let out = "";
  for (let i = from; i < at + 4; i++) out += /["\\]/.test(line[i]) ? line[i] : `\\u${line.charCodeAt(i).toString(16).padStart(4, "0")}`;
  return line.slice(0, from) + out + line.slice(at + 4);
}

/** What a reader of an output sees: `\uXXXX` escapes decoded wherever they are. */
function decodeEscapes(text: string): string {
  return text.replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

const FORMATS: { format: string; args: string[] }[] = [
  { format: "html", args: [] },
  { format: "markdown", args: [] },
  { format: "jsonl", args: ["--redact"] },
  { format: "json", args: ["--redact"] },
  { format: "ndjson", args: ["--redact"] },
];

/** Each format's output of the session, as raw text and as its reader decodes it. */
async function exportAll(lines: string[]): Promise<{ format: string; raw: string; decoded: string }[]> {
  const fs = memoryFs();
  await addSession(fs, ID, [], { text: lines.join("\n") + "\n" });
  const outputs = [];
  for (const { format, args } of FORMATS) {
    const run = await runCli(["export", ID, "--format", format, ...args, "-o", `out.${format}`, "--mkdir"], { fs });
    assert.equal(run.code, 0, `${format}: ${run.stderr}`);
    const raw = await readText(fs, `out.${format}`);
    let decoded = raw;
    if (format === "html") {
      const page = parseHtmlExport(raw);
      // What the viewer shows is the strings of the entries: collect them.
      const strings: string[] = [];
      const walk = (value: unknown): void => {
        if (typeof value === "string") strings.push(value);
        else if (value && typeof value === "object") for (const v of Object.values(value)) walk(v);
      };
      walk(page.entries);
      walk(page.meta);
      decoded = strings.join("\n");
    } else if (format !== "markdown") {
      decoded = decodeEscapes(raw);
    }
    outputs.push({ format, raw, decoded });
  }
  return outputs;
}

describe("export masks every kind of secret in every format", () => {
  it("the table has a case for every rule", () => {
    const covered = new Set(CASES.map(([kind]) => kind));
    for (const rule of SECRET_RULES) assert.ok(covered.has(rule.kind), rule.kind);
  });

  for (const [kind, text, expected] of CASES) {
    const secret = secretOf(text, expected);
    for (const escaped of [false, true]) {
      it(`${kind}${escaped ? " behind \\u escapes" : ""}: ${JSON.stringify(text.slice(0, 36))}`, async () => {
        let lines = sessionLines(text);
        if (escaped) lines = lines.map((line, n) => (n === 0 ? line : escapeStart(line, secret)));
        if (escaped) assert.ok(lines.every((line) => !line.includes(JSON.stringify(secret).slice(1, -1))), "the start of the secret is escaped");
        for (const { format, raw, decoded } of await exportAll(lines)) {
          assert.ok(!decoded.includes(secret), `${format} shows the ${kind}`);
          assert.ok(!decodeEscapes(raw).includes(JSON.stringify(secret).slice(1, -1)) && !decodeEscapes(raw).includes(secret), `${format} holds what decodes to the ${kind}`);
          assert.ok(decoded.includes(`redacted ${labelOf(kind)}`), `${format} says a ${labelOf(kind)} was masked`);
        }
      });
    }
  }

  it("the issue's token, every character of its prefix escaped (\\u0067\\u0068\\u0070\\u005f…), is masked in the HTML page", async () => {
    const token = "ghp_1234567890abcdefghijABCDEFGHIJklmnop12";
    const lines = sessionLines(`token ${token}`).map((line, n) => (n === 0 ? line : line.replace("ghp_", "\\u0067\\u0068\\u0070\\u005f")));
    const [html] = await exportAll(lines);
    assert.ok(!html.decoded.includes("1234567890abcdefghij"), "the page shows the token");
    assert.ok(html.decoded.includes("ghp_…[redacted github token]"));
  });

  it("a secret under a JSON key of a tool call's arguments (password, api_key) is masked in every format", async () => {
    const [head, user] = sessionLines("run it");
    const call = entry("message", "a0000001", "u0000001", {
      message: { role: "assistant", content: [{ type: "toolCall", id: "c1", name: "login", arguments: { user: "bob", password: "hunter2!x", api_key: "k3yV4lu3abc" } }], timestamp: 2 },
    }, { timestamp: at(2) });
    for (const { format, raw, decoded } of await exportAll([head, user, JSON.stringify(call)])) {
      for (const secret of ["hunter2!x", "k3yV4lu3abc"]) assert.ok(!decoded.includes(secret) && !decodeEscapes(raw).includes(secret), `${format} shows ${secret}`);
    }
  });

  it("leaves ordinary text alone in every format", async () => {
    for (const text of ORDINARY) {
      for (const { format, decoded } of await exportAll(sessionLines(text))) {
        const shown = format === "markdown" ? decoded.replace(/\\([_*[\]`<>#])/g, "$1") : decoded;
        assert.ok(shown.includes(text.split(",")[0]), `${format} changed ${JSON.stringify(text.slice(0, 30))}`);
        assert.ok(!decoded.includes("…[redacted"), `${format} masked something in ${JSON.stringify(text.slice(0, 30))}`);
      }
    }
  });
});

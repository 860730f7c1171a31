/**
 * Redaction rules as tables: every kind is masked with its prefix and name, ordinary text
 * (hashes, ids, base64 images, words like "token") survives, and the byte-level line test
 * flags every line a rule would change (it may flag more, never less).
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { NEW_KINDS } from "./_secret-cases.ts";
import { describeRedactions, LINE_HAS_LESS_THAN, LINE_HAS_WORD, LINE_MAY_HOLD_SECRET, lineMayHoldSecret, LineWords, Redactor, scanLine, SECRET_RULES } from "../../../src/core/redact/mod.ts";

/** [kind, input, expected output]. Secrets are made up; none is real. */
const POSITIVES: [string, string, string][] = [
  ["openai-key", "key: sk-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb3dEf6hIj9kLm2n end", "key: sk-…[redacted openai key] end"],
  ["openai-key", "OPENAI=sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8t_Uv1wXy4z-Zz", "OPENAI=sk-proj-…[redacted openai key]"],
  ["anthropic-key", "sk-ant-api03-AbCdEfGh1234567890abcdefghijKLMNOP-xyz_AA", "sk-ant-…[redacted anthropic key]"],
  ["aws-access-key-id", "id AKIAIOSFODNN7EXAMPLE,", "id AKIA…[redacted aws access key id],"],
  ["aws-access-key-id", '"ASIAY34FZKBOKMUTVV7A"', '"ASIA…[redacted aws access key id]"'],
  ["aws-secret-key", "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws_secret_access_key = …[redacted aws secret key]"],
  ["aws-secret-key", '"SecretAccessKey": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"', '"SecretAccessKey": "…[redacted aws secret key]"'],
  ["github-token", "token ghp_1234567890abcdefghijABCDEFGHIJklmnop12", "token ghp_…[redacted github token]"],
  ["github-token", "gho_16C7e42F292c6912E7710c838347Ae178B4a", "gho_…[redacted github token]"],
  ["github-token", "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz", "github_pat_…[redacted github token]"],
  ["slack-token", "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx", "xoxb-…[redacted slack token]"],
  ["google-api-key", "AIzaSyA1234567890abcdefghijklmnopqrstuv", "AIza…[redacted google api key]"],
  [
    "jwt",
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    "eyJ…[redacted jwt]",
  ],
  ["bearer-token", "Authorization: Bearer abcdef1234567890ABCDEF.ghij", "Authorization: Bearer …[redacted bearer token]"],
  ["bearer-token", "-H 'authorization: bearer 9f8e7d6c5b4a39281706f5e4d3c2b1a0'", "-H 'authorization: bearer …[redacted bearer token]'"],
  [
    "private-key",
    "x\n-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA1234\nabcd==\n-----END RSA PRIVATE KEY-----\ny",
    "x\n-----BEGIN RSA PRIVATE KEY-----…[redacted private key]\ny",
  ],
  ["private-key", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\nAAAA", "-----BEGIN OPENSSH PRIVATE KEY-----…[redacted private key]"],
  ["private-key", "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----", "-----BEGIN PRIVATE KEY-----…[redacted private key]"],
  ["env-secret", "DATABASE_PASSWORD=hunter2xyz\nPORT=3000", "DATABASE_PASSWORD=…[redacted secret value]\nPORT=3000"],
  ["env-secret", 'export STRIPE_SECRET="rk_live_51Habc"', 'export STRIPE_SECRET="…[redacted secret value]"'],
  ["env-secret", "OPENAI_API_KEY = abc123def456", "OPENAI_API_KEY = …[redacted secret value]"],
  ["env-secret", "TOKEN=abcd1234", "TOKEN=…[redacted secret value]"],
  ["url-password", "postgres://admin:s3cr3tP4ss@db.example.com:5432/app", "postgres://admin:…[redacted url password]@db.example.com:5432/app"],
  ["url-password", "git clone https://bob:hunter2@git.example.com/x.git", "git clone https://bob:…[redacted url password]@git.example.com/x.git"],
  ...NEW_KINDS.map(([kind, input, expected]) => [kind, input, expected] as [string, string, string]),
];

/** Ordinary text that must come through unchanged. */
const NEGATIVES: string[] = [
  "commit 3f786850e387550fdab836ed7e6dc881de23001b fixes it",
  "id 123e4567-e89b-12d3-a456-426614174000 and sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
  "The token limit and the API key settings are explained in the docs; pass your key via the KEY variable.",
  "max_tokens=4096 MAX_TOKENS = 4096 TOKEN_LIMIT=5 num_token=5",
  "const API_KEY = process.env.API_KEY; export GITHUB_TOKEN=$(gh auth token); PASSWORD=${PASSWORD}",
  "task-runner-configuration-for-production and disk-usage-report-generation",
  "sk-learn-is-great-for-machine-learning-tasks",
  "Bearer token authentication uses the Authorization header",
  "https://github.com/owner/repo and git@github.com:owner/repo.git and mailto:a@b.com",
  "postgres://user:${DB_PASSWORD}@localhost/db and https://user:<password>@host",
  "the ASK is AKIA-style but not a key: AKIAIOSFODNN7",
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "entry ids a1b2c3d4, 0f9e8d7c; label:before-refactor; model claude-sonnet-4-20250514",
  "=== RUN TestSecretAccessKeyRotation\n--- PASS",
  // Issue 16's kinds: what looks like them in code and text is left alone.
  "https://example.com:8443/users/@me/repos and http://localhost:3000/u/bob@example.com",
  "const token = await getToken(); token = tokens[0]; token=config.token; password = input(prompt)",
  "skip_live_reload=true and risk_test_suite, npm_config_cache=/tmp, hf_hub_download(repo_id), hf_transfer",
  "task_description SG.x glpat-short the password field and the api_key setting",
  '{"password": "<your password>", "api_key": "${API_KEY}", "passwordHint": "abc123"}',
  "https://hooks.slack.com/services/ is where webhooks go",
  "a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0 /3f786850e387550fdab836ed7e6dc881de23001b",
];

describe("Redactor", () => {
  for (const [kind, input, expected] of POSITIVES) {
    it(`Redactor.text() masks a ${kind}: ${JSON.stringify(input.slice(0, 40))}`, () => {
      const redactor = new Redactor();
      assert.equal(redactor.text(input), expected);
      assert.deepEqual(redactor.summary().map((c) => c.kind), [kind]);
    });
  }

  it("every rule has a positive case in the table", () => {
    const covered = new Set(POSITIVES.map(([kind]) => kind));
    for (const rule of SECRET_RULES) assert.ok(covered.has(rule.kind), rule.kind);
  });

  for (const input of NEGATIVES) {
    it(`Redactor.text() leaves ordinary text alone: ${JSON.stringify(input.slice(0, 40))}`, () => {
      const redactor = new Redactor();
      assert.equal(redactor.text(input), input);
      assert.equal(redactor.total, 0);
    });
  }

  it("Redactor.text() does not mask a mask again", () => {
    const redactor = new Redactor();
    const once = redactor.text("Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N");
    assert.equal(once, "Authorization: Bearer eyJ…[redacted jwt]");
    assert.equal(redactor.text(once), once);
    assert.equal(redactor.total, 1);
  });

  it("Redactor.value() masks every string of a message but keeps image data and the input intact", () => {
    const image = "QUtJQUlPU0ZPRE5ON0VYQU1QTEVBS0lBSU9TRk9ETk43RVhBTVBMRQ==AKIAIOSFODNN7EXAMPLE";
    const entry = {
      type: "message",
      message: {
        role: "toolResult",
        content: [{ type: "text", text: "TOKEN=abcd1234" }, { type: "image", data: image, mimeType: "image/png" }],
        details: { nested: ["sk-ant-api03-AbCdEfGh1234567890abcdefghijKLMNOP"] },
      },
    };
    const copy = JSON.parse(JSON.stringify(entry));
    const out = new Redactor().value(entry);
    assert.deepEqual(entry, copy);
    assert.equal(out.message.content[0].text, "TOKEN=…[redacted secret value]");
    assert.equal(out.message.content[1].data, image);
    assert.equal(out.message.details.nested[0], "sk-ant-…[redacted anthropic key]");
  });

  it("Redactor.value() masks the whole string under a secret key (a tool call's arguments), not placeholders or other keys", () => {
    const redactor = new Redactor();
    const args = { password: "hunter2!x", Client_Secret: "abc123def", api_key: "${API_KEY}", passwordHint: "abc123", token_count: "12345", pwd: "/home/u" };
    assert.deepEqual(redactor.value({ type: "toolCall", arguments: args }).arguments, { ...args, password: "…[redacted json secret]", Client_Secret: "…[redacted json secret]" });
    assert.deepEqual(redactor.summary(), [{ kind: "json-secret", label: "json secret", count: 2 }]);
    assert.equal(new Redactor({ secrets: false }).value(args).password, "hunter2!x");
    for (const line of ['{"arguments":{"password":"hunter2!x"}}', '{"a":{"Client_Secret":"abc123def"}}', '{"a":{"refresh_token":"abc123def"}}']) {
      assert.equal(lineMayHoldSecret(new TextEncoder().encode(line)), true, line);
    }
  });

  it("Redactor with paths replaces the home directory and the user name, not longer words", () => {
    const redactor = new Redactor({ secrets: false, paths: { home: "/home/alice", user: "alice" } });
    assert.equal(redactor.text("cd /home/alice/proj; whoami: alice; alicex /home/alice2"), "cd ~/proj; whoami: [user]; alicex /home/alice2");
    assert.deepEqual(redactor.summary().map((c) => [c.kind, c.count]), [["home-directory", 1], ["user-name", 1]]);
    assert.equal(redactor.text("sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"), "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z");
  });

  it("Redactor with paths makes /root/x into ~/x when the home is /root, not /srv/root, and leaves the word root", () => {
    const redactor = new Redactor({ secrets: false, paths: { home: "/root", user: "root" } });
    assert.equal(redactor.text("cd /root/x; ls /root; /srv/root/y; the project root"), "cd ~/x; ls ~; /srv/root/y; the project root");
    assert.equal(new Redactor({ secrets: false, paths: { home: "/", user: "me" } }).text("/usr/bin"), "/usr/bin");
  });

  it("describeRedactions() lists counts by kind", () => {
    const redactor = new Redactor();
    redactor.text("TOKEN=abcd1234 SECRET=abcd1234 AKIAIOSFODNN7EXAMPLE");
    assert.equal(describeRedactions(redactor.summary()), "2 secret value, 1 aws access key id");
  });
});

describe("lineMayHoldSecret()", () => {
  const encode = (text: string) => new TextEncoder().encode(JSON.stringify({ type: "message", text }));
  for (const [kind, input] of POSITIVES) {
    it(`flags the JSON line of a ${kind}`, () => assert.equal(lineMayHoldSecret(encode(input)), true));
  }
  it("flags secrets behind JSON escapes (\\t before =, \\/ in URLs)", () => {
    assert.equal(lineMayHoldSecret(new TextEncoder().encode('{"t":"API_TOKEN\\t=abcd1234"}')), true);
    assert.equal(lineMayHoldSecret(new TextEncoder().encode('{"t":"https:\\/\\/bob:hunter2@git.example.com"}')), true);
  });
  it("flags a line whose secret starts with \\u escapes of ASCII, not one with escaped control characters", () => {
    const escaped = '{"t":"\\u0067\\u0068\\u0070\\u005f1234567890abcdefghijABCDEFGHIJklmnop12"}';
    assert.equal(lineMayHoldSecret(new TextEncoder().encode(escaped)), true);
    assert.equal(lineMayHoldSecret(new TextEncoder().encode('{"t":"API_TOKEN\\u0009=abcd1234"}')), true);
    assert.equal(lineMayHoldSecret(new TextEncoder().encode('{"t":"\\u001b[31mred\\u001b[0m \\u00e9t\\u00e9 \\n \\"q\\""}')), false);
  });
  it("lets ordinary lines through", () => {
    for (const text of ["hello world", "commit 3f786850e387550fdab836ed7e6dc881de23001b", "totalTokens and cacheRead", "a = b + c"]) {
      assert.equal(lineMayHoldSecret(encode(text)), false, text);
    }
  });
});

describe("scanLine() and Redactor.scan()", () => {
  const encode = (text: string) => new TextEncoder().encode(text);
  const words = new LineWords([encode("ann"), encode("<x")]);
  it("finds a word anywhere in the same pass, and says so apart from secrets and `<`", () => {
    for (const [line, flags] of [
      ['{"cwd":"/home/ann"}', LINE_HAS_WORD],
      ['ann at the start', LINE_HAS_WORD],
      ['{"t":"an an a nn"}', 0],
      ['{"t":"<x> and <b>"}', LINE_HAS_WORD | LINE_HAS_LESS_THAN],
      ['{"t":"<b> for ann"}', LINE_HAS_WORD | LINE_HAS_LESS_THAN],
      ['{"t":"ann: sk-abcdefghijklmnopqrstuvwx <"}', LINE_HAS_WORD | LINE_MAY_HOLD_SECRET | LINE_HAS_LESS_THAN],
    ] as const) {
      assert.equal(scanLine(encode(line), words), flags, line);
    }
    assert.equal(scanLine(encode('{"cwd":"/home/ann"}')), 0, "no words given: none found");
  });
  it("a redactor may change exactly the lines with a likely secret or its user's names", () => {
    const both = new Redactor({ paths: { home: "/home/ann", user: "ann" } });
    const pathsOnly = new Redactor({ secrets: false, paths: { home: "/home/ann", user: "ann" } });
    const secretsOnly = new Redactor();
    const lines = { path: '{"cwd":"/home/ann/x"}', secret: '{"t":"TOKEN=abcd1234"}', plain: '{"t":"hello"}' };
    assert.deepEqual(Object.values(lines).map((l) => both.lineMayChange(encode(l))), [true, true, false]);
    assert.deepEqual(Object.values(lines).map((l) => pathsOnly.lineMayChange(encode(l))), [true, false, false]);
    assert.deepEqual(Object.values(lines).map((l) => secretsOnly.lineMayChange(encode(l))), [false, true, false]);
    assert.equal(pathsOnly.scan(encode(lines.plain)) & LINE_HAS_LESS_THAN, LINE_HAS_LESS_THAN, "unscanned: a `<` is assumed");
  });
});

/**
 * The kinds of secret that exports mask, as data: a pattern per kind, the part of the match
 * kept for context (`Bearer `, `https://user:`), and the short prefix of the secret itself
 * that stays readable (`sk-`, `AKIA`, `ghp_`). Patterns favour precision: a git SHA, a UUID,
 * base64 image data or the word "token" must never match.
 * @module
 */

/** One kind of secret. */
export interface SecretRule {
  /** Stable id, e.g. `openai-key`. */
  kind: string;
  /** Words for people, shown in the mask: `sk-…[redacted openai key]`. */
  label: string;
  /**
   * A global pattern with two groups: 1 is context kept as is (may be empty), 2 is the secret.
   * What follows group 2 should be a lookahead, so it stays too.
   */
  pattern: RegExp;
  /** The start of the secret that stays visible. */
  keep(secret: string): string;
  /** Second look at a match, for what a pattern cannot say (e.g. "has a digit"); `context` is group 1. */
  accept?(secret: string, context: string): boolean;
}

/** A mask already in place; never mask a mask. */
export const MASK_MARK = "…[redacted ";

/** Random-looking: letters and digits both; kebab-case words and version strings fail. */
function hasDigitAndLetter(secret: string): boolean {
  return /\d/.test(secret) && /[A-Za-z]/.test(secret);
}

function notMasked(secret: string): boolean {
  return !secret.includes("…");
}

const none = () => "";

/** Mixed case: an identifier like `hf_hub_download_model_file_name` is not a token. */
function hasUpperAndLower(secret: string): boolean {
  return /[a-z]/.test(secret) && /[A-Z]/.test(secret);
}

/** A port and a path (`host:8080/users/@me`), not a password. */
function notPortAndPath(secret: string): boolean {
  return !/^\d{1,5}(?:[/?#]|$)/.test(secret) && notPlaceholder(secret);
}

/**
 * `token=…` in code: a quoted value that is not a placeholder, or a bare one that looks random
 * (letters and digits) and not like code (`tokens[0]`, `getToken()`, `config.token`).
 */
function assignedValue(secret: string, context: string): boolean {
  if (!notPlaceholder(secret)) return false;
  if (/["']$/.test(context)) return true;
  return hasDigitAndLetter(secret) && !/[.([{$<>]/.test(secret);
}

/** Values that are references or placeholders, not secrets: `$VAR`, `${x}`, `<token>`, references into the process environment, `***`. */
function notPlaceholder(secret: string): boolean {
  if (/^[$({<%=*]/.test(secret) || /^x+$/i.test(secret)) return false;
  if (/^(?:process\.env|os\.environ|os\.getenv|env\.|Deno\.env|import\.meta)/.test(secret)) return false;
  return notMasked(secret) && !secret.includes("(");
}

/** The keys whose JSON string values are secrets, as a pattern's alternatives. */
const JSON_SECRET_KEYS = "password|passwd|client_secret|api_key|secret_key|private_key|access_token|refresh_token|auth_token";
const JSON_SECRET_KIND = "json-secret";
const JSON_SECRET_LABEL = "json secret";
const JSON_SECRET_KEY = new RegExp(`^(?:${JSON_SECRET_KEYS})$`, "i");

/**
 * The rule for a string stored under `key` in a JSON object (a tool call's `{"password": …}`):
 * the whole value is the secret. Undefined for other keys, placeholders and short values.
 */
export function keyedSecretRule(key: string, value: string): SecretRule | undefined {
  if (!JSON_SECRET_KEY.test(key) || value.length < 4 || !notPlaceholder(value)) return undefined;
  return SECRET_RULES.find((rule) => rule.kind === JSON_SECRET_KIND);
}

/** Every rule, most specific first (a JWT inside a `Bearer` header is counted as a JWT). */
export const SECRET_RULES: readonly SecretRule[] = [
  {
    kind: "private-key",
    label: "private key",
    // Without an END line (cut off), the base64 body that follows is still masked.
    pattern:
      /(-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----)([\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|(?:[ \t]*\r?\n[A-Za-z0-9+/=:\- \t]*)+)/g,
    keep: none,
  },
  {
    kind: "jwt",
    label: "jwt",
    pattern: /()(?<![\w-])(eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})/g,
    keep: () => "eyJ",
  },
  {
    kind: "anthropic-key",
    label: "anthropic key",
    pattern: /()(?<![\w-])(sk-ant-[A-Za-z0-9_-]{20,})/g,
    keep: () => "sk-ant-",
    accept: hasDigitAndLetter,
  },
  {
    kind: "openai-key",
    label: "openai key",
    pattern: /()(?<![\w-])(sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,})/g,
    keep: (secret) => /^sk-(?:proj-|svcacct-|admin-)?/.exec(secret)![0],
    accept: hasDigitAndLetter,
  },
  {
    kind: "github-token",
    label: "github token",
    pattern: /()(?<![A-Za-z0-9_])(gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{20,})/g,
    keep: (secret) => (secret.startsWith("github_pat_") ? "github_pat_" : secret.slice(0, 4)),
  },
  {
    kind: "slack-token",
    label: "slack token",
    pattern: /()(?<![A-Za-z0-9-])(xox[abposer]-[A-Za-z0-9-]{10,})/g,
    keep: (secret) => secret.slice(0, 5),
    accept: hasDigitAndLetter,
  },
  {
    kind: "google-api-key",
    label: "google api key",
    pattern: /()(?<![\w-])(AIza[0-9A-Za-z_-]{35})(?![\w-])/g,
    keep: () => "AIza",
  },
  {
    kind: "stripe-key",
    label: "stripe key",
    pattern: /()(?<![A-Za-z0-9_])((?:sk|rk)_(?:live|test)_[A-Za-z0-9]{20,})/g,
    keep: (secret) => secret.slice(0, 8),
    accept: hasDigitAndLetter,
  },
  {
    kind: "npm-token",
    label: "npm token",
    pattern: /()(?<![A-Za-z0-9_])(npm_[A-Za-z0-9]{36})(?![A-Za-z0-9])/g,
    keep: () => "npm_",
    accept: hasDigitAndLetter,
  },
  {
    kind: "huggingface-token",
    label: "hugging face token",
    pattern: /()(?<![A-Za-z0-9_])(hf_[A-Za-z0-9]{30,})(?![A-Za-z0-9])/g,
    keep: () => "hf_",
    accept: hasUpperAndLower,
  },
  {
    kind: "gitlab-token",
    label: "gitlab token",
    pattern: /()(?<![\w-])(glpat-[A-Za-z0-9_-]{20,})/g,
    keep: () => "glpat-",
  },
  {
    kind: "sendgrid-key",
    label: "sendgrid key",
    pattern: /()(?<![\w-])(SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43})(?![\w-])/g,
    keep: () => "SG.",
  },
  {
    kind: "slack-webhook",
    label: "slack webhook",
    pattern: /(\bhttps?:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/)([A-Za-z0-9_/-]{20,})/g,
    keep: none,
  },
  {
    kind: "aws-access-key-id",
    label: "aws access key id",
    // Right after a `/` too (`s3://bucket/AKIA…`); a run of base64 is bounded by `+` as often.
    pattern: /()(?<![A-Za-z0-9+])((?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16})(?![A-Za-z0-9+])/g,
    keep: (secret) => secret.slice(0, 4),
  },
  {
    kind: "aws-secret-key",
    label: "aws secret key",
    pattern: /((?:aws_?)?secret_?access_?key["']?[ \t]*[:=][ \t]*["']?)([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/gi,
    keep: none,
  },
  {
    kind: "bearer-token",
    label: "bearer token",
    pattern: /(\bbearer[ \t]+)([A-Za-z0-9._~+/-]{16,}=*)/gi,
    keep: none,
    accept: (secret) => /\d/.test(secret) && notMasked(secret),
  },
  {
    kind: "url-password",
    label: "url password",
    // The user may be empty (`redis://:pass@host`). The password may hold `@` and `/`: it ends
    // at the last `@` before a query or a space that is followed by a host and the end of the
    // authority; a path with an `@` is masked with it rather than a password cut short.
    pattern: /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:@/?#"'<>]*:)([^\s"'<>?#]+)(?=@[^\s@/?#"'<>\\]+(?:[/?#\s"'<>\\]|$))/gi,
    keep: none,
    accept: notPortAndPath,
  },
  {
    kind: "env-secret",
    label: "secret value",
    // `.env` style: an UPPER_SNAKE name ending in a secret word, `=`, a value.
    pattern:
      /(?<![A-Za-z0-9_])((?:export[ \t]+)?(?:[A-Z][A-Z0-9_]*)?(?:SECRET|TOKEN|PASSWORD|PASSWD|PWD|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIALS?|AUTH)[ \t]*=[ \t]*["']?)([^\s"'`#;,]{4,})/g,
    keep: none,
    accept: notPlaceholder,
  },
  {
    kind: "env-secret",
    label: "secret value",
    // The same in code, lower case: `api_key = "…"`, `token=…` (not `max_tokens=`, `tokens[0]`).
    pattern:
      /(?<![A-Za-z0-9_])((?:[a-z][a-z0-9_]*_)?(?:secret|token|password|passwd|api_?key|access_?key|secret_?key|private_?key)[ \t]*=[ \t]*["']?)([^\s"'`#;,]{4,})/g,
    keep: none,
    accept: assignedValue,
  },
  {
    kind: JSON_SECRET_KIND,
    label: JSON_SECRET_LABEL,
    // `"password": "…"` in JSON shown as text (a tool's output, a config file read).
    pattern: new RegExp(`("(?:${JSON_SECRET_KEYS})"[ \\t]*:[ \\t]*")((?:[^"\\\\\\n]|\\\\.){4,})(?=")`, "gi"),
    keep: none,
    accept: notPlaceholder,
  },
];

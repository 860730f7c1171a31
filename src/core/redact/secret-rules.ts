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
  /** Second look at a match, for what a pattern cannot say (e.g. "has a digit"). */
  accept?(secret: string): boolean;
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

/** Values that are references or placeholders, not secrets: `$VAR`, `${x}`, `<token>`, references into the process environment, `***`. */
function notPlaceholder(secret: string): boolean {
  if (/^[$({<%=*]/.test(secret) || /^x+$/i.test(secret)) return false;
  if (/^(?:process\.env|os\.environ|os\.getenv|env\.|Deno\.env|import\.meta)/.test(secret)) return false;
  return notMasked(secret) && !secret.includes("(");
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
    kind: "aws-access-key-id",
    label: "aws access key id",
    pattern: /()(?<![A-Za-z0-9/+])((?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16})(?![A-Za-z0-9/+])/g,
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
    pattern: /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:@/?#"'<>]+:)([^\s@/?#"'<>]+)(?=@)/gi,
    keep: none,
    accept: notPlaceholder,
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
];

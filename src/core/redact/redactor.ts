/**
 * Masks secrets (and, if asked, the home directory and user name) in text and in whole JSON
 * values, counting what it masked per kind. Image data is left alone: base64 is not text,
 * and a random run of it must not be "found" as a key.
 * @module
 */
import { LINE_HAS_LESS_THAN, LINE_HAS_WORD, LINE_MAY_HOLD_SECRET, LineWords, scanLine } from "./line-scan.ts";
import { keyedSecretRule, MASK_MARK, SECRET_RULES, type SecretRule } from "./secret-rules.ts";

export interface RedactOptions {
  /** Mask secrets (the default). */
  secrets?: boolean;
  /** Replace the home directory with `~` and the user name with `[user]`. */
  paths?: { home: string; user?: string };
}

/** How many values of one kind were masked. */
export interface RedactionCount {
  kind: string;
  label: string;
  count: number;
}

/** A cheap first test: a string none of whose rules could match is returned untouched. */
const SECRET_HINT =
  /sk-|A[KS]IA|ABIA|ACCA|AIza|gh[pousr]_|github_pat_|xox[abposer]-|eyJ|bearer|PRIVATE KEY|secret_?access_?key|:\/\/[^\s@]*@|(?:SECRET|TOKEN|PASSWORD|PASSWD|PWD|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|KEY|CREDENTIALS?|AUTH)[ \t]*=|[sr]k_(?:live|test)_|npm_|hf_|glpat-|SG\.|hooks\.slack\.com|(?:password|passwd|secret|_key|_token)"[ \t]*:/i;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

interface PathRule {
  kind: string;
  label: string;
  pattern: RegExp;
  replacement: string;
}

function pathRules(paths: { home: string; user?: string }): PathRule[] {
  const rules: PathRule[] = [];
  const home = paths.home.replace(/[/\\]+$/, "");
  // "/" alone (or "C:\\") would turn every absolute path into "~"; a one-segment home such as
  // /root is fine, as long as it is not the tail of a longer path (/srv/root).
  if (home.split(/[/\\]/).filter(Boolean).length >= (/^[A-Za-z]:/.test(home) ? 2 : 1)) {
    const source = home.split(/[/\\]+/).map(escapeRegExp).join("[/\\\\]+");
    rules.push({ kind: "home-directory", label: "home directory", pattern: new RegExp(`(?<![A-Za-z0-9_.-])${source}(?![A-Za-z0-9_.-])`, "g"), replacement: "~" });
  }
  // Very short names ("me", "a") would eat parts of ordinary words, and "root" names nobody
  // (while "project root" is common).
  if (paths.user && paths.user.length >= 3 && paths.user !== "root") {
    const user = escapeRegExp(paths.user);
    rules.push({ kind: "user-name", label: "user name", pattern: new RegExp(`(?<![A-Za-z0-9_])${user}(?![A-Za-z0-9_])`, "g"), replacement: "[user]" });
  }
  return rules;
}

/**
 * @example Mask an OpenAI key
 * ```ts
 * const redactor = new Redactor();
 * redactor.text("key: sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8t"); // "key: sk-proj-…[redacted openai key]"
 * redactor.summary(); // [{ kind: "openai-key", label: "openai key", count: 1 }]
 * ```
 */
export class Redactor {
  readonly #secrets: boolean;
  readonly #paths: PathRule[];
  readonly #counts = new Map<string, RedactionCount>();
  /** Words whose presence in a raw line means a path rule may apply (the user name, the home's last part). */
  readonly #pathWords: LineWords | undefined;

  readonly #options: RedactOptions;

  constructor(options: RedactOptions = {}) {
    this.#options = options;
    this.#secrets = options.secrets ?? true;
    this.#paths = options.paths ? pathRules(options.paths) : [];
    if (options.paths && this.#paths.length > 0) {
      const last = options.paths.home.split(/[/\\]/).filter(Boolean).at(-1);
      // Usually the same word (/home/alice, user alice): searched for once.
      const words = [...new Set([options.paths.user, last])].filter((word): word is string => Boolean(word));
      if (words.length > 0) this.#pathWords = new LineWords(words.map((word) => new TextEncoder().encode(word)));
    }
  }

  /** A redactor with the same rules and nothing counted yet (masks a second pass without counting it twice). */
  fresh(): Redactor {
    return new Redactor(this.#options);
  }

  /** Whether secrets are masked (paths may be masked either way). */
  get masksSecrets(): boolean {
    return this.#secrets;
  }

  /**
   * What a raw UTF-8 JSON line holds that matters here, as `scanLine` flags, in one pass: may a
   * secret rule match (when secrets are masked), may a path rule (`LINE_HAS_WORD`), is there a
   * `<` (always set when secrets are not scanned for: then nobody looked).
   */
  scan(bytes: Uint8Array): number {
    if (this.#secrets) return scanLine(bytes, this.#pathWords);
    return LINE_HAS_LESS_THAN | (this.#pathWords?.in(bytes) ? LINE_HAS_WORD : 0);
  }

  /**
   * Whether masking could change a line with these `scan` flags. False means the line can be
   * copied as it is; true means parse it and run `value` (it may still change nothing).
   */
  mayChange(flags: number): boolean {
    return (this.#secrets && (flags & LINE_MAY_HOLD_SECRET) !== 0) || (flags & LINE_HAS_WORD) !== 0;
  }

  /** Whether masking could change the raw UTF-8 bytes of a JSON line: `mayChange(scan(bytes))`. */
  lineMayChange(bytes: Uint8Array): boolean {
    return this.mayChange(this.scan(bytes));
  }

  /** True when this redactor masks anything at all. */
  get active(): boolean {
    return this.#secrets || this.#paths.length > 0;
  }

  /** `text` with every secret masked. */
  text(text: string): string {
    let out = text;
    if (this.#secrets && SECRET_HINT.test(out)) {
      for (const rule of SECRET_RULES) out = this.#apply(rule, out);
    }
    for (const rule of this.#paths) {
      out = out.replace(rule.pattern, () => {
        this.#count(rule.kind, rule.label);
        return rule.replacement;
      });
    }
    return out;
  }

  /**
   * A copy of a JSON value with every string masked, and the whole string under a secret key
   * (`password`, `api_key`, …); image `data` is kept as is. Walks with a stack of its own, not
   * recursion: how deep a value nests is the file's to choose. Strings are masked in document
   * order, as a recursive walk would.
   */
  value<T>(value: T): T {
    const root: Record<string, unknown> = {};
    const todo: [Record<string | number, unknown>, string | number, unknown][] = [[root, "value", value]];
    while (todo.length > 0) {
      const [holder, key, item] = todo.pop()!;
      if (typeof item === "string") {
        // Only an object's own key names a secret: not an array index, not the value as a whole.
        const keyed = this.#secrets && typeof key === "string" && holder !== root ? keyedSecretRule(key, item) : undefined;
        if (keyed) {
          this.#count(keyed.kind, keyed.label);
          holder[key] = `${MASK_MARK}${keyed.label}]`;
        } else holder[key] = this.text(item);
      } else if (Array.isArray(item)) {
        const out: unknown[] = new Array(item.length);
        holder[key] = out;
        for (let i = item.length - 1; i >= 0; i--) todo.push([out as unknown as Record<number, unknown>, i, item[i]]);
      } else if (typeof item === "object" && item !== null) {
        const source = item as Record<string, unknown>;
        const isImage = source.type === "image";
        const keys = Object.keys(source);
        const out: Record<string, unknown> = {};
        // Keys are set now, in order; values arrive as the stack unwinds.
        for (const k of keys) out[k] = isImage && k === "data" ? source[k] : undefined;
        holder[key] = out;
        for (let i = keys.length - 1; i >= 0; i--) if (!(isImage && keys[i] === "data")) todo.push([out, keys[i], source[keys[i]]]);
      } else {
        holder[key] = item;
      }
    }
    return root.value as T;
  }

  /** What was masked so far, most frequent first. */
  summary(): RedactionCount[] {
    return [...this.#counts.values()].sort((a, b) => b.count - a.count || a.kind.localeCompare(b.kind));
  }

  /** Total of masked values. */
  get total(): number {
    let total = 0;
    for (const { count } of this.#counts.values()) total += count;
    return total;
  }

  #apply(rule: SecretRule, text: string): string {
    rule.pattern.lastIndex = 0;
    return text.replace(rule.pattern, (match: string, context: string, secret: string) => {
      if (secret.includes(MASK_MARK) || (rule.accept && !rule.accept(secret, context))) return match;
      this.#count(rule.kind, rule.label);
      return `${context}${rule.keep(secret)}${MASK_MARK}${rule.label}]`;
    });
  }

  #count(kind: string, label: string): void {
    const entry = this.#counts.get(kind);
    if (entry) entry.count++;
    else this.#counts.set(kind, { kind, label, count: 1 });
  }
}

/**
 * `3 openai key, 1 jwt`: a summary for people, or "" when nothing was masked.
 *
 * @example
 * ```ts
 * describeRedactions([{ kind: "jwt", label: "jwt", count: 2 }]); // "2 jwt"
 * ```
 */
export function describeRedactions(counts: readonly RedactionCount[]): string {
  return counts.map((c) => `${c.count} ${c.label}`).join(", ");
}

/**
 * pi 1.x's /resume search (REFERENCE §9.1), the one query syntax of `pick` and `list --search`:
 * whitespace tokens ANDed, `"quoted phrases"` across collapsed whitespace, `re:` regular
 * expressions; the name ranks before id, message text and cwd, fuzzy matching only on name and
 * cwd, ties to the most recent session.
 * @module
 */
import type { SessionInfo } from "../core/info/session-info.ts";
import { fuzzyScore } from "./fuzzy.ts";

/** A query token: fuzzy (plain word) or an exact phrase (quoted). */
export interface SearchToken {
  kind: "fuzzy" | "phrase";
  value: string;
}

/** A parsed query. An invalid `re:` pattern has `regex: null` and an `error`. */
export type SearchQuery =
  | { mode: "tokens"; tokens: SearchToken[] }
  | { mode: "regex"; regex: RegExp | null; error?: string };

/** Score tiers, best first; a tier outweighs any fuzzy score within it. */
const NAME = 0;
const TEXT = 1;
const FUZZY = 2;
const TIER = 1_000_000;

function collapse(text: string): string {
  return text.toLowerCase().replace(/\s+/g, " ").trim();
}

/**
 * Splits a query: `re:PATTERN` is a case-insensitive regex; otherwise whitespace separates
 * tokens and `"…"` makes a phrase (a quote also ends a token). With an unclosed quote the
 * query splits on whitespace only, quotes kept.
 *
 * @example
 * ```ts
 * parseQuery('a"b c"d'); // { mode: "tokens", tokens: [a (fuzzy), "b c" (phrase), d (fuzzy)] }
 * ```
 */
export function parseQuery(query: string): SearchQuery {
  const trimmed = query.trim();
  if (trimmed.startsWith("re:")) {
    const pattern = trimmed.slice(3).trim();
    if (!pattern) return { mode: "regex", regex: null, error: "Empty regex" };
    try {
      return { mode: "regex", regex: new RegExp(pattern, "i") };
    } catch (error) {
      return { mode: "regex", regex: null, error: error instanceof Error ? error.message : String(error) };
    }
  }
  const tokens: SearchToken[] = [];
  let word = "";
  let quoted = false;
  const flush = (kind: SearchToken["kind"]) => {
    const value = word.trim();
    word = "";
    if (value) tokens.push({ kind, value });
  };
  for (const char of trimmed) {
    if (char === '"') {
      flush(quoted ? "phrase" : "fuzzy");
      quoted = !quoted;
    } else if (!quoted && /\s/.test(char)) {
      flush("fuzzy");
    } else {
      word += char;
    }
  }
  if (quoted) return { mode: "tokens", tokens: trimmed.split(/\s+/).filter(Boolean).map((value) => ({ kind: "fuzzy", value })) };
  flush("fuzzy");
  return { mode: "tokens", tokens };
}

interface Lowered {
  source: string;
  lower: string;
  collapsed?: string;
}

/**
 * What a query asks of a session's message texts: to hold a lower-cased substring, a phrase
 * (lower-cased, whitespace collapsed), or to match a pattern.
 */
export type TextTest = { kind: "substring" | "phrase"; value: string } | { kind: "regex"; regex: RegExp };

/** Whether a session's message texts pass a test. */
export type TextMatch = (session: SessionInfo, test: TextTest) => boolean;

/** A test's key: tests with equal keys give equal answers. */
export function textTestKey(test: TextTest): string {
  return test.kind === "regex" ? `re:${test.regex.source}` : `${test.kind}:${test.value}`;
}

/**
 * The tests `query` may ask of message texts (each once), for answering them ahead of the
 * search: a picker that does not hold the texts scans them for these.
 */
export function textTestsOf(query: string): TextTest[] {
  if (!query.trim()) return [];
  const parsed = parseQuery(query);
  const tests: TextTest[] = [];
  if (parsed.mode === "regex") {
    if (parsed.regex) tests.push({ kind: "regex", regex: parsed.regex });
  } else {
    for (const token of parsed.tokens) {
      const value = token.kind === "phrase" ? collapse(token.value) : token.value.toLowerCase();
      if (value) tests.push({ kind: token.kind === "phrase" ? "phrase" : "substring", value });
    }
  }
  const keys = new Set<string>();
  return tests.filter((test) => !keys.has(textTestKey(test)) && keys.add(textTestKey(test)));
}

function passes(text: Lowered, test: TextTest): boolean {
  if (test.kind === "regex") return test.regex.test(text.source);
  if (test.kind === "substring") return text.lower.includes(test.value);
  text.collapsed ??= text.lower.replace(/\s+/g, " ").trim();
  return text.collapsed.includes(test.value);
}

/** Texts longer than this (UTF-16 units) are lower-cased a piece at a time by `textPasses`. */
const PIECE = 1 << 20;
const BREAKS = new Set([" ", "\t", "\n", "\r"]);

/**
 * The pieces of `text`, each about `PIECE` long and ending just after a space, tab or line break
 * (or at the end). Lower-casing them one by one gives the lower-cased text piece by piece: the
 * one context-dependent mapping (a final sigma) looks no further than such a character (which,
 * unlike some other whitespace, is neither cased nor ignorable for casing).
 */
function* pieces(text: string): Generator<string> {
  for (let at = 0; at < text.length;) {
    let end = Math.min(text.length, at + PIECE);
    while (end < text.length && !BREAKS.has(text[end - 1])) end++;
    yield text.slice(at, end);
    at = end;
  }
}

/**
 * `textPasses` for a long text without a lower-cased copy of all of it: a word (no whitespace)
 * never spans two pieces, and a phrase is looked for in the collapsed stream with the tail of
 * the pieces before it.
 */
function piecesPass(text: string, tests: readonly TextTest[]): boolean[] {
  const passed = tests.map((test) => test.kind === "regex" && test.regex.test(text));
  const phrases = tests.filter((test) => test.kind === "phrase");
  const keep = Math.max(0, ...phrases.map((test) => (test.kind === "phrase" ? test.value.length : 0)));
  let tail = "";
  for (const piece of pieces(text)) {
    const lower = piece.toLowerCase();
    tests.forEach((test, i) => {
      if (!passed[i] && test.kind === "substring") passed[i] = lower.includes(test.value);
    });
    if (keep === 0) continue;
    let collapsed = lower.replace(/\s+/g, " ");
    if (tail.endsWith(" ") && collapsed.startsWith(" ")) collapsed = collapsed.slice(1);
    const stream = tail + collapsed;
    tests.forEach((test, i) => {
      if (!passed[i] && test.kind === "phrase") passed[i] = stream.includes(test.value);
    });
    tail = stream.slice(-keep);
  }
  return passed;
}

/** Which of `tests` the message texts `text` pass (lower-cased once for all of them, a piece at a time when long). */
export function textPasses(text: string, tests: readonly TextTest[]): boolean[] {
  if (text.length > PIECE) return piecesPass(text, tests);
  const lowered: Lowered = { source: text, lower: text.toLowerCase() };
  return tests.map((test) => passes(lowered, test));
}

// Message text can be megabytes: lower-case it once per session, not on every key press.
const loweredText = new WeakMap<SessionInfo, Lowered>();

function messageText(session: SessionInfo): Lowered {
  let cached = loweredText.get(session);
  if (!cached || cached.source !== session.allMessagesText) {
    cached = { source: session.allMessagesText, lower: session.allMessagesText.toLowerCase() };
    loweredText.set(session, cached);
  }
  return cached;
}

/** The texts a session holds itself: its `allMessagesText`. */
const ownText: TextMatch = (session, test) => passes(messageText(session), test);

/** A plain token as a substring: name (with its fuzzy score), else id, messages, cwd. */
function literalScore(session: SessionInfo, value: string, texts: TextMatch): number | undefined {
  const name = session.name?.toLowerCase() ?? "";
  if (name.includes(value)) return NAME * TIER + fuzzyScore(value, name)!;
  if (session.id.toLowerCase().includes(value)) return TEXT * TIER;
  if (texts(session, { kind: "substring", value })) return TEXT * TIER;
  if (session.cwd.toLowerCase().includes(value)) return TEXT * TIER;
  return undefined;
}

function fuzzyTokenScore(session: SessionInfo, value: string, texts: TextMatch): number | undefined {
  const literal = literalScore(session, value.toLowerCase(), texts);
  if (literal !== undefined) return literal;
  let best: number | undefined;
  for (const field of [session.name ?? "", session.cwd]) {
    const score = fuzzyScore(value, field);
    if (score !== undefined && (best === undefined || score < best)) best = score;
  }
  return best === undefined ? undefined : FUZZY * TIER + best;
}

function phraseScore(session: SessionInfo, phrase: string, texts: TextMatch): number | undefined {
  const name = collapse(session.name ?? "");
  if (name.includes(phrase)) return NAME * TIER + fuzzyScore(phrase, name)!;
  if (session.id.toLowerCase().includes(phrase)) return TEXT * TIER;
  if (texts(session, { kind: "phrase", value: phrase })) return TEXT * TIER;
  if (collapse(session.cwd).includes(phrase)) return TEXT * TIER;
  return undefined;
}

/**
 * A session's score for a query (lower is better), or undefined when it does not match.
 * Every token must match; a token never spans two fields. `texts` answers for the message
 * texts (default: the session's `allMessagesText`).
 */
export function scoreSession(session: SessionInfo, query: SearchQuery, texts: TextMatch = ownText): number | undefined {
  if (query.mode === "regex") {
    const regex = query.regex;
    if (!regex) return undefined;
    if (session.name && regex.test(session.name)) return NAME * TIER;
    if (regex.test(session.id) || texts(session, { kind: "regex", regex }) || regex.test(session.cwd)) return TEXT * TIER;
    return undefined;
  }
  let total = 0;
  for (const token of query.tokens) {
    let score: number | undefined;
    if (token.kind === "phrase") {
      const phrase = collapse(token.value);
      if (!phrase) continue;
      score = phraseScore(session, phrase, texts);
    } else {
      score = fuzzyTokenScore(session, token.value, texts);
    }
    if (score === undefined) return undefined;
    total += score;
  }
  return total;
}

/**
 * The sessions matching `query`: by relevance (score, then newest `modified`) or, with
 * `keepOrder`, filtered in their given order. An empty query keeps everything; an invalid
 * regex matches nothing and returns its `error`. `texts` answers for message texts (see
 * `scoreSession`).
 *
 * @example
 * ```ts
 * // searchSessions(sessions, "login bug").sessions[0] -> the best match
 * ```
 */
export function searchSessions(sessions: readonly SessionInfo[], query: string, keepOrder = false, texts?: TextMatch): { sessions: SessionInfo[]; error?: string } {
  if (!query.trim()) return { sessions: [...sessions] };
  const parsed = parseQuery(query);
  if (parsed.mode === "regex" && parsed.error !== undefined) return { sessions: [], error: parsed.error };
  const scored: { session: SessionInfo; score: number }[] = [];
  for (const session of sessions) {
    const score = scoreSession(session, parsed, texts);
    if (score !== undefined) scored.push({ session, score });
  }
  if (!keepOrder) scored.sort((a, b) => a.score - b.score || b.session.modified.getTime() - a.session.modified.getTime());
  return { sessions: scored.map((s) => s.session) };
}

/** True when `session` matches `query` (pi's /resume rules; an invalid `re:` matches nothing). */
export function matchesQuery(session: SessionInfo, query: string): boolean {
  if (!query.trim()) return true;
  return scoreSession(session, parseQuery(query)) !== undefined;
}

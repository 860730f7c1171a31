/**
 * What counts as a word, shared by the scan matcher and the SQLite FTS5 index so both find
 * the same hits: letters, digits, marks and private-use characters, except that every Han,
 * Hiragana and Katakana character is a word of its own (those scripts use no spaces).
 * @module
 */

/** One character that belongs to a word (FTS5 unicode61 with `categories 'L* N* Co M*'`). */
export const WORD_CHAR = "[\\p{L}\\p{N}\\p{M}\\p{Co}]";
/** One character that is a word by itself. */
export const CJK_CHAR = "[\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\u30fc]";

const WORD_RE = new RegExp(`^${WORD_CHAR}$`, "u");
const CJK_RE = new RegExp(`^${CJK_CHAR}$`, "u");
const CJK_ALL = new RegExp(CJK_CHAR, "gu");
const TOKEN = new RegExp(`${CJK_CHAR}|(?:(?!${CJK_CHAR})${WORD_CHAR})+`, "gu");

/** The FTS5 tokenizer settings that agree with these rules. */
export const FTS_TOKENIZE = "unicode61 remove_diacritics 0 categories 'L* N* Co M*'";

/** True for a character that is part of a word. */
export function isWordChar(c: string): boolean {
  return WORD_RE.test(c);
}

/** True for a character that is a word by itself. */
export function isCjkChar(c: string): boolean {
  return CJK_RE.test(c);
}

/**
 * Text as the FTS index stores it: CJK characters spaced apart, so that the tokenizer sees
 * each as a word.
 *
 * @example
 * ```ts
 * ftsText("日本語ok"); // " 日  本  語 ok"
 * ```
 */
export function ftsText(text: string): string {
  return text.replace(CJK_ALL, " $& ");
}

/** The words of `text`, in order (CJK characters one by one). */
export function wordTokens(text: string): string[] {
  return text.match(TOKEN) ?? [];
}

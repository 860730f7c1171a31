/**
 * The serve command's safety rules as pure decisions: which binds need a token, which `Host`
 * headers a loopback server answers (DNS rebinding), how a token is presented, which refs may
 * reach the resolver at all, and the headers every response carries.
 * @module
 */

/** True for names and addresses that only this machine can reach. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h.endsWith(".localhost") || h === "::1" || /^127(\.\d{1,3}){3}$/.test(h) || h === "::ffff:127.0.0.1";
}

/**
 * Why binding `host` is refused, or null when it is allowed: beyond loopback, anyone who can
 * reach the port could read every session, so a token is required there.
 */
export function bindRefusal(host: string, token: string | undefined): string | null {
  if (isLoopback(host) || (token !== undefined && token !== "")) return null;
  return `Refusing to serve on ${host} without a token: anyone who can reach it could read every session`;
}

/** The host name of a `Host` header (`[::1]:8377` → `::1`), lower-cased; "" when malformed. */
export function hostName(header: string): string {
  const h = header.trim().toLowerCase();
  if (h.startsWith("[")) {
    const end = h.indexOf("]");
    return end < 0 ? "" : h.slice(1, end);
  }
  const colon = h.indexOf(":");
  return colon < 0 ? h : h.slice(0, colon);
}

/**
 * Whether a request with this `Host` header is for us. A server bound to loopback answers only
 * loopback names: a page on evil.example whose DNS name now points at 127.0.0.1 sends
 * `Host: evil.example` and is turned away (DNS rebinding). A server bound beyond loopback is
 * reached by names we cannot know, and its token protects it.
 */
export function hostAllowed(header: string | null | undefined, bindHost: string): boolean {
  if (!isLoopback(bindHost)) return true;
  if (!header) return false;
  return isLoopback(hostName(header));
}

/** Constant-time string comparison, so a wrong token's timing tells nothing of the right one. */
export function sameSecret(given: string, expected: string): boolean {
  const a = new TextEncoder().encode(given);
  const b = new TextEncoder().encode(expected);
  let diff = a.length ^ b.length;
  for (let i = 0; i < b.length; i++) diff |= (a[i] ?? 0) ^ b[i];
  return diff === 0;
}

/** The cookie that carries the token after a `?token=` visit. */
export const TOKEN_COOKIE = "pi_session_token";

/** The token a request presents: `Authorization: Bearer T`, else the cookie. */
export function presentedToken(authorization: string | null | undefined, cookieHeader: string | null | undefined): string | undefined {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  if (bearer) return bearer[1];
  for (const part of (cookieHeader ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === TOKEN_COOKIE) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** `Set-Cookie` for the token: never readable by scripts, never sent by other sites. */
export function tokenCookie(token: string): string {
  return `${TOKEN_COOKIE}=${encodeURIComponent(token)}; Path=/; HttpOnly; SameSite=Strict`;
}

/**
 * Whether a session reference from a URL may be resolved. Only ids and id prefixes: a path
 * (`/`, `\`, `.jsonl`), `@` (a cwd's latest), `..`, control or other characters never reach the
 * resolver, so no URL can name a file outside the session directories.
 */
export function isSafeRef(ref: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/.test(ref) && !ref.includes("..") && !/\.jsonl$/i.test(ref);
}

/** The same rule for entry ids and prefixes given as `leaf`, `after` and the like (`label:NAME` too). */
export function isSafeEntryRef(ref: string): boolean {
  return /^(label:[^\u0000-\u001f\u007f]{1,200}|[A-Za-z0-9][A-Za-z0-9._-]{0,199})$/.test(ref);
}

/** Headers for every response: no sniffing, no framing, no referrer to other sites. */
export const BASE_HEADERS: Readonly<Record<string, string>> = {
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "no-referrer",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Resource-Policy": "same-origin",
};

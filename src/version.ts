/**
 * The version pi-session reports (kept equal to package.json by tests/ship/version.test.ts)
 * and the git commit it was built from, which scripts/compile.ts bakes into the executable.
 * @module
 */

/** Set by `bun build --define` in scripts/compile.ts; not declared at all when run from source. */
declare const PI_SESSION_COMMIT: string | undefined;

/** The release version. */
export const VERSION = "0.1.0";

/**
 * The short commit hash the executable was compiled from, `unknown` when git was not
 * available at build time, or `source` when running the TypeScript files directly.
 */
export const COMMIT: string = typeof PI_SESSION_COMMIT === "string" ? PI_SESSION_COMMIT : "source";

/** What `pi-session --version` prints, e.g. `pi-session 0.1.0 (3c3419c)`. */
export const VERSION_LINE = `pi-session ${VERSION} (${COMMIT})`;

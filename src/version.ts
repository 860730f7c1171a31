/**
 * The version pi-session reports; kept equal to package.json by a test.
 * @module
 */
export const VERSION = "0.1.0";

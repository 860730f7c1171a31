/**
 * The platforms we ship an executable for, and how release files are named. This is the
 * only target table: scripts/release.ts builds from it and the ship tests name their
 * files with it. scripts/install.sh maps `uname` to the same `<os>-<arch>` names.
 * @module
 */

/** One platform: our name for it, Bun's `--target`, and where npm keeps that Bun runtime. */
export interface ReleaseTarget {
  os: "linux" | "darwin" | "windows";
  arch: "x64" | "arm64";
  /** `bun build --target` value. */
  bunTarget: string;
  /** The npm package holding that Bun runtime: `@oven/bun-<runtimePackage>`. */
  runtimePackage: string;
  /** The runtime's file inside the package's `bin/`. */
  runtimeFile: string;
}

/** Every platform `npm run release` builds. */
export const RELEASE_TARGETS: readonly ReleaseTarget[] = [
  { os: "linux", arch: "x64", bunTarget: "bun-linux-x64", runtimePackage: "linux-x64", runtimeFile: "bun" },
  { os: "linux", arch: "arm64", bunTarget: "bun-linux-arm64", runtimePackage: "linux-aarch64", runtimeFile: "bun" },
  { os: "darwin", arch: "x64", bunTarget: "bun-darwin-x64", runtimePackage: "darwin-x64", runtimeFile: "bun" },
  { os: "darwin", arch: "arm64", bunTarget: "bun-darwin-arm64", runtimePackage: "darwin-aarch64", runtimeFile: "bun" },
  { os: "windows", arch: "x64", bunTarget: "bun-windows-x64", runtimePackage: "windows-x64", runtimeFile: "bun.exe" },
];

/** `pi-session-<version>-<os>-<arch>`, plus `.exe` on Windows. */
export function releaseFileName(version: string, target: ReleaseTarget): string {
  return `pi-session-${version}-${target.os}-${target.arch}${target.os === "windows" ? ".exe" : ""}`;
}

/** The target of the machine we run on (Node's `process.platform` and `process.arch`), if we ship one. */
export function hostTarget(platform: string, arch: string): ReleaseTarget | undefined {
  const os = platform === "win32" ? "windows" : platform;
  return RELEASE_TARGETS.find((t) => t.os === os && t.arch === arch);
}

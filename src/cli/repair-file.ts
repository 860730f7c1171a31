/**
 * Repairing one session file: the plan is `planRepair`'s (pure); here it is read for a dry
 * run, or applied through `safeRewrite` (under the lock, with a backup, keeping what pi
 * appends meanwhile), and the bytes set aside are added to `<file>.rejected`.
 * @module
 */
import { planRepair, type RepairOptions, type RepairPlan } from "../core/repair/mod.ts";
import type { FileSystem } from "../io/file-system.ts";
import { readBytes } from "../io/read-bytes.ts";
import { NotASessionError } from "../session/errors.ts";
import { safeRewrite } from "../session/safe-rewrite.ts";
import { describeError } from "./errors.ts";

type Planned = Extract<RepairPlan, { kind: "repair" }>;

/** What happened to one file; `repair --json` prints it without `exitCode`. */
export interface RepairResult {
  path: string;
  action: "repaired" | "would-repair" | "nothing-to-repair" | "not-a-session" | "error";
  backup?: string;
  /** The file the set-aside bytes went (or would go) to, when there are any. */
  rejected?: string;
  changes: Planned["changes"];
  /** Damaged lines left as they are: `{line, code, message}` as `check` reports them. */
  left: Planned["left"];
  judgements: Planned["judgements"];
  /** Lines pi appended while the file was rewritten, kept at its end. */
  carriedLines?: number;
  message?: string;
  exitCode: number;
}

/** `<file>.repair.bak`, then `.repair.bak.2`…, beside the real file. */
function backupName(real: string): (n: number) => string {
  return (n) => `${real}.repair.bak${n === 1 ? "" : `.${n}`}`;
}

/** The exit code a planned file asks for: 1 when something is left for a person, else 0. */
function codeOf(plan: Planned): number {
  return plan.left.length > 0 || plan.judgements.length > 0 ? 1 : 0;
}

function fromPlan(path: string, plan: Planned): Omit<RepairResult, "action"> {
  return { path, changes: plan.changes, left: plan.left, judgements: plan.judgements, exitCode: codeOf(plan) };
}

function refused(path: string, message: string, exitCode: number): RepairResult {
  return { path, action: "error", changes: [], left: [], judgements: [], message, exitCode };
}

function notASession(path: string, plan: Extract<RepairPlan, { kind: "not-a-session" }>): RepairResult {
  return { ...refused(path, new NotASessionError(path, plan.issues).message, 3), action: "not-a-session" };
}

function failure(path: string, error: unknown): RepairResult {
  const { exitCode, lines } = describeError(error);
  return refused(path, lines[0].replace(/^pi-session: /, ""), exitCode);
}

/** Repairs (or, with `dryRun`, plans the repair of) one file; failures come back as results. */
export async function repairFile(fs: FileSystem, path: string, options: RepairOptions & { dryRun: boolean }): Promise<RepairResult> {
  try {
    const real = await fs.realPath(path);
    const rejectedPath = `${real}.rejected`;
    if (options.dryRun) {
      const plan = planRepair(await readBytes(fs, real), options);
      if (plan.kind === "not-a-session") return notASession(path, plan);
      const action = plan.changes.length === 0 ? "nothing-to-repair" : "would-repair";
      return { ...fromPlan(path, plan), action, ...(plan.rejected.length > 0 && { rejected: rejectedPath }) };
    }
    const stat = await fs.stat(real);
    const mode = (stat?.mode ?? 0) & 0o777;
    if (mode !== 0 && (mode & 0o222) === 0) {
      return refused(path, `${path} is read-only; not rewriting it`, 3);
    }
    const outcome = await safeRewrite(fs, real, (original) => {
      const plan = planRepair(original, options);
      if (plan.kind === "not-a-session" || plan.changes.length === 0) return { kind: "keep", detail: plan };
      return { kind: "write", bytes: plan.bytes, detail: plan, backupName: backupName(real) };
    });
    const plan = outcome.detail;
    if (plan.kind === "not-a-session") return notASession(path, plan);
    if (!outcome.written) return { ...fromPlan(path, plan), action: "nothing-to-repair" };
    // After the rewrite: the backup already holds these bytes, so a failure here loses nothing.
    let rejectedFailed: string | undefined;
    if (plan.rejected.length > 0) {
      await fs.append(rejectedPath, plan.rejected, { mode: mode || 0o600 }).catch((error) => {
        rejectedFailed = `could not write ${rejectedPath} (${describeError(error).lines[0].replace(/^pi-session: /, "")}); the bytes set aside are in the backup`;
      });
    }
    return {
      ...fromPlan(path, plan),
      ...(rejectedFailed !== undefined && { message: rejectedFailed, exitCode: 3 }),
      action: "repaired",
      ...(outcome.backup !== undefined && { backup: outcome.backup }),
      ...(plan.rejected.length > 0 && rejectedFailed === undefined && { rejected: rejectedPath }),
      ...(outcome.carried.lines > 0 && { carriedLines: outcome.carried.lines }),
    };
  } catch (error) {
    return failure(path, error);
  }
}

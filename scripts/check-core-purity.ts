/**
 * CLI for the core purity check (`tsx scripts/check-core-purity.ts`): lists each problem as
 * `file:line: message` and exits 1, or prints `core purity: N files checked, 0 problems`.
 * @module
 */

import { fileURLToPath } from "node:url";
import { checkCorePurity, formatProblem } from "./core-purity.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const { files, problems } = await checkCorePurity(root);
const summary = `core purity: ${files} files checked, ${problems.length} problem${problems.length === 1 ? "" : "s"}`;
if (problems.length === 0) {
  console.log(summary);
} else {
  for (const problem of problems) console.error(formatProblem(problem));
  console.error(summary);
  process.exitCode = 1;
}

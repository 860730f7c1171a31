// A TypeScript worker's first module under Node (worker-start.ts starts it): tsx's loader,
// registered in the main thread, does not reach a worker thread, so this registers it here and
// then imports the worker module named by the first argument. Without tsx the import is tried
// as it is (a Node that strips types itself); if it fails, the worker fails and its caller does
// the work on its own thread.
import process from "node:process";

try {
  const { register } = await import("tsx/esm/api");
  register();
} catch {
  // No tsx here.
}
await import(process.argv[2]);

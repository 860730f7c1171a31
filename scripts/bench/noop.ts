/** The process floor: starts like every case script (node + tsx) and does nothing. */
import { measure, parseCaseArgs } from "./_harness.ts";

await measure(parseCaseArgs(), () => undefined);

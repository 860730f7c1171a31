/**
 * `label`: shows an entry's label, or appends a `label` entry that sets it or, when empty or
 * with `--clear`, clears it (a label entry without a `label` key, as pi writes it).
 * @module
 */
import { SessionTree } from "../../core/tree/session-tree.ts";
import type { CommandSpec } from "../command.ts";
import type { CliContext } from "../context.ts";
import { oneLine } from "../../render/control-chars.ts";
import { CliError } from "../errors.ts";
import { LEAN_READ } from "../../core/read/lean-entry.ts";
import { loadSessionAt } from "../../query/load.ts";
import { resolveEntryRef } from "../../query/resolve/entry-ref.ts";
import { resolveSessionRef } from "../../query/resolve/session-ref.ts";
import { labelEntry } from "../../session/entry-builders.ts";
import { readLeanLabels } from "../../session/lean-append.ts";
import { appendToLean, openForAppend, openLeanForAppend, writing } from "../session-write.ts";

/** `pi-session label <ref> <entry> [LABEL... | --clear]` */
export const labelCommand: CommandSpec = {
  name: "label",
  summary: "Show an entry's label, or set it (empty or --clear removes it)",
  args: ["<ref>", "<entry>", "[label...]"],
  options: [{ flags: "--clear", description: "remove the entry's label" }],
  examples: ["pi-session label @ 5f6e7d8c before-refactor", "pi-session label @ label:before-refactor --clear", "pi-session label 01a2b3 5f6e"],
  async run(ctx, [ref, entry, ...words], opts) {
    const clear = Boolean(opts.clear);
    if (clear && words.length > 0) throw new CliError("bad-usage", "Pass a label or --clear, not both", "Run `pi-session label <ref> <entry> --clear` to remove the label");
    const path = await resolveSessionRef(ctx, ref);
    if (!clear && words.length === 0) {
      const { tree } = await loadSessionAt(ctx, path, LEAN_READ);
      const targetId = resolveEntryRef(tree, entry, path);
      const label = tree.getLabel(targetId);
      if (ctx.json) ctx.outJson({ path, targetId, label: label ?? null });
      // Stored text: an escape in it (a clipboard write, a clear screen) never reaches the terminal.
      else if (label !== undefined) ctx.out(oneLine(label));
      if (label === undefined && !ctx.json) ctx.note(`Entry ${oneLine(targetId)} has no label`);
      return label === undefined ? 1 : 0;
    }
    const label = clear ? undefined : words.join(" ").trim() || undefined;
    const lean = await openLeanForAppend(ctx, path);
    let id: string;
    let targetId: string;
    if (lean) {
      // Only the ids, the leaf and the labels are read: the entries of a 1 GB file are never held.
      targetId = resolveEntryRef({ byId: lean.ids, labels: await readLeanLabels(ctx.fs, lean) }, entry, path);
      id = (await writing(path, () => appendToLean(ctx, lean, (base) => labelEntry(base, targetId, label)))).id;
    } else {
      ({ id, targetId } = await appendToOld(ctx, path, entry, label));
    }
    if (ctx.json) ctx.outJson({ path, id, type: "label", targetId, label: label ?? null });
    else ctx.out(`appended label ${id} to ${path}`);
    return 0;
  },
};

/** An old-format file: opened in full, it is rewritten as v3 at the append. */
async function appendToOld(ctx: CliContext, path: string, entry: string, label: string | undefined): Promise<{ id: string; targetId: string }> {
  // The rewrite happens when the file is opened for appending: find the entry first, so that a
  // wrong one leaves the file as it was (migration is deterministic: the ids agree).
  resolveEntryRef((await loadSessionAt(ctx, path, LEAN_READ)).tree, entry, path);
  const manager = await openForAppend(ctx, path);
  const targetId = resolveEntryRef(new SessionTree(manager.getEntries()), entry, path);
  return { id: await writing(path, () => manager.appendLabelChange(targetId, label)), targetId };
}

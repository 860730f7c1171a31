/**
 * `label`: shows an entry's label, or appends a `label` entry that sets it or, when empty or
 * with `--clear`, clears it (a label entry without a `label` key, as pi writes it).
 * @module
 */
import { SessionTree } from "../../core/tree/session-tree.ts";
import type { CommandSpec } from "../command.ts";
import { oneLine } from "../../render/control-chars.ts";
import { CliError } from "../errors.ts";
import { LEAN_READ } from "../../core/read/lean-entry.ts";
import { loadSessionAt } from "../../query/load.ts";
import { resolveEntryRef } from "../../query/resolve/entry-ref.ts";
import { resolveSessionRef } from "../../query/resolve/session-ref.ts";
import { openForAppend, requireSession, writing } from "../session-write.ts";

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
    // An old-format file is rewritten as v3 when opened for appending: find the entry first, so
    // that a wrong one leaves the file as it was (migration is deterministic: the ids agree).
    if (await requireSession(ctx, path) < 3) resolveEntryRef((await loadSessionAt(ctx, path, LEAN_READ)).tree, entry, path);
    const manager = await openForAppend(ctx, path);
    const targetId = resolveEntryRef(new SessionTree(manager.getEntries()), entry, path);
    const id = await writing(path, () => manager.appendLabelChange(targetId, label));
    if (ctx.json) ctx.outJson({ path, id, type: "label", targetId, label: label ?? null });
    else ctx.out(`appended label ${id} to ${path}`);
    return 0;
  },
};

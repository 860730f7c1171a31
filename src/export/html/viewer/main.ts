/**
 * The export viewer's entry point, bundled into the HTML file. It reads the embedded data
 * (JSON lines in several blocks), lays out the page, and ties the sidebar tree, the
 * lazy conversation and deep links (`#entry-ID`, pi's `?leafId=&targetId=`) together.
 * @module
 */
import { addUsage, emptyUsage, entryUsage, type UsageTotals } from "../../../core/info/usage-totals.ts";
import type { SessionEntry } from "../../../core/format/types.ts";
import { Conversation } from "./conversation.ts";
import { download, sessionJsonl } from "./download-jsonl.ts";
import { h } from "./dom.ts";
import { isObject, messageOf, roleOf, str, type ViewerEntry } from "./entry-text.ts";
import { entryView, type UsageSum, type ViewContext } from "./entry-view.ts";
import { compactNumber, formatDate, groupDigits, money } from "./format.ts";
import { Sidebar } from "./sidebar.ts";
import type { TreeFilter } from "../../../core/tree/tree-filter.ts";
import { TreeModel } from "./tree-model.ts";

interface Meta {
  generator: string;
  exportedAt: string;
  header: Record<string, unknown>;
  leafId: string | null;
  name?: string;
  labels: Record<string, string>;
  allBranches: boolean;
  redaction: { secrets: boolean; paths: boolean; counts: { label: string; count: number }[] };
}

/**
 * The meta block and every entry line. Blocks are read one at a time (a line may run on
 * into the next block), so no string of the whole session is built.
 */
function readData(): { meta: Meta; entries: ViewerEntry[]; skipped: number } {
  const meta = JSON.parse(document.getElementById("pi-session-meta")?.textContent ?? "") as Meta;
  const entries: ViewerEntry[] = [];
  let skipped = 0;
  const take = (line: string) => {
    if (!line.trim()) return;
    try {
      const value = JSON.parse(line);
      if (isObject(value) && typeof value.id === "string") {
        entries.push({ ...value, type: str(value.type), parentId: typeof value.parentId === "string" ? value.parentId : null, timestamp: str(value.timestamp) } as ViewerEntry);
      } else skipped++;
    } catch {
      skipped++;
    }
  };
  let carry = "";
  for (const block of Array.from(document.querySelectorAll("script.pi-session-data"))) {
    const text = carry + (block.textContent ?? "");
    let start = 0;
    for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n", start)) {
      take(text.slice(start, nl));
      start = nl + 1;
    }
    carry = text.slice(start);
  }
  take(carry);
  return { meta, entries, skipped };
}

/**
 * The entry id of a `#entry-ID` fragment, or null. A fragment that is not valid percent-encoding
 * (`#entry-%E0%A4%A`) is ignored like any other unknown link: `decodeURIComponent` would throw
 * and leave the page blank.
 */
function hashEntryId(hash: string): string | null {
  if (!hash.startsWith("#entry-")) return null;
  try {
    return decodeURIComponent(hash.slice("#entry-".length));
  } catch {
    return null;
  }
}

/** What the conversation shows: each entry once, tool results folded into their calls. */
interface Branch {
  path: ViewerEntry[];
  items: ViewerEntry[];
  /** Item index of every entry id on the path (folded results point at their call's item). */
  indexOf: Map<string, number>;
  results: Map<string, ViewerEntry>;
  turns: Map<string, UsageSum>;
  usage: UsageTotals;
}

function buildBranch(path: ViewerEntry[]): Branch {
  const results = new Map<string, ViewerEntry>();
  for (const entry of path) {
    const message = messageOf(entry);
    if (message?.role === "toolResult" && typeof message.toolCallId === "string") results.set(message.toolCallId, entry);
  }
  const items: ViewerEntry[] = [];
  const indexOf = new Map<string, number>();
  const folded = new Set<string>();
  const turns = new Map<string, UsageSum>();
  const usage = emptyUsage();
  let turn: UsageSum | undefined;
  for (const entry of path) {
    const message = messageOf(entry);
    if (message?.role === "user") turns.set(entry.id, turn = { tokens: 0, cost: 0 });
    const found = entryUsage(entry as unknown as SessionEntry);
    if (found) {
      const one = emptyUsage();
      addUsage(one, found.usage);
      addUsage(usage, found.usage);
      if (turn) {
        turn.tokens += one.totalTokens;
        turn.cost += one.cost.total;
      }
    }
    if (folded.has(entry.id)) {
      continue;
    }
    indexOf.set(entry.id, items.length);
    if (message?.role === "assistant" && Array.isArray(message.content)) {
      for (const block of message.content) {
        const result = isObject(block) && block.type === "toolCall" ? results.get(str(block.id)) : undefined;
        if (result && !indexOf.has(result.id)) {
          folded.add(result.id);
          indexOf.set(result.id, items.length);
        }
      }
    }
    items.push(entry);
  }
  return { path, items, indexOf, results, turns, usage };
}

function fact(name: string, value: string | Node, title?: string): HTMLElement {
  return h("div", { class: "fact" }, h("dt", {}, name), h("dd", title ? { title } : {}, value));
}

function usageText(u: UsageTotals): string {
  return `${groupDigits(u.totalTokens)} (↑${compactNumber(u.input)} ↓${compactNumber(u.output)} R${compactNumber(u.cacheRead)} W${compactNumber(u.cacheWrite)})`;
}

class App {
  readonly meta: Meta;
  readonly model: TreeModel;
  readonly entries: ViewerEntry[];
  readonly sidebar: Sidebar;
  readonly content = h("main", { class: "content" });
  readonly headBox = h("div", { class: "session-head-box" });
  readonly list = h("div", { class: "messages" });
  readonly conversation: Conversation<ViewerEntry>;
  leafId: string | null;
  targetId: string | null = null;
  branch: Branch = buildBranch([]);
  filter: TreeFilter = "default";
  search = "";
  expandThinking = false;
  expandTools = false;

  /** Lines of the data that did not parse (a torn line, say): said in the header. */
  readonly skipped: number;

  constructor(meta: Meta, entries: ViewerEntry[], skipped: number) {
    this.meta = meta;
    this.skipped = skipped;
    this.entries = entries;
    this.model = new TreeModel(entries, new Map(Object.entries(meta.labels ?? {})));
    this.leafId = meta.leafId && this.model.byId.has(meta.leafId) ? meta.leafId : entries.at(-1)?.id ?? null;
    this.sidebar = new Sidebar({
      select: (id) => this.select(id),
      query: (filter, search) => {
        this.filter = filter;
        this.search = search;
        this.refreshTree();
      },
    });
    this.conversation = new Conversation(this.content, this.list, (entry) => entryView(entry, this.viewContext()));
    this.content.append(this.headBox, this.list);
    const app = document.getElementById("app")!;
    app.textContent = "";
    app.append(this.sidebar.element, this.content);
  }

  viewContext(): ViewContext {
    const branch = this.branch;
    return {
      toolCalls: this.model.toolCalls,
      labels: this.model.labels,
      resultFor: (callId) => branch.results.get(callId),
      turnUsage: (id) => branch.turns.get(id),
      expandThinking: this.expandThinking,
      expandTools: this.expandTools,
    };
  }

  /** Shows the branch ending at `leafId` and scrolls to `targetId` (or the top). */
  navigate(leafId: string | null, targetId: string | null): void {
    const changed = leafId !== this.leafId || this.branch.path.length === 0;
    this.leafId = leafId;
    this.targetId = targetId;
    if (changed) {
      this.branch = buildBranch(leafId ? this.model.pathTo(leafId) : []);
      this.renderHead();
      this.refreshTree();
      const at = targetId ? this.branch.indexOf.get(targetId) ?? 0 : 0;
      this.conversation.show(this.branch.items, at);
    }
    this.sidebar.mark(new Set(this.branch.indexOf.keys()), targetId);
    if (targetId) this.scrollTo(targetId);
    else if (changed) this.content.scrollTop = 0;
  }

  scrollTo(id: string): void {
    const index = this.branch.indexOf.get(id);
    if (index === undefined) return;
    this.conversation.ensure(index);
    const el = document.getElementById(`entry-${id}`);
    if (!el) return;
    if (el instanceof HTMLDetailsElement && !el.open) el.open = true;
    el.scrollIntoView({ block: "center" });
    el.classList.add("flash");
    setTimeout(() => el.classList.remove("flash"), 1600);
  }

  /** A click in the tree: stay on this branch if the entry is on it, else take the newest leaf below it. */
  select(id: string): void {
    const leaf = this.branch.indexOf.has(id) ? this.leafId : this.model.newestLeaf(id);
    const hash = `#entry-${id}`;
    if (location.hash !== hash) history.replaceState(null, "", hash);
    this.navigate(leaf, id);
  }

  /** A deep link: `#entry-ID`, or `?leafId=…&targetId=…`. */
  followLocation(): void {
    const params = new URLSearchParams(location.search);
    const hashId = hashEntryId(location.hash);
    const target = hashId ?? params.get("targetId");
    const leafParam = params.get("leafId");
    let leaf = leafParam && this.model.byId.has(leafParam) ? leafParam : this.leafId;
    const onBranch = (id: string) => leaf !== null && this.model.pathTo(leaf).some((entry) => entry.id === id);
    if (target && this.model.byId.has(target) && !onBranch(target)) leaf = this.model.newestLeaf(target);
    this.navigate(leaf, target && this.model.byId.has(target) ? target : null);
  }

  refreshTree(): void {
    const rows = this.model.rows({ filter: this.filter, search: this.search, leafId: this.leafId, activePath: new Set(this.branch.indexOf.keys()) });
    this.sidebar.setRows(rows, this.model.byId.size);
    this.sidebar.mark(new Set(this.branch.indexOf.keys()), this.targetId);
  }

  rerender(): void {
    const { lo } = this.conversation.window;
    this.conversation.show(this.branch.items, lo);
  }

  renderHead(): void {
    const { header, name, allBranches, redaction } = this.meta;
    const branch = this.branch;
    const all = emptyUsage();
    const models = new Set<string>();
    const roles = new Map<string, number>();
    let last = "";
    for (const entry of this.entries) {
      const found = entryUsage(entry as unknown as SessionEntry);
      if (found) addUsage(all, found.usage);
      if (entry.timestamp > last) last = entry.timestamp;
    }
    for (const entry of branch.path) {
      const message = messageOf(entry);
      const role = roleOf(entry);
      if (role) roles.set(role, (roles.get(role) ?? 0) + 1);
      if (message?.role === "assistant" && message.model) models.add([str(message.provider), str(message.responseModel ?? message.model)].filter(Boolean).join("/"));
    }
    const id = str(header.id);
    const title = name || `Session ${id.slice(0, 8)}`;
    document.title = `${title} · pi session`;
    const counts = ["user", "assistant", "toolResult"].map((r) => `${groupDigits(roles.get(r) ?? 0)} ${r === "toolResult" ? "tool results" : r}`).join(" · ");
    const facts = h(
      "dl",
      { class: "facts" },
      fact("Session", id),
      fact("Directory", str(header.cwd)),
      fact("Started", formatDate(header.timestamp)),
      fact("Last entry", formatDate(last)),
      fact("Models", [...models].join(", ") || "—"),
      fact("Branch", `${groupDigits(branch.path.length)} entries · ${counts}`),
      fact("Tokens (branch)", usageText(branch.usage)),
      fact("Cost (branch)", money(branch.usage.cost.total)),
      allBranches ? fact("Cost (all branches)", `${money(all.cost.total)} · ${groupDigits(all.totalTokens)} tokens`) : null,
    );
    const masked = redaction.counts.reduce((n, c) => n + c.count, 0);
    const notes = [
      allBranches ? `All ${groupDigits(this.model.leafCount())} branches included; pick one in the tree.` : "Only this branch was exported.",
      redaction.secrets || redaction.paths
        ? `Redacted: ${masked === 0 ? "nothing found" : redaction.counts.map((c) => `${c.count} ${c.label}`).join(", ")}.`
        : "Not redacted.",
      `Exported ${formatDate(this.meta.exportedAt)} by ${this.meta.generator}.`,
      this.skipped > 0 ? `${groupDigits(this.skipped)} unreadable lines left out.` : "",
      costNote(branch.path),
    ].filter(Boolean);
    const toolbar = h("div", { class: "toolbar" });
    const toggle = (text: string, pressed: boolean, act: () => void) => {
      const button = h("button", { type: "button", class: "toggle", attrs: { "aria-pressed": String(pressed) } }, text);
      button.addEventListener("click", act);
      toolbar.appendChild(button);
    };
    toggle("Thinking", this.expandThinking, () => {
      this.expandThinking = !this.expandThinking;
      this.renderHead();
      this.rerender();
    });
    toggle("Tool output", this.expandTools, () => {
      this.expandTools = !this.expandTools;
      this.renderHead();
      this.rerender();
    });
    toggle("Hidden messages", document.body.classList.contains("show-hidden"), () => {
      document.body.classList.toggle("show-hidden");
      this.renderHead();
    });
    toggle("Jump to end", false, () => {
      const last = branch.items.at(-1);
      if (last) this.scrollTo(last.id);
    });
    const save = h("button", { type: "button", class: "toggle download", title: "The session as exported (header and entries), a file pi can open" }, "Download JSONL");
    save.addEventListener("click", () => download(`${id || "session"}.jsonl`, sessionJsonl(header, this.entries)));
    toolbar.appendChild(save);
    this.headBox.textContent = "";
    this.headBox.append(h("header", { class: "session-head" }, h("h1", {}, title), facts, h("p", { class: "notes" }, notes.join(" ")), toolbar));
  }
}

/**
 * Why the cost may differ from pi's own HTML export of the same file: that one adds up the
 * assistant messages of every branch; this page counts what pi's /session counts.
 */
function costNote(path: readonly ViewerEntry[]): string {
  let assistant = 0;
  let other = 0;
  for (const entry of path) {
    const found = entryUsage(entry as unknown as SessionEntry);
    if (!found) continue;
    const one = emptyUsage();
    addUsage(one, found.usage);
    if (messageOf(entry)?.role === "assistant") assistant += one.cost.total;
    else other += one.cost.total;
  }
  const split = other > 0 ? ` (on this branch: assistant messages ${money(assistant)}, the rest ${money(other)})` : "";
  return `Costs count what pi's /session counts: assistant messages plus the usage of tool results, compactions, branch summaries and usage entries${split}; pi's own HTML export adds up the assistant messages of every branch only.`;
}

function main(): void {
  let data: ReturnType<typeof readData>;
  try {
    data = readData();
  } catch (error) {
    const app = document.getElementById("app")!;
    app.textContent = `This export cannot be read: ${error instanceof Error ? error.message : String(error)}`;
    return;
  }
  const app = new App(data.meta, data.entries, data.skipped);
  app.followLocation();
  addEventListener("hashchange", () => app.followLocation());
  document.body.dataset.ready = "true";
}

main();

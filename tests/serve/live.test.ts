/**
 * Live changes: the watcher reports sessions created, appended to, renamed (a `session_info`
 * line) and deleted, from a native watch and from its poll alike; `/api/events` streams them
 * as Server-Sent Events and ends its streams on shutdown.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { sseMessage } from "../../src/serve/live/event-stream.ts";
import { idFromFileName, lastNameIn, type SessionEvent, SessionWatcher } from "../../src/serve/live/session-watcher.ts";
import type { FileSystem, ReadRange } from "../../src/io/file-system.ts";
import { addSession, CWD, jsonl, memoryFs, NOW, userEntry } from "../cli/_harness.ts";
import { MemoryFileSystem } from "../../src/io/memory.ts";
import { type TestServer, testServer } from "./_server.ts";

const encoder = new TextEncoder();
const ID = "0c1d2e3f-0000-4000-8000-000000000001";

/** Resolves with the first events matching `wanted`, as they arrive. */
function collect(subscribe: (l: (e: SessionEvent) => void) => () => void, wanted: (events: SessionEvent[]) => boolean): Promise<SessionEvent[]> {
  return new Promise((resolve) => {
    const events: SessionEvent[] = [];
    const stop = subscribe((event) => {
      events.push(event);
      if (wanted(events)) {
        stop();
        resolve(events);
      }
    });
  });
}

describe("session watcher", () => {
  it("lastNameIn() finds the newest session_info name in new lines; idFromFileName() the id in pi's file names", () => {
    assert.equal(lastNameIn(jsonl({ type: "session_info", id: "s1", name: " First " }, { type: "message" }, { type: "session_info", name: "Second" })), "Second");
    assert.equal(lastNameIn(jsonl({ type: "session_info", name: "" })), null);
    assert.equal(lastNameIn(jsonl({ type: "message", text: "session_info" }) + '{"type":"session_info","na'), undefined);
    assert.equal(idFromFileName("/a/--p--/2026-03-02T09-00-07-000Z_019c4a1e-5b20.jsonl"), "019c4a1e-5b20");
    assert.equal(idFromFileName("/a/notes.jsonl"), undefined);
  });

  for (const mode of ["watch", "poll"] as const) {
    it(`reports created, appended, renamed and deleted (${mode === "watch" ? "native watch" : "polling, no watch"})`, async () => {
      const memory = memoryFs();
      await memory.mkdir("/home/u/.pi/agent/sessions", { recursive: true });
      // The same files through an adapter without `watch`: only the poll can tell.
      const fs: FileSystem = mode === "watch" ? memory : { read: (p: string, r?: ReadRange) => memory.read(p, r), stat: (p: string) => memory.stat(p), list: (d: string) => memory.list(d) } as unknown as FileSystem;
      const { allSessionFiles } = await import("../../src/session/list-sessions.ts");
      const watcher = new SessionWatcher({ fs, watchDirs: ["/home/u/.pi/agent/sessions"], listFiles: () => allSessionFiles(fs, "/home/u/.pi/agent"), pollMs: { watched: 60_000, unwatched: 20 } });
      await watcher.start();
      try {
        const created = collect((l) => watcher.subscribe(l), (events) => events.some((e) => e.type === "created"));
        const path = await addSession(memory, ID, [userEntry("u1", null, "hi")]);
        const [first] = await created;
        assert.deepEqual([first.type, first.id, first.path], ["created", ID, path]);

        const renamed = collect((l) => watcher.subscribe(l), (events) => events.some((e) => e.type === "renamed"));
        await memory.append(path, encoder.encode(jsonl({ type: "session_info", id: "n1", parentId: "u1", timestamp: "2025-06-01T10:00:05.000Z", name: "Parser work" })));
        const events = await renamed;
        assert.deepEqual(events.map((e) => e.type), ["appended", "renamed"]);
        assert.equal(events[1].name, "Parser work");
        assert.equal(events[0].size, (await memory.stat(path))!.size);

        const deleted = collect((l) => watcher.subscribe(l), (events) => events.some((e) => e.type === "deleted"));
        await memory.remove(path);
        assert.deepEqual((await deleted).map((e) => [e.type, e.id]), [["deleted", ID]]);
      } finally {
        watcher.close();
      }
    });
  }

  it("reports nothing for what is already there when it starts", async () => {
    const fs = memoryFs();
    await addSession(fs, ID, [userEntry("u1", null, "hi")]);
    const { allSessionFiles } = await import("../../src/session/list-sessions.ts");
    const watcher = new SessionWatcher({ fs, watchDirs: [], listFiles: () => allSessionFiles(fs, "/home/u/.pi/agent"), pollMs: { watched: 60_000, unwatched: 60_000 } });
    const seen: SessionEvent[] = [];
    watcher.subscribe((e) => seen.push(e));
    await watcher.start();
    await watcher.refresh();
    watcher.close();
    assert.deepEqual(seen, []);
  });

  it("asks for a collection at the first file of each full scan and every 1,000th after", async () => {
    const files = Array.from({ length: 2001 }, (_, i) => `/nowhere/${i}.jsonl`);
    let collected = 0;
    const watcher = new SessionWatcher({ fs: memoryFs(), watchDirs: [], listFiles: () => Promise.resolve(files), pollMs: { watched: 60_000, unwatched: 60_000 }, collect: () => collected++ });
    await watcher.start();
    assert.equal(collected, 3);
    await watcher.refresh();
    watcher.close();
    assert.equal(collected, 6);
  });

  it("asks for a full collection once each full scan is done, not before", async () => {
    const files = ["/nowhere/a.jsonl", "/nowhere/b.jsonl"];
    const calls: string[] = [];
    const listFiles = () => {
      calls.push("list");
      return Promise.resolve(files);
    };
    const watcher = new SessionWatcher({ fs: memoryFs(), watchDirs: [], listFiles, pollMs: { watched: 60_000, unwatched: 60_000 }, scanned: () => calls.push("scanned") });
    await watcher.start();
    await watcher.refresh();
    watcher.close();
    assert.deepEqual(calls, ["list", "scanned", "list", "scanned"]);
  });

  it("reports the ids of sessions named as pi names them and of others by their header, when they change", async () => {
    const fs = memoryFs();
    await addSession(fs, ID, [userEntry("u1", null, "hi")]);
    const { allSessionFiles } = await import("../../src/session/list-sessions.ts");
    const [named] = await allSessionFiles(fs, "/home/u/.pi/agent");
    // Beside pi's file, in its folder.
    const odd = `${named.slice(0, named.lastIndexOf("/"))}/not-pi-named.jsonl`;
    await fs.writeAtomic(odd, encoder.encode(JSON.stringify({ type: "session", version: 3, id: "0dd00000-0000-4000-8000-000000000001", timestamp: "2025-06-01T10:00:00.000Z", cwd: "/home/u/proj" }) + "\n"));
    const watcher = new SessionWatcher({ fs, watchDirs: [], listFiles: () => allSessionFiles(fs, "/home/u/.pi/agent"), pollMs: { watched: 60_000, unwatched: 60_000 } });
    const seen: SessionEvent[] = [];
    watcher.subscribe((e) => seen.push(e));
    await watcher.start();
    await fs.append(named, encoder.encode("\n"));
    await fs.append(odd, encoder.encode("\n"));
    await watcher.refresh();
    await fs.remove(named);
    await fs.remove(odd);
    await watcher.refresh();
    watcher.close();
    assert.deepEqual(seen.map((e) => `${e.type} ${e.id}`).sort(), [`appended ${ID}`, "appended 0dd00000-0000-4000-8000-000000000001", `deleted ${ID}`, "deleted 0dd00000-0000-4000-8000-000000000001"].sort());
  });
});

describe("/api/events", () => {
  let server: TestServer;
  before(async () => {
    // A clock that moves (a second a step), as a disk's does: the catalog's quick check knows a
    // folder changed by its mtime, which a fixed clock would never change.
    let tick = NOW.getTime();
    server = await testServer({ fs: new MemoryFileSystem({ clock: () => (tick += 1000), cwd: CWD }) });
    await server.fs.mkdir("/home/u/.pi/agent/sessions", { recursive: true });
  });
  after(() => server.close());

  it("streams a ready event, then each change as `event: <type>` with JSON data", async () => {
    const response = await server.fetch("/api/events");
    assert.equal(response.status, 200);
    assert.match(response.headers.get("Content-Type") ?? "", /^text\/event-stream/);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    const until = async (pattern: RegExp) => {
      while (!pattern.test(text)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended before ${pattern}: ${text}`);
        text += decoder.decode(value, { stream: true });
      }
    };
    await until(/event: ready\n/);
    const path = await addSession(server.fs, ID, [userEntry("u1", null, "hi")]);
    await until(/event: created\ndata: .*\n\n/);
    await server.fs.append(path, encoder.encode(jsonl(userEntry("u2", "u1", "more"))));
    await until(/event: appended\ndata: .*\n\n/);
    const created = JSON.parse(/event: created\ndata: (.*)\n/.exec(text)![1]);
    assert.deepEqual([created.type, created.id, created.path], ["created", ID, path]);
    assert.equal(server.state.streams.size, 1);
    server.state.streams.closeAll();
    assert.equal(server.state.streams.size, 0);
    for (;;) {
      const { done } = await reader.read();
      if (done) break;
    }
  });

  it("answers again after a change: a cached listing is dropped when the watcher sees a new session", async () => {
    const before = await server.json("/api/sessions") as { id: string }[];
    assert.deepEqual(await server.json("/api/sessions"), before);
    const seen = collect((l) => server.state.watcher.subscribe(l), (events) => events.some((e) => e.type === "created" && e.id === "0c1d2e3f-0000-4000-8000-000000000003"));
    await addSession(server.fs, "0c1d2e3f-0000-4000-8000-000000000003", [userEntry("u1", null, "new one")]);
    await seen;
    const after = await server.json("/api/sessions") as { id: string }[];
    assert.equal(after.length, before.length + 1);
    assert.ok(after.some((s) => s.id === "0c1d2e3f-0000-4000-8000-000000000003"));
  });

  it("masks a secret in a new name (redaction is on by default)", async () => {
    const response = await server.fetch("/api/events");
    const reader = response.body!.getReader();
    let text = "";
    const path = await addSession(server.fs, "0c1d2e3f-0000-4000-8000-000000000002", [userEntry("u1", null, "hi")]);
    while (!/event: created\ndata: .*\n\n/.test(text)) text += new TextDecoder().decode((await reader.read()).value);
    await server.fs.append(path, encoder.encode(jsonl({ type: "session_info", id: "n1", parentId: "u1", timestamp: "2025-06-01T10:00:05.000Z", name: "key sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z" })));
    while (!/event: renamed\ndata: .*\n\n/.test(text)) text += new TextDecoder().decode((await reader.read()).value);
    server.state.streams.closeAll();
    const renamed = JSON.parse(/event: renamed\ndata: (.*)\n/.exec(text)![1]);
    assert.doesNotMatch(renamed.name, /Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z/);
    assert.match(renamed.name, /^key sk-proj-/);
    assert.equal(sseMessage("x", { a: 1 }), 'event: x\ndata: {"a":1}\n\n');
  });
});

/**
 * The server's safety rules: binds beyond loopback need a token, the token (bearer, one-time
 * ?token= into an HttpOnly SameSite=Strict cookie), the Host check against DNS rebinding, no
 * CORS unless asked, read-only methods, and session references that cannot reach any file
 * outside the session folders: 20+ traversal variants answer 404 with nothing read outside,
 * and a link inside a session folder to a session elsewhere is not served.
 */
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { FileSystem } from "../../src/io/file-system.ts";
import { nodeFileSystem } from "../../src/io/node.ts";
import { bindRefusal, hostAllowed, isLoopback, isSafeRef, presentedToken, sameSecret } from "../../src/serve/security.ts";
import { addSession, AGENT_DIR, fingerprint, jsonl, header, memoryFs, runCli, userEntry, writeText } from "../cli/_harness.ts";
import { type TestServer, testServer } from "./_server.ts";

const ID = "0b1c2d3e-0000-4000-8000-000000000001";

describe("serve safety rules (pure)", () => {
  it("isLoopback() knows loopback names and addresses, and nothing else", () => {
    for (const host of ["127.0.0.1", "127.1.2.3", "localhost", "LOCALHOST", "::1", "[::1]", "app.localhost"]) assert.ok(isLoopback(host), host);
    for (const host of ["0.0.0.0", "::", "192.168.1.2", "example.com", "localhost.example.com", "127.0.0.1.nip.io", "1.2.3.4"]) assert.ok(!isLoopback(host), host);
  });

  it("bindRefusal() refuses a non-loopback bind without a token", () => {
    assert.equal(bindRefusal("127.0.0.1", undefined), null);
    assert.match(bindRefusal("0.0.0.0", undefined) ?? "", /without a token/);
    assert.match(bindRefusal("0.0.0.0", "") ?? "", /without a token/);
    assert.equal(bindRefusal("0.0.0.0", "s3cret-token"), null);
  });

  it("hostAllowed() on loopback takes only loopback Host headers; beyond loopback any", () => {
    for (const host of ["127.0.0.1:8377", "localhost:8377", "[::1]:8377", "localhost"]) assert.ok(hostAllowed(host, "127.0.0.1"), host);
    for (const host of ["evil.example:8377", "evil.example", "localhost.evil.example", "127.0.0.1.evil.example", "", "[::1", null]) assert.ok(!hostAllowed(host, "127.0.0.1"), String(host));
    assert.ok(hostAllowed("build-box.internal:8377", "0.0.0.0"));
  });

  it("presentedToken() reads a bearer header, else the cookie; sameSecret() compares whole values", () => {
    assert.equal(presentedToken("Bearer abc", undefined), "abc");
    assert.equal(presentedToken("bearer  abc ", undefined), "abc");
    assert.equal(presentedToken(undefined, "a=1; pi_session_token=xyz; b=2"), "xyz");
    assert.equal(presentedToken("Basic abc", undefined), undefined);
    assert.ok(sameSecret("token", "token"));
    assert.ok(!sameSecret("token", "token2"));
    assert.ok(!sameSecret("", "token"));
    assert.ok(!sameSecret("tokem", "token"));
  });

  it("isSafeRef() lets through ids and id prefixes only", () => {
    for (const ref of [ID, "0b1c2d3e", "legacy-v1-session", "a.b_c-d"]) assert.ok(isSafeRef(ref), ref);
    for (const ref of ["", "@", "../x", "a/b", "a\\b", "s.jsonl", "..", ".hidden", "a..b", "x\u0000", "-x", "~"]) assert.ok(!isSafeRef(ref), ref);
  });
});

describe("serve token and Host checks", () => {
  let server: TestServer;
  before(async () => {
    server = await testServer({ token: "s3cret-token" });
    await addSession(server.fs, ID, [userEntry("u1", null, "hello")]);
  });
  after(() => server.close());

  it("answers 401 without a token, with a wrong one, and 200 with the right bearer token", async () => {
    assert.equal((await server.fetch("/api/sessions")).status, 401);
    assert.equal((await server.fetch("/")).status, 401);
    assert.equal((await server.fetch("/metrics")).status, 401);
    assert.equal((await server.fetch("/api/events")).status, 401);
    assert.equal((await server.fetch("/api/sessions", { headers: { Authorization: "Bearer wrong" } })).status, 401);
    assert.equal((await server.fetch("/api/sessions", { headers: { Cookie: "pi_session_token=wrong" } })).status, 401);
    const ok = await server.fetch("/api/sessions", { headers: { Authorization: "Bearer s3cret-token" } });
    assert.equal(ok.status, 200);
    assert.equal((await ok.json() as unknown[]).length, 1);
  });

  it("takes ?token= once: a 303 to the same page without it, setting an HttpOnly SameSite=Strict cookie that then works", async () => {
    const response = await server.fetch(`/sessions/${ID}?leaf=u1&token=s3cret-token`, { redirect: "manual" });
    assert.equal(response.status, 303);
    assert.equal(response.headers.get("Location"), `/sessions/${ID}?leaf=u1`);
    const cookie = response.headers.get("Set-Cookie") ?? "";
    assert.match(cookie, /^pi_session_token=s3cret-token;/);
    assert.match(cookie, /HttpOnly/);
    assert.match(cookie, /SameSite=Strict/);
    const page = await server.fetch(`/sessions/${ID}?leaf=u1`, { headers: { Cookie: cookie.split(";")[0] } });
    assert.equal(page.status, 200);
    assert.equal((await server.fetch("/?token=nope")).status, 401);
  });

  it("lets /healthz through without a token (a container's probe has none)", async () => {
    const response = await server.fetch("/healthz");
    assert.equal(response.status, 200);
    assert.equal(await response.text(), "ok\n");
  });

  it("turns away a foreign Host header on loopback with 421 (DNS rebinding), before the token", async () => {
    for (const host of ["evil.example", "evil.example:8377", "localhost.evil.example"]) {
      const response = await server.fetch("/api/sessions", { headers: { Host: host, Authorization: "Bearer s3cret-token" } });
      assert.equal(response.status, 421, host);
      assert.equal((await response.json() as { error: { code: string } }).error.code, "bad-host");
    }
    const local = await server.fetch("/api/sessions", { headers: { Host: "localhost:8377", Authorization: "Bearer s3cret-token" } });
    assert.equal(local.status, 200);
  });
});

describe("serve CORS, methods and headers", () => {
  let plain: TestServer;
  let cors: TestServer;
  before(async () => {
    plain = await testServer();
    cors = await testServer({ cors: "https://app.example" });
    for (const s of [plain, cors]) await addSession(s.fs, ID, [userEntry("u1", null, "hello")]);
  });
  after(async () => {
    await plain.close();
    await cors.close();
  });

  it("sends no CORS headers unless --cors names the origin, and then only to it", async () => {
    const origin = { Origin: "https://app.example" };
    assert.equal((await plain.fetch("/api/sessions", { headers: origin })).headers.get("Access-Control-Allow-Origin"), null);
    assert.equal((await plain.fetch("/api/sessions", { method: "OPTIONS", headers: origin })).headers.get("Access-Control-Allow-Origin"), null);
    assert.equal((await cors.fetch("/api/sessions", { headers: origin })).headers.get("Access-Control-Allow-Origin"), "https://app.example");
    assert.equal((await cors.fetch("/api/sessions", { headers: { Origin: "https://evil.example" } })).headers.get("Access-Control-Allow-Origin"), null);
    const preflight = await cors.fetch("/api/sessions", { method: "OPTIONS", headers: { ...origin, "Access-Control-Request-Method": "GET" } });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get("Access-Control-Allow-Methods"), "GET, HEAD");
    assert.equal((await cors.fetch("/api/sessions", { method: "OPTIONS", headers: { Origin: "https://evil.example" } })).status, 403);
  });

  it("refuses every method that is not reading with 405, and changes no file", async () => {
    const before = await fingerprint(plain.fs, AGENT_DIR);
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      for (const path of ["/api/sessions", `/api/sessions/${ID}`, `/sessions/${ID}`, "/"]) {
        const response = await plain.fetch(path, { method, body: method === "DELETE" ? undefined : "{}" });
        assert.equal(response.status, 405, `${method} ${path}`);
      }
    }
    assert.equal(await fingerprint(plain.fs, AGENT_DIR), before);
  });

  it("sends nosniff, no framing and no referrer on every answer; pages a CSP with hashes and connect-src 'self'", async () => {
    for (const path of ["/api/sessions", "/", "/nothing"]) {
      const response = await plain.fetch(path);
      assert.equal(response.headers.get("X-Content-Type-Options"), "nosniff", path);
      assert.equal(response.headers.get("X-Frame-Options"), "DENY", path);
      assert.equal(response.headers.get("Referrer-Policy"), "no-referrer", path);
    }
    const csp = (await plain.fetch("/")).headers.get("Content-Security-Policy") ?? "";
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'sha256-[A-Za-z0-9+/=]+'(;|$)/);
    assert.match(csp, /connect-src 'self'/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:/);
  });
});

/** The variants: each names no session, whatever a resolver or a file system might make of it. */
const TRAVERSALS = [
  "../../../etc/passwd",
  "..%2F..%2F..%2Fetc%2Fpasswd",
  "%2e%2e%2f%2e%2e%2fetc%2fpasswd",
  "%252e%252e%252fetc%252fpasswd",
  "..%5C..%5Cwindows%5Cwin.ini",
  "%2Fetc%2Fpasswd",
  "%2Fhome%2Fu%2Foutside.jsonl",
  "outside.jsonl",
  "..%2Foutside.jsonl",
  "....%2F%2F....%2F%2Fetc%2Fpasswd",
  "%c0%ae%c0%ae%2Fetc%2Fpasswd",
  "..;%2Fetc%2Fpasswd",
  "..%00",
  "%00",
  "@",
  "~%2Foutside.jsonl",
  "file:%2F%2F%2Fetc%2Fpasswd",
  "C:%5Cwindows%5Cwin.ini",
  "%5C%5Cserver%5Cshare",
  "sessions%2F..%2F..%2Foutside",
  // (A bare "..", ".", "%2e%2e" never gets here: URLs resolve dot segments before routing.)
  "%2e%2e%2f",
  "%2e%2e%5c",
  "outside%2Ejsonl",
  "0b1c2d3e%2F..%2F..%2Foutside",
  "%2E%2E%2F%2E%2E%2F.pi%2Fagent%2Fauth.json",
];

describe("serve references cannot leave the session folders", () => {
  let server: TestServer;
  const reads: string[] = [];
  before(async () => {
    const fs = memoryFs();
    await writeText(fs, "/etc/passwd", "root:x:0:0\n");
    // A perfectly good session, but outside the session folders; and pi's secrets beside them.
    await writeText(fs, "/home/u/outside.jsonl", jsonl(header("outside-0001"), userEntry("u1", null, "not yours")));
    await writeText(fs, `${AGENT_DIR}/auth.json`, '{"anthropic":{"key":"sk-ant-secret"}}\n');
    await addSession(fs, ID, [userEntry("u1", null, "hello")]);
    const spy: FileSystem = {
      ...fs,
      read: (path, range) => (reads.push(path), fs.read(path, range)),
      stat: (path) => (reads.push(path), fs.stat(path)),
      list: (dir) => (reads.push(dir), fs.list(dir)),
      append: fs.append.bind(fs),
      writeAtomic: fs.writeAtomic.bind(fs),
      rename: fs.rename.bind(fs),
      remove: fs.remove.bind(fs),
      mkdir: fs.mkdir.bind(fs),
      link: fs.link.bind(fs),
      realPath: fs.realPath.bind(fs),
      watch: fs.watch.bind(fs),
    };
    server = await testServer({ fs: spy });
  });
  after(() => server.close());

  const routes = (ref: string) => [`/api/sessions/${ref}`, `/api/sessions/${ref}/tree`, `/api/sessions/${ref}/entries`, `/api/sessions/${ref}/context`, `/sessions/${ref}`, `/sessions/${ref}/context`];

  it(`answers 404 to ${TRAVERSALS.length} traversal variants on every session route, reading nothing outside`, async () => {
    assert.ok(TRAVERSALS.length >= 20);
    reads.length = 0;
    for (const ref of TRAVERSALS) {
      for (const path of routes(ref)) {
        const response = await server.fetch(path);
        assert.equal(response.status, 404, `${path}: ${response.status}`);
        const body = await response.text();
        assert.doesNotMatch(body, /root:x|not yours|sk-ant-secret/, path);
      }
    }
    const outside = reads.filter((path) => path.startsWith("/etc") || path.includes("outside") || path.endsWith("auth.json"));
    assert.deepEqual(outside, []);
  });

  it("answers 404 to traversal in leaf= and after=, reading nothing outside", async () => {
    reads.length = 0;
    for (const ref of ["../../etc/passwd", "%2Fetc%2Fpasswd", "..%2F..", "a/b"]) {
      for (const path of [`/api/sessions/${ID}/context?leaf=${ref}`, `/api/sessions/${ID}/entries?after=${ref}`, `/sessions/${ID}?leaf=${ref}`]) {
        assert.equal((await server.fetch(path)).status, 404, path);
      }
    }
    assert.deepEqual(reads.filter((path) => path.startsWith("/etc") || path.includes("outside")), []);
  });

  it("still serves the session that is inside", async () => {
    assert.equal((await server.fetch(`/api/sessions/${ID}`)).status, 200);
  });
});

describe("serve on a real disk", () => {
  let work = "";
  before(async () => {
    work = await mkdtemp(join(tmpdir(), "pi-session-serve-"));
  });
  after(() => rm(work, { recursive: true, force: true }));

  it("does not serve a session reached by a symbolic link out of the session folder", async () => {
    const agent = join(work, "agent");
    const project = join(agent, "sessions", "--w--");
    await mkdir(project, { recursive: true });
    await mkdir(join(work, "elsewhere"));
    const outside = join(work, "elsewhere", "2025-01-01T00-00-00-000Z_linked-0001.jsonl");
    await writeFile(outside, jsonl(header("linked-0001", "/w"), userEntry("u1", null, "private words")));
    await symlink(outside, join(project, "2025-01-01T00-00-00-000Z_linked-0001.jsonl"));
    await writeFile(join(project, "2025-01-02T00-00-00-000Z_inside-0001.jsonl"), jsonl(header("inside-0001", "/w"), userEntry("u1", null, "fine")));
    const server = await testServer({ fs: nodeFileSystem, agentDir: agent, env: { XDG_CACHE_HOME: join(work, "cache"), PI_SESSION_CATALOG: "file" } });
    try {
      const listed = await server.json("/api/sessions") as { id: string }[];
      assert.deepEqual(listed.map((s) => s.id), ["inside-0001"]);
      for (const path of ["/api/sessions/linked-0001", "/api/sessions/linked-0001/entries", "/sessions/linked-0001"]) {
        const response = await server.fetch(path);
        assert.equal(response.status, 404, path);
        assert.doesNotMatch(await response.text(), /private words/);
      }
    } finally {
      await server.close();
    }
  });

  it("`serve --host 0.0.0.0` without a token exits 2 before listening, saying why", async () => {
    const run = await runCli(["serve", "--host", "0.0.0.0", "--port", "0"]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /Refusing to serve on 0\.0\.0\.0 without a token/);
    assert.match(run.stderr, /PI_SESSION_TOKEN/);
    assert.equal(run.stdout, "");
  });
});

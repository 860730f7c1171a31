// A loopback OTLP/HTTP receiver for the otel bench: answers 200 to every request, counts them.
// Run as `node scripts/bench/otlp-sink.mjs PORT`; prints "ready" once listening.
import { createServer } from "node:http";
import process from "node:process";

let requests = 0;
let bytes = 0;
const server = createServer((req, res) => {
  req.on("data", (chunk) => (bytes += chunk.length));
  req.on("end", () => {
    requests++;
    res.writeHead(200, { "content-type": "application/x-protobuf" });
    res.end();
  });
});
server.listen(Number(process.argv[2]), "127.0.0.1", () => process.stdout.write("ready\n"));
process.on("SIGTERM", () => {
  process.stderr.write(`otlp-sink: ${requests} requests, ${bytes} bytes (gzipped)\n`);
  process.exit(0);
});

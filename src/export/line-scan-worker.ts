/**
 * The worker thread of a scan ahead (scan-ahead.ts starts it): reads a session file line by line,
 * from the line the main thread was at when the worker got going, and sends each line's
 * `Redactor.scan` flags, where the line is and how long it is, `SCAN_SEGMENT`
 * lines a message on the port it was given (the arrays' buffers transferred, not copied). The
 * line's bytes are those an export embeds: without the `\n`, and without a `\r` before it.
 * @module
 */
import { workerData } from "node:worker_threads";
import { LineSplitter } from "../core/read/line-splitter.ts";
import { Redactor } from "../core/redact/redactor.ts";
import { detectFileSystem } from "../io/mod.ts";
import { SCAN_SEGMENT, type ScanReply, type ScanRequest } from "./scan-ahead.ts";

const { path, options, port, position } = workerData as ScanRequest;

/** The lines of one message, in file order. */
class Segment {
  readonly flags = new Uint8Array(SCAN_SEGMENT);
  readonly offsets = new Float64Array(SCAN_SEGMENT);
  readonly lengths = new Float64Array(SCAN_SEGMENT);
  count = 0;

  send(): void {
    const reply: ScanReply = { flags: this.flags.subarray(0, this.count), offsets: this.offsets.subarray(0, this.count), lengths: this.lengths.subarray(0, this.count) };
    port.postMessage(reply, [this.flags.buffer, this.offsets.buffer, this.lengths.buffer] as ArrayBuffer[]);
  }
}

async function scan(): Promise<void> {
  const redactor = new Redactor(options);
  // Where the main thread is now: the lines before it are its own. Read from the byte before, so
  // that the first line cut there (empty when a line starts at `from`) is known to be partial.
  const from = new Float64Array(position)[0];
  const start = Math.max(0, from - 1);
  let skip = start > 0;
  let segment = new Segment();
  const splitter = new LineSplitter((line) => {
    if (skip) {
      skip = false;
      return;
    }
    let bytes = line.bytes;
    if (bytes.length > 0 && bytes[bytes.length - 1] === 0x0d) bytes = bytes.subarray(0, bytes.length - 1);
    const k = segment.count++;
    segment.flags[k] = redactor.scan(bytes);
    segment.offsets[k] = start + line.offset;
    segment.lengths[k] = bytes.length;
    if (segment.count === SCAN_SEGMENT) {
      segment.send();
      segment = new Segment();
    }
  });
  for await (const chunk of detectFileSystem().read(path, { start, reuseBuffer: true })) splitter.push(chunk);
  splitter.end();
  if (segment.count > 0) segment.send();
}

try {
  await scan();
  port.postMessage({ done: true } satisfies ScanReply);
} catch (error) {
  // The main thread scans the lines left itself, and meets any error there in its own words.
  port.postMessage({ error: error instanceof Error ? error.message : String(error) } satisfies ScanReply);
}

/**
 * The worker thread of a scan ahead (scan-ahead.ts starts it): reads a session file line by line
 * and sends each line's `Redactor.scan` flags, where the line is and how long it is, `SCAN_SEGMENT`
 * lines a message on the port it was given (the arrays' buffers transferred, not copied). The
 * line's bytes are those an export embeds: without the `\n`, and without a `\r` before it.
 * @module
 */
import { workerData } from "node:worker_threads";
import { LineSplitter } from "../core/read/line-splitter.ts";
import { Redactor } from "../core/redact/redactor.ts";
import { detectFileSystem } from "../io/mod.ts";
import { SCAN_SEGMENT, type ScanReply, type ScanRequest } from "./scan-ahead.ts";

const { path, options, port } = workerData as ScanRequest;

/** The lines of one message: line numbers `first` to `first + SCAN_SEGMENT - 1`. */
class Segment {
  readonly flags = new Uint8Array(SCAN_SEGMENT);
  readonly offsets = new Float64Array(SCAN_SEGMENT);
  readonly lengths = new Float64Array(SCAN_SEGMENT);
  readonly first: number;
  count = 0;
  constructor(first: number) {
    this.first = first;
  }

  send(): void {
    const reply: ScanReply = { first: this.first, flags: this.flags.subarray(0, this.count), offsets: this.offsets.subarray(0, this.count), lengths: this.lengths.subarray(0, this.count) };
    port.postMessage(reply, [this.flags.buffer, this.offsets.buffer, this.lengths.buffer] as ArrayBuffer[]);
  }
}

async function scan(): Promise<void> {
  const redactor = new Redactor(options);
  let segment = new Segment(1);
  const splitter = new LineSplitter((line) => {
    let bytes = line.bytes;
    if (bytes.length > 0 && bytes[bytes.length - 1] === 0x0d) bytes = bytes.subarray(0, bytes.length - 1);
    const k = segment.count++;
    segment.flags[k] = redactor.scan(bytes);
    segment.offsets[k] = line.offset;
    segment.lengths[k] = bytes.length;
    if (segment.count === SCAN_SEGMENT) {
      segment.send();
      segment = new Segment(line.number + 1);
    }
  });
  for await (const chunk of detectFileSystem().read(path, { reuseBuffer: true })) splitter.push(chunk);
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

import { once } from "node:events";
import { read } from "node:fs";
import type { Readable, Writable } from "node:stream";
import { StringDecoder } from "node:string_decoder";

/*
 * JSON Lines as a stream, for `entente adjudicate` and `entente agent`: standard input read
 * chunk by chunk and cut into lines, each line answered as soon as its chunk is read, the
 * answers of a chunk written out together before the next chunk is read. When the reader of
 * the output is slower than we are, reading waits for the output to drain (Node's stdout on
 * a pipe queues what the pipe does not take at once): memory stays bounded by a chunk and its
 * answers, whatever the length of the input. docs/adjudicate-json.md, "Streaming".
 */

/** Standard input as it comes: a stream's chunks, or text given at once. */
export type Chunks = AsyncIterable<Buffer | string> | Iterable<Buffer | string>;

/**
 * A file descriptor's bytes as they come (standard input: 0), read into one buffer used again
 * for every chunk: each chunk is valid only until the next is asked for (pumpLines decodes it
 * at once). Node's `process.stdin` makes a new 64 KB buffer a chunk, and the dead ones wait for
 * V8's major collection (external memory may grow by 64 MB before it forces one): on Node 24
 * that put a million-line run's peak at 150 to 160 MB, over the contract's bound (140 with
 * this). A read blocks a thread of libuv's pool, not this one, so a line is still answered as
 * soon as it comes. A descriptor left non-blocking by whoever opened it (EAGAIN) is read
 * through `fallback()` from there on: nothing was taken from it by the refused read.
 */
export async function* descriptorChunks(
  fd: number,
  fallback: () => Readable,
): AsyncGenerator<Buffer | string> {
  const buf = Buffer.allocUnsafe(1 << 16);
  for (;;) {
    let n: number;
    try {
      n = await new Promise<number>((resolve, reject) =>
        read(fd, buf, 0, buf.length, null, (e, k) => (e ? reject(e) : resolve(k))),
      );
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EAGAIN") throw e;
      yield* fallback();
      return;
    }
    if (n === 0) return;
    yield buf.subarray(0, n);
  }
}

/** Where answers go. */
export interface LineOutput {
  /** Writes the text; false when the reader is behind (then wait for `drained`). */
  write(text: string): boolean;
  /** Resolves when written text has been taken (the stream's `drain`). */
  drained(): Promise<void>;
}

/** A Node stream as a LineOutput. */
export function streamOutput(w: Writable): LineOutput {
  return {
    write: (text) => w.write(text),
    drained: async () => {
      if (w.writableNeedDrain) await once(w, "drain");
    },
  };
}

/** Text handed to a function as a LineOutput that is never behind (tests, in-process runs). */
export const textOutput = (write: (text: string) => void): LineOutput => ({
  write: (text) => {
    write(text);
    return true;
  },
  drained: async () => {},
});

/**
 * Answers past this many characters are written before the rest of a chunk is read, so that
 * a chunk of many short lines does not gather all its answers first.
 */
const BATCH = 1 << 16;

/** One input's handler: each complete line in order, then the end of the input. */
export interface LineHandler {
  /** Answers one line (without its line break): the text to write, "" for none. */
  line(text: string): string;
  /** The input ended: what to write last. */
  end(): string;
}

/**
 * Feeds `input` to `handler` line by line and writes its answers to `output`, waiting for the
 * output whenever it is behind. Lines end at "\n"; with `crlf`, at "\r" and "\r\n" too (as
 * node:readline cuts them). The text after the last line break is a line too, as
 * `text.split("\n")` makes it.
 */
export async function pumpLines(
  input: Chunks,
  output: LineOutput,
  handler: LineHandler,
  crlf = false,
): Promise<void> {
  const decoder = new StringDecoder("utf8");
  let carry = "";
  // With crlf: the last chunk ended with "\r", so a "\n" starting the next one ends nothing.
  let afterCr = false;
  let batch = "";
  const flush = async () => {
    if (batch === "") return;
    const text = batch;
    batch = "";
    if (!output.write(text)) await output.drained();
  };
  for await (const chunk of input) {
    let text = typeof chunk === "string" ? chunk : decoder.write(chunk);
    if (text === "") continue;
    if (afterCr) {
      afterCr = false;
      if (text.charCodeAt(0) === 10) text = text.slice(1);
    }
    let start = 0;
    for (;;) {
      let end = text.indexOf("\n", start);
      let next = end + 1;
      if (crlf) {
        const cr = text.indexOf("\r", start);
        if (cr >= 0 && (end < 0 || cr < end)) {
          end = cr;
          if (cr + 1 === text.length) {
            afterCr = true;
            next = cr + 1;
          } else next = text.charCodeAt(cr + 1) === 10 ? cr + 2 : cr + 1;
        }
      }
      if (end < 0) break;
      const line = carry === "" ? text.slice(start, end) : carry + text.slice(start, end);
      carry = "";
      batch += handler.line(line);
      start = next;
      if (batch.length >= BATCH) await flush();
    }
    if (start < text.length) carry += text.slice(start);
    await flush();
  }
  const rest = carry + decoder.end();
  batch += handler.line(rest);
  batch += handler.end();
  await flush();
}

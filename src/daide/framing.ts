/*
 * The client-server protocol's messages over a byte stream: each has a four-byte header (the
 * type, a pad byte, the length of what follows as a big-endian 16-bit number) and its body.
 * The initial message (IM) carries the version and the magic number, the representation
 * message (RM) a map's own power and province tokens, the diplomacy message (DM) tokens,
 * the final message (FM) nothing; the error message (EM) an error code.
 */
import type { Token } from "./tokens.ts";

export const MESSAGE = { IM: 0, RM: 1, DM: 2, FM: 3, EM: 4 } as const;

/** The protocol's version, and its magic number (0xDA10; 0x10DA means the wrong byte order). */
export const VERSION = 1;
export const MAGIC = 0xda10;

/** The error codes an EM carries. */
export const ERROR = {
  timerPopped: 0x01,
  notFirstMessage: 0x02,
  wrongEndian: 0x03,
  wrongMagic: 0x04,
  versionIncompatible: 0x05,
  moreThanOneIM: 0x06,
  imFromServer: 0x07,
  unknownMessage: 0x08,
  shorterThanExpected: 0x09,
  dmBeforeRM: 0x0a,
  rmNotFirst: 0x0b,
  moreThanOneRM: 0x0c,
  rmFromClient: 0x0d,
  invalidToken: 0x0e,
} as const;

export interface Frame {
  readonly type: number;
  readonly body: Buffer;
}

/** The longest body a header can announce. */
const MAX_BODY = 0xffff;

/**
 * Cuts a byte stream into frames. Bytes come as the socket gives them; whole frames come out.
 */
export class FrameReader {
  private pending: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): Frame[] {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const out: Frame[] = [];
    while (this.pending.length >= 4) {
      const length = this.pending.readUInt16BE(2);
      if (this.pending.length < 4 + length) break;
      out.push({
        type: this.pending[0]!,
        body: Buffer.from(this.pending.subarray(4, 4 + length)),
      });
      this.pending = this.pending.subarray(4 + length);
    }
    return out;
  }

  /** Bytes of a frame begun and not finished. */
  get buffered(): number {
    return this.pending.length;
  }
}

export function frame(type: number, body: Buffer = Buffer.alloc(0)): Buffer {
  if (body.length > MAX_BODY)
    throw new RangeError(`a DAIDE message body is at most ${MAX_BODY} bytes`);
  const head = Buffer.alloc(4);
  head[0] = type;
  head.writeUInt16BE(body.length, 2);
  return Buffer.concat([head, body]);
}

/** The initial message a client sends first. */
export function initialMessage(version = VERSION, magic = MAGIC): Buffer {
  const body = Buffer.alloc(4);
  body.writeUInt16BE(version, 0);
  body.writeUInt16BE(magic, 2);
  return frame(MESSAGE.IM, body);
}

export function errorMessage(code: number): Buffer {
  const body = Buffer.alloc(2);
  body.writeUInt16BE(code, 0);
  return frame(MESSAGE.EM, body);
}

export const finalMessage = (): Buffer => frame(MESSAGE.FM);

export function diplomacyMessage(tokens: readonly Token[]): Buffer {
  const body = Buffer.alloc(tokens.length * 2);
  tokens.forEach((x, i) => {
    body.writeUInt16BE(x, i * 2);
  });
  return frame(MESSAGE.DM, body);
}

/** A DM's body as tokens; null if its length is odd. */
export function tokensOf(body: Buffer): Token[] | null {
  if (body.length % 2 !== 0) return null;
  const out: Token[] = [];
  for (let i = 0; i < body.length; i += 2) out.push(body.readUInt16BE(i));
  return out;
}

/** An IM's fault, as the error code to answer, or null if the version and magic number are right. */
export function initialFault(body: Buffer): number | null {
  if (body.length !== 4) return ERROR.shorterThanExpected;
  const version = body.readUInt16BE(0);
  const magic = body.readUInt16BE(2);
  if (magic === 0x10da) return ERROR.wrongEndian;
  if (magic !== MAGIC) return ERROR.wrongMagic;
  if (version !== VERSION) return ERROR.versionIncompatible;
  return null;
}

/** A representation message: each entry a token and its name (three characters and a NUL). */
export function representationMessage(
  entries: readonly { readonly token: Token; readonly name: string }[],
): Buffer {
  const body = Buffer.alloc(entries.length * 6);
  entries.forEach((e, i) => {
    body.writeUInt16BE(e.token, i * 6);
    body.write(e.name.padEnd(3, " ").slice(0, 3), i * 6 + 2, "latin1");
    body[i * 6 + 5] = 0;
  });
  return frame(MESSAGE.RM, body);
}

/** An RM's entries read back (the test client's side). */
export function representationEntries(body: Buffer): { token: Token; name: string }[] {
  const out: { token: Token; name: string }[] = [];
  for (let i = 0; i + 6 <= body.length; i += 6)
    out.push({
      token: body.readUInt16BE(i),
      name: body.toString("latin1", i + 2, i + 5).replace(/\0.*$/, ""),
    });
  return out;
}

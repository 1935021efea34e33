/*
 * Errors a person can cause, with the HTTP status the server answers them with. The message
 * says what was wrong and what to do instead; nothing else is ever shown to a client.
 */

export type ErrorKind =
  | "invalid" // 400: the request is malformed or asks for something impossible
  | "unauthenticated" // 401: no or a bad token
  | "forbidden" // 403: not allowed for this role
  | "not-found" // 404
  | "conflict" // 409: the game moved on, a name is taken
  | "too-much" // 422: well formed, but more work than one request may ask for
  | "too-often"; // 429: a quota on how often (`retryAfterSeconds` says when to try again)

export class JudgeError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    /** For "too-often": the seconds until the request would be taken (Retry-After). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

export const invalid = (m: string) => new JudgeError("invalid", m);
export const forbidden = (m: string) => new JudgeError("forbidden", m);
export const notFound = (m: string) => new JudgeError("not-found", m);
export const conflict = (m: string) => new JudgeError("conflict", m);
export const tooMuch = (m: string) => new JudgeError("too-much", m);
export const unauthenticated = (m: string) => new JudgeError("unauthenticated", m);

/**
 * Seed 002 VIII(2) refused: the extra unit came to be in the last adjudication (`phase`), an
 * error that a correction of that adjudication (VIII(1)) puts right, not a removal. A conflict
 * (409); the mail's answer names the CORRECT command for the game.
 */
export class ExtraUnitTooNew extends JudgeError {
  constructor(
    message: string,
    readonly power: string,
    readonly phase: string,
  ) {
    super("conflict", message);
  }
}
export const tooOften = (m: string, retryAfterSeconds: number) =>
  new JudgeError("too-often", m, retryAfterSeconds);

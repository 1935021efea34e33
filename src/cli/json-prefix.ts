/*
 * Whether text read so far can still be the start of one JSON value, fed piece by piece.
 * `entente adjudicate` reads one JSON document over several lines or JSON Lines; when the
 * first line is not a document by itself, its lines are held until this says that the input
 * cannot be one document (then each line is answered as a line, as soon as that is known) or
 * the input ends. It is lenient where that is simple (numbers and literals are runs of
 * letters, digits and signs; escapes are not checked; any white space is skipped): it may
 * say "still possible" of text JSON.parse refuses, never the reverse, so holding lines is
 * only ever a delay. The text fed starts at the first character that is not white space.
 */

/** A value is expected (the start, after ":" or ","). */
const VALUE = 0;
/** After "[": a value or "]". */
const ARRAY_FIRST = 1;
/** After "{": a key or "}". */
const OBJECT_FIRST = 2;
/** After "," in an object: a key. */
const KEY = 3;
/** After a key: ":". */
const COLON = 4;
/** After a value in a list or object: "," or its closing bracket. */
const AFTER_VALUE = 5;
/** The outermost value is complete: only white space may follow. */
const END = 6;
/** Inside a string. */
const IN_STRING = 7;
/** Inside a number or literal. */
const IN_SCALAR = 8;
/** Cannot be one JSON value. */
const FAILED = 9;

const isSpace = (c: number): boolean =>
  c === 32 || (c >= 9 && c <= 13) || (c > 127 && String.fromCharCode(c).trim() === "");

const isScalar = (c: number): boolean =>
  (c >= 48 && c <= 57) || // 0-9
  (c >= 65 && c <= 90) || // A-Z
  (c >= 97 && c <= 122) || // a-z
  c === 43 || // +
  c === 45 || // -
  c === 46; // .

export class JsonPrefix {
  private state = VALUE;
  /** Open brackets, innermost last: 123 "{" or 91 "[". */
  private readonly open: number[] = [];
  /** Inside a string: whether it is a key, and whether the last character was a backslash. */
  private key = false;
  private escaped = false;

  /** Whether the text fed so far can still begin one JSON value (with white space around). */
  get possible(): boolean {
    return this.state !== FAILED;
  }

  /** Reads more text; returns `possible`. */
  feed(text: string): boolean {
    for (let i = 0; i < text.length && this.state !== FAILED; i++) this.char(text.charCodeAt(i));
    return this.possible;
  }

  /** A value just ended: what may come next. */
  private valueDone(): number {
    return this.open.length === 0 ? END : AFTER_VALUE;
  }

  private char(c: number): void {
    switch (this.state) {
      case IN_STRING:
        if (this.escaped) this.escaped = false;
        else if (c === 92) this.escaped = true;
        else if (c === 34) this.state = this.key ? COLON : this.valueDone();
        else if (c < 32) this.state = FAILED; // JSON strings hold no raw control characters
        return;
      case IN_SCALAR:
        if (isScalar(c)) return;
        this.state = this.valueDone();
        this.char(c);
        return;
      default:
        break;
    }
    if (isSpace(c)) return;
    switch (this.state) {
      case VALUE:
      case ARRAY_FIRST:
        if (c === 93 && this.state === ARRAY_FIRST) this.close(91);
        else this.value(c);
        return;
      case OBJECT_FIRST:
        if (c === 125) this.close(123);
        else this.keyStart(c);
        return;
      case KEY:
        this.keyStart(c);
        return;
      case COLON:
        this.state = c === 58 ? VALUE : FAILED;
        return;
      case AFTER_VALUE: {
        const inner = this.open[this.open.length - 1];
        if (c === 44) this.state = inner === 123 ? KEY : VALUE;
        else if (c === 93 || c === 125) this.close(c === 93 ? 91 : 123);
        else this.state = FAILED;
        return;
      }
      default:
        this.state = FAILED; // End: something after the value
    }
  }

  private value(c: number): void {
    if (c === 123 || c === 91) {
      this.open.push(c);
      this.state = c === 123 ? OBJECT_FIRST : ARRAY_FIRST;
    } else if (c === 34) {
      this.key = false;
      this.state = IN_STRING;
    } else if (isScalar(c)) this.state = IN_SCALAR;
    else this.state = FAILED;
  }

  private keyStart(c: number): void {
    if (c === 34) {
      this.key = true;
      this.state = IN_STRING;
    } else this.state = FAILED;
  }

  private close(bracket: number): void {
    if (this.open.pop() !== bracket) this.state = FAILED;
    else this.state = this.valueDone();
  }
}

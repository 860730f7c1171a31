/**
 * The numbers of a file's usage rows packed into one short ASCII string, as the catalog stores
 * them: a JSON array of 13 numbers per row was 27 MB for 25,000 sessions (6.5 MB, 67,430 rows,
 * for one 1.2 GB session), and parsing it back took most of a warm `stats`' time and memory.
 * Each number is a variable-length run of characters (5 bits each, the sixth saying another
 * follows); a row is a tag (source, and what is left out), then its cost key, id, time (as the
 * step from the row before), tokens and costs. Costs are written as the short decimal they print
 * as (0.403944: digits 403944, 6 places) where that gives the same number back, and a total cost
 * that is the sum of the four others is left out. Any number comes back exactly as it was: one
 * that no short form gives back is written as its 64 bits.
 * @module
 */

/** 64 characters that JSON writes as they are; a character's value is its index. */
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const VALUE = new Int8Array(256).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) VALUE[ALPHABET.charCodeAt(i)] = i;
const CODE = Uint8Array.from(ALPHABET, (c) => c.charCodeAt(0));

/** A character carries 5 bits; its 6th says that another one follows. */
const MORE = 32;

/** Powers of ten that doubles hold exactly (10^22 is the last), made by exact multiplications. */
const POW10: number[] = [1];
while (POW10.length <= 22) POW10.push(POW10[POW10.length - 1] * 10);

/** Tag of a row: source + SOURCE_COUNT × (odd + 2 × absolute time) + DERIVED × total left out. */
const SOURCE_COUNT = 5;
const ODD = 1;
const ABSOLUTE = 2;
const DERIVED = 4 * SOURCE_COUNT;

/** Numbers per row, as in `UsageState.numbers`: source, key, id, time, 4 tokens, 5 costs. */
const PER_ROW = 13;
const [SOURCE, KEY, ID, TIME, COST_INPUT, TOTAL] = [0, 1, 2, 3, 8, 12];

/** What an odd row (id and timestamp kept as strings elsewhere) has for its id. */
const ODD_ID = -1;

/** The total a row's costs sum to, as the total cost it may leave out. */
function costSum(n: Float64Array, at: number): number {
  return n[at + COST_INPUT] + n[at + COST_INPUT + 1] + n[at + COST_INPUT + 2] + n[at + COST_INPUT + 3];
}

/** Bytes written so far, growing as needed. */
class Out {
  bytes = new Uint8Array(256);
  length = 0;
  readonly #raw = new DataView(new ArrayBuffer(8));

  /** An unsigned integer up to 2^53, 5 bits a character, lowest first. */
  unsigned(n: number): void {
    if (this.length + 12 > this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2);
      grown.set(this.bytes);
      this.bytes = grown;
    }
    while (n >= MORE) {
      const low = n % MORE;
      this.bytes[this.length++] = CODE[low | MORE];
      n = (n - low) / MORE;
    }
    this.bytes[this.length++] = CODE[n];
  }

  /**
   * Any number: 2n for an integer n from 0 to 2^52; 1 + 2 × (1 + 2 × places + sign), then the
   * digits, for a decimal that gives it back; else 1, then its 64 bits as two halves.
   */
  number(x: number): void {
    if (Number.isInteger(x) && x >= 0 && x <= 2 ** 52 && !Object.is(x, -0)) return this.unsigned(2 * x);
    const places = decimalPlaces(x);
    if (places >= 0) {
      this.unsigned(1 + 2 * (1 + 2 * places + (x < 0 ? 1 : 0)));
      return this.unsigned(decimalDigits);
    }
    this.unsigned(1);
    this.#raw.setFloat64(0, x);
    this.unsigned(this.#raw.getUint32(0));
    this.unsigned(this.#raw.getUint32(4));
  }
}

/** The digits `decimalPlaces` found. */
let decimalDigits = 0;

/**
 * How many places `x` has as digits over a power of ten (at most 10^22) that give it back exactly
 * (0.403944 is 403944 over 10^6; the digits then in `decimalDigits`), the fewest that do; -1 when
 * it has no such form.
 */
function decimalPlaces(x: number): number {
  if (!Number.isFinite(x) || Object.is(x, -0)) return -1;
  const size = Math.abs(x);
  for (let places = 0; places < POW10.length; places++) {
    const digits = Math.round(size * POW10[places]);
    if (digits > Number.MAX_SAFE_INTEGER) return -1;
    if (digits / POW10[places] === size) {
      decimalDigits = digits;
      return places;
    }
  }
  return -1;
}

function decimalValue(digits: number, places: number, sign: number): number {
  const value = digits / POW10[places];
  return sign ? -value : value;
}

/** The rows of `numbers` (`PER_ROW` per row) as a packed string. */
export function packRows(numbers: Float64Array): string {
  const out = new Out();
  let time = 0;
  for (let at = 0; at < numbers.length; at += PER_ROW) {
    const odd = numbers[at + ID] === ODD_ID;
    const step = numbers[at + TIME] - time;
    const absolute = !Object.is(time + step, numbers[at + TIME]);
    const derived = Object.is(numbers[at + TOTAL], costSum(numbers, at));
    out.unsigned(numbers[at + SOURCE] + SOURCE_COUNT * ((odd ? ODD : 0) + (absolute ? ABSOLUTE : 0)) + (derived ? DERIVED : 0));
    out.number(numbers[at + KEY]);
    if (!odd) out.number(numbers[at + ID]);
    out.number(absolute ? numbers[at + TIME] : step);
    time = numbers[at + TIME];
    for (let k = TIME + 1; k < TOTAL; k++) out.number(numbers[at + k]);
    if (!derived) out.number(numbers[at + TOTAL]);
  }
  return new TextDecoder().decode(out.bytes.subarray(0, out.length));
}

const raw = new DataView(new ArrayBuffer(8));

/**
 * The `rows` rows packed in `text`, as `PER_ROW` numbers each; throws `SyntaxError` for a string
 * `packRows` did not make for that many rows. One function over the text's characters, its
 * readers closures over the place they read at: in about half the time of methods over a place
 * kept outside (the 1.2 GB session's 67,430 rows, by hand: 27 ms then, 15 to 20 ms now, against
 * 15 to 26 ms for `JSON.parse` of the array of numbers they were stored as before). `into`: where
 * to put them (its first `rows × PER_ROW` numbers), for a reader that holds one state at a time;
 * a new array without it.
 */
export function unpackRows(text: string, rows: number, into?: (length: number) => Float64Array): Float64Array {
  // Every row takes 11 characters at least: a bound on what a damaged count can allocate.
  if (!Number.isSafeInteger(rows) || rows < 0 || rows * 11 > text.length) throw new SyntaxError("a packed usage state has the wrong number of rows");
  const numbers = into ? into(rows * PER_ROW) : new Float64Array(rows * PER_ROW);
  let at = 0;
  let bad = false;
  // A character past the end, or above 255, has no value (undefined): the read stops there.
  const unsigned = (): number => {
    let d = VALUE[text.charCodeAt(at++)];
    if (d < MORE) {
      if (d < 0) bad = true;
      return d;
    }
    if (d === undefined) return (bad = true, 0);
    let value = d - MORE;
    for (let scale = MORE; ; scale *= MORE) {
      d = VALUE[text.charCodeAt(at++)];
      if (d < MORE) {
        if (d < 0 || scale > 2 ** 53) bad = true;
        return value + d * scale;
      }
      if (d === undefined) return (bad = true, 0);
      value += (d - MORE) * scale;
    }
  };
  // See `Out.number`.
  const number = (): number => {
    const v = unsigned();
    if (v % 2 === 0) return v / 2;
    if (v === 1) {
      raw.setUint32(0, unsigned());
      raw.setUint32(4, unsigned());
      return raw.getFloat64(0);
    }
    const form = (v - 3) / 2;
    const places = form >> 1;
    if (places >= POW10.length) bad = true;
    return decimalValue(unsigned(), places, form & 1);
  };
  let time = 0;
  for (let row = 0; row < numbers.length; row += PER_ROW) {
    const tag = unsigned();
    const mode = Math.floor(tag / SOURCE_COUNT) % 4;
    numbers[row + SOURCE] = tag % SOURCE_COUNT;
    numbers[row + KEY] = number();
    numbers[row + ID] = mode & ODD ? ODD_ID : number();
    time = numbers[row + TIME] = mode & ABSOLUTE ? number() : time + number();
    for (let k = TIME + 1; k < TOTAL; k++) numbers[row + k] = number();
    numbers[row + TOTAL] = tag >= DERIVED ? costSum(numbers, row) : number();
    if (bad || tag >= 2 * DERIVED) throw new SyntaxError(`a packed usage state has a bad character in row ${row / PER_ROW}`);
  }
  if (at !== text.length) throw new SyntaxError("a packed usage state has characters after its rows");
  return numbers;
}

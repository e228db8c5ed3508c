import { isUtf8 } from 'node:buffer';

/**
 * A frame the server refuses; `reason` goes into the close frame and the log line (keep it short). `code` is
 * the close code when it is not NOTES.closeMalformed (an oversized frame is closeTooLarge).
 */
export class MalformedFrame extends Error {
  constructor(
    readonly reason: string,
    readonly code?: number,
  ) {
    super(reason);
  }
}

/** The largest unsigned value lib0 reads without losing precision. */
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/**
 * A strict reader of lib0's encoding, the one Yjs and y-protocols use. Unlike lib0's decoder it never reads
 * past the end (lib0 returns `undefined` bytes there), accepts only minimal varints (`80 00` is not zero), and
 * checks every count against the bytes that remain before anyone allocates for it.
 */
export class FrameReader {
  pos = 0;

  constructor(readonly bytes: Uint8Array) {}

  get remaining(): number {
    return this.bytes.length - this.pos;
  }

  get done(): boolean {
    return this.pos === this.bytes.length;
  }

  uint8(): number {
    if (this.pos >= this.bytes.length) throw new MalformedFrame('truncated');
    return this.bytes[this.pos++]!;
  }

  /** lib0 writeVarUint: 7 bits a byte, low bits first; the last byte of a multi-byte form is never 0. */
  varUint(max = MAX_SAFE): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = this.uint8();
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) {
        if (byte === 0 && scale > 1) throw new MalformedFrame('non-minimal varint');
        if (value > max) throw new MalformedFrame('number out of range');
        return value;
      }
      scale *= 128;
      if (scale > 2 ** 56) throw new MalformedFrame('varint too long');
    }
  }

  /** lib0 writeVarInt: sign in bit 7 and 6 value bits in the first byte, then 7 bits a byte. */
  varInt(): number {
    const first = this.uint8();
    if (first < 0x80) return 0;
    let scale = 64;
    for (;;) {
      const byte = this.uint8();
      if (byte < 0x80) {
        if (byte === 0) throw new MalformedFrame('non-minimal varint');
        return 0;
      }
      scale *= 128;
      if (scale > 2 ** 56) throw new MalformedFrame('varint too long');
    }
  }

  /**
   * A count of items that each take at least `minItemBytes` of what follows. Refusing larger counts here is
   * what keeps `new Array(count)` in Yjs within a few times the frame's size.
   */
  count(minItemBytes: number, max = MAX_SAFE): number {
    const n = this.varUint(max);
    if (n * minItemBytes > this.remaining) throw new MalformedFrame('count exceeds frame');
    return n;
  }

  /** A length-prefixed byte string (lib0 writeVarUint8Array), as a view into the frame. */
  varBytes(): Uint8Array {
    const length = this.varUint();
    if (length > this.remaining) throw new MalformedFrame('length exceeds frame');
    const view = this.bytes.subarray(this.pos, this.pos + length);
    this.pos += length;
    return view;
  }

  skip(length: number): void {
    if (length > this.remaining) throw new MalformedFrame('truncated');
    this.pos += length;
  }

  /** A length-prefixed UTF-8 string; checked without decoding, since most strings are only skipped. */
  varStringBytes(): Uint8Array {
    const bytes = this.varBytes();
    if (!isUtf8(bytes)) throw new MalformedFrame('invalid utf-8');
    return bytes;
  }

  varString(): string {
    return Buffer.from(this.varStringBytes()).toString('utf8');
  }

  /** A string Yjs will JSON.parse: a parse error there would abort the update half-applied. */
  jsonString(allowUndefined: boolean): unknown {
    const text = this.varString();
    if (allowUndefined && text === 'undefined') return undefined;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new MalformedFrame('invalid json');
    }
  }

  /** lib0 writeAny: a type byte (116..127) then the value; containers are bounded in depth and by bytes. */
  any(depthLeft: number): void {
    if (depthLeft <= 0) throw new MalformedFrame('value nested too deep');
    const type = this.uint8();
    switch (type) {
      case 127: // undefined
      case 126: // null
      case 121: // false
      case 120: // true
        return;
      case 125:
        this.varInt();
        return;
      case 124:
        this.skip(4);
        return;
      case 123:
      case 122: // float64, bigint64
        this.skip(8);
        return;
      case 119:
        this.varStringBytes();
        return;
      case 118: {
        // object: key then value, at least two bytes per entry
        const entries = this.count(2);
        for (let i = 0; i < entries; i++) {
          this.varStringBytes();
          this.any(depthLeft - 1);
        }
        return;
      }
      case 117: {
        const items = this.count(1);
        for (let i = 0; i < items; i++) this.any(depthLeft - 1);
        return;
      }
      case 116:
        this.varBytes();
        return;
      default:
        throw new MalformedFrame('unknown value type');
    }
  }
}

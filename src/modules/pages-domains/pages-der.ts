/**
 * A small DER reader for certificates that OpenSSL has already accepted, plus the iterative depth
 * walker that runs before any parser sees the bytes. Nothing here recurses or throws: malformed
 * input is `null` (or -1 for the walker), and every loop advances through the buffer.
 */

/** One element: identifier octet, tag number, and offsets (header start, content start, content end). */
export interface Tlv {
  /** The first identifier octet: class (0xc0), constructed (0x20), low tag number (0x1f). */
  tag: number;
  /** The tag number (high-tag-number form decoded). */
  num: number;
  constructed: boolean;
  start: number;
  body: number;
  end: number;
}

/** The element at `pos`, which must end by `limit`; null when the header is malformed or indefinite. */
export function readTlv(buf: Uint8Array, pos: number, limit: number): Tlv | null {
  if (pos + 2 > limit) return null;
  const tag = buf[pos];
  let i = pos + 1;
  let num = tag & 0x1f;
  if (num === 0x1f) {
    num = 0;
    for (let n = 0; ; n += 1) {
      if (i >= limit || n === 4) return null;
      const b = buf[i++];
      num = num * 128 + (b & 0x7f);
      if (!(b & 0x80)) break;
    }
  }
  if (i >= limit) return null;
  let len = buf[i++];
  if (len & 0x80) {
    const count = len & 0x7f;
    if (count === 0 || count > 4 || i + count > limit) return null; // 0x80: indefinite length (BER, not DER)
    len = 0;
    for (let k = 0; k < count; k += 1) len = len * 256 + buf[i++];
  }
  if (len > limit - i) return null;
  return { tag, num, constructed: (tag & 0x20) !== 0, start: pos, body: i, end: i + len };
}

/** The elements filling `parent`'s content exactly; null when they do not. */
export function childrenOf(buf: Uint8Array, parent: Tlv): Tlv[] | null {
  const out: Tlv[] = [];
  for (let pos = parent.body; pos < parent.end;) {
    const child = readTlv(buf, pos, parent.end);
    if (!child) return null;
    out.push(child);
    pos = child.end;
  }
  return out;
}

/** The single element spanning `buf` exactly, or null. */
export function wholeTlv(buf: Uint8Array): Tlv | null {
  const tlv = readTlv(buf, 0, buf.length);
  return tlv && tlv.end === buf.length ? tlv : null;
}

interface Frame {
  end: number;
  /** Content of an OCTET/BIT STRING read as DER on trial: on a malformed header, skip it as opaque. */
  trial: boolean;
}

/**
 * The nesting depth of `buf` as one DER element: constructed elements, and DER encapsulated in OCTET
 * STRINGs and BIT STRINGs (extension values, keys), each count one level. One pass with an explicit
 * stack (no recursion): every byte is read once, since a failed trial jumps to the end of its
 * string. Returns `max + 1` as soon as the depth exceeds `max`, -1 when `buf` is not one DER element.
 */
export function derDepth(buf: Uint8Array, max: number): number {
  const top = wholeTlv(buf);
  if (!top) return -1;
  const stack: Frame[] = [];
  let deepest = 0;
  let pos = 0;
  let limit = buf.length;
  while (true) {
    while (stack.length && pos === stack[stack.length - 1].end) {
      stack.pop();
      limit = stack.length ? stack[stack.length - 1].end : buf.length;
    }
    if (pos >= buf.length) return deepest;
    const tlv = readTlv(buf, pos, limit);
    if (!tlv) {
      let t = stack.length - 1;
      while (t >= 0 && !stack[t].trial) t -= 1;
      if (t < 0) return -1;
      pos = stack[t].end;
      stack.length = t;
      limit = stack.length ? stack[stack.length - 1].end : buf.length;
      continue;
    }
    const bitString = tlv.tag === 0x03 && tlv.end - tlv.body > 2 && buf[tlv.body] === 0;
    const octetString = tlv.tag === 0x04 && tlv.end - tlv.body >= 2;
    if (tlv.constructed || bitString || octetString) {
      stack.push({ end: tlv.end, trial: !tlv.constructed });
      if (stack.length > deepest) deepest = stack.length;
      if (deepest > max) return max + 1;
      pos = bitString ? tlv.body + 1 : tlv.body;
      limit = tlv.end;
    } else {
      pos = tlv.end;
    }
  }
}

/** Arcs above 2^224 are not rendered (BigInt work stays linear in the OID's length). */
const MAX_ARC_BYTES = 32;

/** Dotted text of an OBJECT IDENTIFIER's content (OpenSSL's numeric form); null when malformed. */
export function oidText(buf: Uint8Array, tlv: Tlv): string | null {
  if (tlv.tag !== 0x06 || tlv.end === tlv.body) return null;
  const arcs: string[] = [];
  let value = 0n;
  let first = true;
  let width = 0;
  for (let i = tlv.body; i < tlv.end; i += 1) {
    const b = buf[i];
    if (value === 0n && b === 0x80) return null; // non-minimal arc
    width += 1;
    if (width > MAX_ARC_BYTES) return null;
    value = (value << 7n) | BigInt(b & 0x7f);
    if (b & 0x80) continue;
    width = 0;
    if (first) {
      const head = value < 40n ? 0n : value < 80n ? 1n : 2n;
      arcs.push(String(head), String(value - head * 40n));
      first = false;
    } else {
      arcs.push(String(value));
    }
    value = 0n;
  }
  return buf[tlv.end - 1] & 0x80 ? null : arcs.join('.');
}

/** The content octets of `tlv`. */
export const contentOf = (buf: Buffer, tlv: Tlv): Buffer => buf.subarray(tlv.body, tlv.end);

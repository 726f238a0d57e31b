import { createHash } from 'node:crypto';
import { dearmor } from './openpgp-armor';

/**
 * What GitLab 10.3 reads from a GPG key through gpgme (lib/gitlab/gpg.rb, after a temporary-keyring
 * import): the primary key's fingerprint and key id. Read here by a small OpenPGP parser (RFC 4880)
 * with hard limits and no recursion, so hostile input is refused in linear time: armor (with its
 * CRC-24), packet framing (old and new headers), and the transferable public key structure (§11.1).
 * Signatures are checked for presence, not verified (gpg also drops user ids whose self-signature
 * does not verify; see docs/rest.md#gpg-keys).
 */
export interface PublicKeyInfo {
  /** SHA-1 v4 fingerprint, 40 upper-case hex digits (GitLab shows its sha_attribute upper-cased). */
  fingerprint: string;
  /** The low 64 bits of the fingerprint, 16 upper-case hex digits. */
  keyId: string;
}

/** At most this many packets in a key block (a key with a few thousand certifications stays below). */
export const MAX_PACKETS = 20_000;

const TAG = {
  signature: 2,
  publicKey: 6,
  marker: 10,
  trust: 12,
  userId: 13,
  publicSubkey: 14,
  userAttribute: 17,
} as const;
const KEY_BLOCK_TAGS = new Set<number>(Object.values(TAG));

interface Packet {
  tag: number;
  body: Uint8Array;
}

/** RFC 4880 §4.2: the packets of `data`, or null when a header is malformed or a length runs past the end. */
export function readPackets(data: Uint8Array): Packet[] | null {
  const packets: Packet[] = [];
  let pos = 0;
  while (pos < data.length) {
    if (packets.length >= MAX_PACKETS) return null;
    const first = data[pos++];
    if (!(first & 0x80)) return null;
    let tag: number;
    let length: number;
    if (first & 0x40) {
      tag = first & 0x3f;
      if (pos >= data.length) return null;
      const o1 = data[pos++];
      if (o1 < 192) {
        length = o1;
      } else if (o1 < 224) {
        if (pos >= data.length) return null;
        length = ((o1 - 192) << 8) + data[pos++] + 192;
      } else if (o1 === 255) {
        if (pos + 4 > data.length) return null;
        length = data[pos] * 0x1000000 + ((data[pos + 1] << 16) | (data[pos + 2] << 8) | data[pos + 3]);
        pos += 4;
      } else {
        return null; // partial body lengths are for data packets (§4.2.2.4), never in a key block
      }
    } else {
      tag = (first >> 2) & 0x0f;
      const lengthType = first & 0x03;
      if (lengthType === 3) {
        length = data.length - pos; // indeterminate: to the end of the data
      } else {
        const octets = 1 << lengthType;
        if (pos + octets > data.length) return null;
        length = 0;
        for (let k = 0; k < octets; k++) length = length * 256 + data[pos++];
      }
    }
    if (length > data.length - pos) return null;
    packets.push({ tag, body: data.subarray(pos, pos + length) });
    pos += length;
  }
  return packets;
}

/** Reads an MPI (§3.2) at `pos`; the position after it, or -1 when it does not fit. */
function skipMpi(b: Uint8Array, pos: number): number {
  if (pos + 2 > b.length) return -1;
  const bits = (b[pos] << 8) | b[pos + 1];
  const end = pos + 2 + ((bits + 7) >> 3);
  return bits === 0 || end > b.length ? -1 : end;
}

/** A length-prefixed field (curve OID, KDF parameters): the position after it, or -1. */
function skipPrefixed(b: Uint8Array, pos: number): number {
  if (pos >= b.length) return -1;
  const len = b[pos];
  const end = pos + 1 + len;
  return len === 0 || len === 0xff || end > b.length ? -1 : end;
}

// Public-key algorithm (§9.1, RFC 6637, EdDSA draft) → the fields after the algorithm octet.
type Field = 'mpi' | 'prefixed';
const ALGORITHM_FIELDS: Record<number, Field[]> = {
  1: ['mpi', 'mpi'],
  2: ['mpi', 'mpi'],
  3: ['mpi', 'mpi'], // RSA: n, e
  16: ['mpi', 'mpi', 'mpi'],
  20: ['mpi', 'mpi', 'mpi'], // Elgamal: p, g, y
  17: ['mpi', 'mpi', 'mpi', 'mpi'], // DSA: p, q, g, y
  18: ['prefixed', 'mpi', 'prefixed'], // ECDH: curve OID, point, KDF parameters
  19: ['prefixed', 'mpi'],
  22: ['prefixed', 'mpi'], // ECDSA, EdDSA: curve OID, point
};

/** A version 4 public-key packet body (§5.5.2) whose algorithm fields fill it exactly (v3 and v5: gpg 2.2 refuses or lacks them). */
function isV4PublicKey(body: Uint8Array): boolean {
  if (body.length < 6 || body.length > 0xffff || body[0] !== 4) return false;
  const fields = ALGORITHM_FIELDS[body[5]];
  if (!fields) return false;
  let pos = 6;
  for (const f of fields) {
    pos = f === 'mpi' ? skipMpi(body, pos) : skipPrefixed(body, pos);
    if (pos < 0) return false;
  }
  return pos === body.length;
}

/** §12.2: SHA-1 of 0x99, the two-octet body length and the body. */
function fingerprintOf(body: Uint8Array): string {
  const header = Buffer.from([0x99, body.length >> 8, body.length & 0xff]);
  return createHash('sha1').update(header).update(body).digest('hex').toUpperCase();
}

/**
 * §11.1 for the first key of the block (gpg imports each; GitLab keeps the first): the public-key
 * packet, direct and revocation signatures, then user ids and attributes with their certifications,
 * then subkeys. At least one user id must carry a signature, as gpg skips a key without
 * ("contains no user ID"). Marker and trust packets are ignored; any other packet refuses the block.
 */
function firstKeyOf(packets: Packet[]): Uint8Array | null {
  const list = packets.filter((p) => p.tag !== TAG.marker && p.tag !== TAG.trust);
  if (list.length === 0 || list[0].tag !== TAG.publicKey || list.some((p) => !KEY_BLOCK_TAGS.has(p.tag))) return null;
  let signedUserId = false;
  let lastWasUserId = false;
  for (let i = 1; i < list.length && list[i].tag !== TAG.publicKey; i++) {
    const tag = list[i].tag;
    if (tag === TAG.signature && lastWasUserId) signedUserId = true;
    if (tag === TAG.userId) lastWasUserId = true;
    else if (tag !== TAG.signature) lastWasUserId = false;
  }
  return signedUserId && isV4PublicKey(list[0].body) ? list[0].body : null;
}

/** The primary key of an armored public key block, or null when gpg would import nothing from it. */
export function readPublicKey(armored: string): PublicKeyInfo | null {
  const data = dearmor(armored);
  const packets = data && readPackets(data);
  const body = packets && firstKeyOf(packets);
  if (!body) return null;
  const fingerprint = fingerprintOf(body);
  return { fingerprint, keyId: fingerprint.slice(-16) };
}

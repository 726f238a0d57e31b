import { wholeTlv } from './pages-der';

/**
 * The CT Precertificate SCTs extension (RFC 6962 §3.3: a TLS-encoded list inside an OCTET STRING) as
 * OpenSSL 3's `SCT_LIST_print` prints it; null when the list does not decode (then OpenSSL prints
 * the raw value too).
 */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `BIO_hex_string`: upper-case octets, 16 a line, continuation lines at `indent`. */
function hexString(bytes: Uint8Array, indent: number): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 1) {
    if (i && i % 16 === 0) out += ' '.repeat(indent);
    out += bytes[i].toString(16).toUpperCase().padStart(2, '0');
    if (i < bytes.length - 1) out += (i + 1) % 16 === 0 ? ':\n' : ':';
  }
  return out;
}

/** `timestamp_print`: milliseconds since the epoch as `ASN1_GENERALIZEDTIME_print` shows them; '' out of its range. */
function timestamp(ms: bigint): string {
  if (ms > 253_402_300_799_999n) return '';
  const d = new Date(Number(ms));
  const p = (n: number) => String(n).padStart(2, '0');
  return `${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, ' ')} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}.${String(d.getUTCMilliseconds()).padStart(3, '0')} ${d.getUTCFullYear()} GMT`;
}

const SIGNATURES: Record<string, string> = { '0403': 'ecdsa-with-SHA256', '0401': 'sha256WithRSAEncryption' };

function sct(b: Buffer, indent: number): string | null {
  const pad = (n: number) => ' '.repeat(n);
  let out = `${pad(indent)}Signed Certificate Timestamp:\n${pad(indent + 4)}Version   : `;
  if (b[0] !== 0) return `${out}unknown\n${pad(indent + 16)}${hexString(b, indent + 16)}`;
  if (b.length < 47) return null;
  const extLen = b.readUInt16BE(41);
  const sigAt = 43 + extLen;
  if (sigAt + 4 > b.length || sigAt + 4 + b.readUInt16BE(sigAt + 2) !== b.length) return null;
  const ext = b.subarray(43, sigAt);
  const alg = SIGNATURES[b.subarray(sigAt, sigAt + 2).toString('hex')];
  if (!alg) return null; // o2i_SCT_signature refuses other algorithms
  out += `v1 (0x0)\n${pad(indent + 4)}Log ID    : ${hexString(b.subarray(1, 33), indent + 16)}`;
  out += `\n${pad(indent + 4)}Timestamp : ${timestamp(b.readBigUInt64BE(33))}`;
  out += `\n${pad(indent + 4)}Extensions: ${ext.length ? hexString(ext, indent + 16) : 'none'}`;
  out += `\n${pad(indent + 4)}Signature : ${alg}`;
  return `${out}\n${pad(indent + 4)}            ${hexString(b.subarray(sigAt + 4), indent + 16)}`;
}

export function sctList(v: Buffer, indent: string): string | null {
  const t = wholeTlv(v);
  const list = t && t.tag === 0x04 ? v.subarray(t.body, t.end) : null;
  if (!list || list.length < 2 || list.readUInt16BE(0) !== list.length - 2) return null;
  const out: string[] = [];
  for (let at = 2; at < list.length;) {
    if (at + 2 > list.length) return null;
    const len = list.readUInt16BE(at);
    if (len === 0 || at + 2 + len > list.length) return null;
    const text = sct(list.subarray(at + 2, at + 2 + len), indent.length);
    if (text === null) return null;
    out.push(text);
    at += 2 + len;
  }
  return out.length ? out.join('\n') : null;
}

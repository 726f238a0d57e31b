import { childrenOf, oidText, wholeTlv, type Tlv } from './pages-der';
import type { ParsedCertificate } from './pages-certificate';
import { extensionLines } from './pages-certificate-extensions';
import { compatName, longName, OIDS, onelineName } from './pages-x509-names';
import type { CertFields } from './pages-x509';

/**
 * `certificate_text`: Ruby's `OpenSSL::X509::Certificate#to_text` (OpenSSL's `X509_print`, the same
 * as `openssl x509 -noout -text -nameopt compat`), rendered from the DER once, when the domain is
 * saved. Layout of OpenSSL 3; RSA and EC keys (named or explicit curves) and the usual extensions
 * are printed as OpenSSL prints them, other extensions as OpenSSL prints an extension it cannot
 * decode. A certificate this renderer cannot follow gets the short form of `minimalText`.
 */

const hex2 = (b: number) => b.toString(16).padStart(2, '0');

/** Unsigned big-endian octets as a BigInt. */
const toBig = (bytes: Uint8Array): bigint => (bytes.length ? BigInt(`0x${Buffer.from(bytes).toString('hex')}`) : 0n);
const bitLength = (n: bigint): number => (n === 0n ? 0 : n.toString(2).length);

/** The magnitude octets of a two's complement INTEGER content, without leading zeros. */
function magnitude(content: Buffer): { negative: boolean; bytes: Buffer } {
  const negative = content.length > 0 && (content[0] & 0x80) !== 0;
  let bytes = Buffer.from(content);
  if (negative) {
    let carry = 1;
    for (let i = bytes.length - 1; i >= 0; i -= 1) {
      const v = (~bytes[i] & 0xff) + carry;
      bytes[i] = v & 0xff;
      carry = v >> 8;
    }
  }
  let start = 0;
  while (start < bytes.length && bytes[start] === 0) start += 1;
  bytes = bytes.subarray(start);
  return { negative, bytes };
}

/**
 * The serial number as OpenSSL prints it: decimal and hex when it fits a signed 64-bit integer
 * (`-2 (-0x2)`), else its magnitude octets on the next line, `(Negative)` first for a negative one.
 * (OpenSSL 3.0 alone prints -1 in the long form, -1 being its error value; 1.x and 3.2+ print `-1 (-0x1)`.)
 */
export function serialNumberText(content: Buffer): string {
  if (content.length === 0) return '        Serial Number: (Empty)';
  const { negative, bytes } = magnitude(content);
  const value = toBig(bytes);
  if (bytes.length <= 8 && (negative ? value <= 1n << 63n : value < 1n << 63n)) {
    const sign = negative ? '-' : '';
    return `        Serial Number: ${sign}${value} (${sign}0x${value.toString(16)})`;
  }
  return `        Serial Number:\n            ${negative ? ' (Negative)' : ''}${[...bytes].map(hex2).join(':')}`;
}

/** The provider text encoder's `print_labeled_bignum`: decimal up to 64 bits, else 15 octets a line. */
export function labeledNumber(label: string, n: bigint): string[] {
  const neg = n < 0n;
  const abs = neg ? -n : n;
  if (abs === 0n) return [`${label} 0`];
  if (bitLength(abs) <= 64) return [`${label} ${neg ? '-' : ''}${abs} (${neg ? '-' : ''}0x${abs.toString(16)})`];
  let digits = abs.toString(16).toLowerCase();
  if (digits.length % 2) digits = `0${digits}`;
  const octets: string[] = digits.match(/../g) ?? [];
  if (octets[0] >= '80') octets.unshift('00');
  return [`${label}${neg ? ' (Negative)' : ''}`, ...octetLines(octets, '    ', 15)];
}

/** `print_labeled_buf`: the label, then the octets 15 a line, ':' after every octet but the last. */
export function labeledOctets(label: string, bytes: Uint8Array): string[] {
  return [label, ...octetLines([...bytes].map(hex2), '    ', 15)];
}

function octetLines(octets: string[], indent: string, perLine: number): string[] {
  const lines: string[] = [];
  for (let i = 0; i < octets.length; i += perLine) {
    const last = i + perLine >= octets.length;
    lines.push(indent + octets.slice(i, i + perLine).join(':') + (last ? '' : ':'));
  }
  return lines;
}

/** `X509_signature_dump`: 18 octets a line at `indent`; an empty string is a bare newline. */
function signatureDump(bytes: Uint8Array, indent: number): string {
  return `${octetLines([...bytes].map(hex2), ' '.repeat(indent), 18).join('\n')}\n`;
}

const CURVES: Record<string, [name: string, orderBits: number, nist?: string]> = {
  '1.2.840.10045.3.1.1': ['prime192v1', 192, 'P-192'],
  '1.3.132.0.33': ['secp224r1', 224, 'P-224'],
  '1.2.840.10045.3.1.7': ['prime256v1', 256, 'P-256'],
  '1.3.132.0.34': ['secp384r1', 384, 'P-384'],
  '1.3.132.0.35': ['secp521r1', 521, 'P-521'],
  '1.3.132.0.10': ['secp256k1', 256],
  '1.3.36.3.3.2.8.1.1.3': ['brainpoolP192r1', 192],
  '1.3.36.3.3.2.8.1.1.5': ['brainpoolP224r1', 224],
  '1.3.36.3.3.2.8.1.1.7': ['brainpoolP256r1', 256],
  '1.3.36.3.3.2.8.1.1.9': ['brainpoolP320r1', 320],
  '1.3.36.3.3.2.8.1.1.11': ['brainpoolP384r1', 384],
  '1.3.36.3.3.2.8.1.1.13': ['brainpoolP512r1', 512],
};

/** Explicit EC parameters (RFC 3279 ECParameters) as `ec_param_explicit_txt` prints them. */
function explicitCurve(der: Buffer, params: Tlv): { orderBits: number; lines: string[] } | null {
  const p = childrenOf(der, params);
  if (!p || p.length < 5 || p[1].tag !== 0x30 || p[2].tag !== 0x30 || p[3].tag !== 0x04 || p[4].tag !== 0x02)
    return null;
  const field = childrenOf(der, p[1]);
  const curve = childrenOf(der, p[2]);
  const fieldType = field?.length === 2 ? oidText(der, field[0]) : null;
  if (!field || !curve || curve.length < 2 || !fieldType) return null;
  const order = toBig(der.subarray(p[4].body, p[4].end));
  const prime =
    fieldType === '1.2.840.10045.1.1' && field[1].tag === 0x02
      ? toBig(der.subarray(field[1].body, field[1].end))
      : null;
  const base = der.subarray(p[3].body, p[3].end);
  const form = (
    { 2: 'compressed', 3: 'compressed', 4: 'uncompressed', 6: 'hybrid', 7: 'hybrid' } as Record<number, string>
  )[base[0]];
  if (prime === null || !form) return null;
  let cofactor = p[5]?.tag === 0x02 ? toBig(der.subarray(p[5].body, p[5].end)) : 0n;
  if (cofactor === 0n)
    cofactor = bitLength(order) <= (bitLength(prime) + 1) / 2 + 3 ? 0n : (prime + 1n + (order >> 1n)) / order; // ec_guess_cofactor
  const seed = curve[2]?.tag === 0x03 ? der.subarray(curve[2].body + 1, curve[2].end) : null;
  const lines = [
    `Field Type: ${OIDS[fieldType][0]}`,
    ...labeledNumber('Prime:', prime),
    ...labeledNumber('A:   ', toBig(der.subarray(curve[0].body, curve[0].end))),
    ...labeledNumber('B:   ', toBig(der.subarray(curve[1].body, curve[1].end))),
    ...labeledOctets(`Generator (${form}):`, base),
    ...labeledNumber('Order: ', order),
    ...labeledNumber('Cofactor: ', cofactor),
    ...(seed ? labeledOctets('Seed:', seed) : []),
  ];
  return { orderBits: bitLength(order), lines };
}

/** `EVP_PKEY_print_public(bp, pkey, 16)`: the encoder's lines, each indented by 16. */
function publicKeyLines(f: CertFields): string[] {
  const { der, spkiAlg, publicKey } = f;
  if (spkiAlg.oid === '1.2.840.113549.1.1.1') {
    const seq = wholeTlv(publicKey);
    const parts = seq ? childrenOf(publicKey, seq) : null;
    if (!parts || parts.length !== 2 || parts.some((t) => t.tag !== 0x02)) return ['Unable to load Public Key'];
    const [n, e] = parts.map((t) => toBig(publicKey.subarray(t.body, t.end)));
    return [`Public-Key: (${bitLength(n)} bit)`, ...labeledNumber('Modulus:', n), ...labeledNumber('Exponent:', e)];
  }
  if (spkiAlg.oid === '1.2.840.10045.2.1' && spkiAlg.params) {
    const named = spkiAlg.params.tag === 0x06 ? CURVES[oidText(der, spkiAlg.params) ?? ''] : undefined;
    const explicit = spkiAlg.params.tag === 0x30 ? explicitCurve(der, spkiAlg.params) : null;
    if (named) {
      const [name, bits, nist] = named;
      return [
        `Public-Key: (${bits} bit)`,
        ...labeledOctets('pub:', publicKey),
        `ASN1 OID: ${name}`,
        ...(nist ? [`NIST CURVE: ${nist}`] : []),
      ];
    }
    if (explicit)
      return [`Public-Key: (${explicit.orderBits} bit)`, ...labeledOctets('pub:', publicKey), ...explicit.lines];
  }
  return ['Unable to load Public Key'];
}

/** The dump of a certificate OpenSSL accepted; may throw on what it does not expect (see certificateText). */
function fullText(c: ParsedCertificate): string {
  const f = c.fields;
  const version = f.version >= 0 && f.version <= 2 ? `${f.version + 1} (0x${f.version})` : `Unknown (${f.version})`;
  const name = (t: Tlv) => {
    const line = onelineName(f.der, t);
    if (line === null) throw new Error('undecodable name');
    return compatName(line);
  };
  let out = `Certificate:\n    Data:\n        Version: ${version}\n${serialNumberText(f.serial)}\n`;
  out += `        Signature Algorithm: ${longName(f.tbsSigAlg.oid)}\n`;
  out += `        Issuer: ${name(f.issuer)}\n        Validity\n`;
  out += `            Not Before: ${c.validFrom}\n            Not After : ${c.validTo}\n`;
  out += `        Subject: ${name(f.subject)}\n        Subject Public Key Info:\n`;
  out += `            Public Key Algorithm: ${longName(f.spkiAlg.oid)}\n`;
  const key = publicKeyLines(f);
  out +=
    key[0] === 'Unable to load Public Key'
      ? `            ${key[0]}\n`
      : key.map((l) => `                ${l}\n`).join('');
  if (f.issuerUid) out += `        Issuer Unique ID: ${signatureDump(f.issuerUid, 12)}`;
  if (f.subjectUid) out += `        Subject Unique ID: ${signatureDump(f.subjectUid, 12)}`;
  if (f.extensions.length) {
    out += '        X509v3 extensions:\n';
    for (const ext of f.extensions)
      out += `            ${longName(ext.oid)}: ${ext.critical ? 'critical' : ''}\n${extensionLines(ext, 16)}\n`;
  }
  out += `    Signature Algorithm: ${longName(f.sigAlg.oid)}\n    Signature Value:\n${signatureDump(f.signature, 8)}`;
  return out;
}

/** What every certificate gets when the full dump cannot be rendered: OpenSSL's own strings only. */
export function minimalText(c: ParsedCertificate): string {
  return `Certificate:\n    Data:\n        Validity\n            Not Before: ${c.validFrom}\n            Not After : ${c.validTo}\n`;
}

/** `certificate_text`, never throwing: a certificate the renderer cannot follow gets `minimalText`. */
export function certificateText(c: ParsedCertificate): string {
  try {
    return fullText(c);
  } catch {
    return minimalText(c);
  }
}

/** GitLab's `subject` (Ruby's `X509::Name#to_s`), '' when the name does not decode. */
export const certificateSubject = (c: ParsedCertificate): string => onelineName(c.fields.der, c.fields.subject) ?? '';

import { childrenOf, oidText, wholeTlv, type Tlv } from './pages-der';
import type { CertExtension } from './pages-x509';
import { latin1, longName, onelineName } from './pages-x509-names';
import { sctList } from './pages-certificate-sct';

/**
 * X.509v3 extension values as OpenSSL 3's `X509V3_EXT_print` prints them (`i2v` values joined with
 * ", ", or one a line for AKI and AIA; `i2r` layouts for CRL distribution points, policies, name
 * constraints and SCTs), checked byte for byte against `openssl x509 -text` in the unit tests.
 * A value OpenSSL cannot print either (e.g. a NUL inside a DNS name) is printed raw, as OpenSSL does:
 * non-printable octets as '.'. So are the extensions and parts not decoded here (other OIDs, relative
 * CRL names, directory names in name constraints), where OpenSSL would decode them.
 */
type Printer = (v: Buffer, indent: string) => string | null;

const hexUpper = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).toUpperCase().padStart(2, '0')).join(':');
const upToNul = (bytes: Uint8Array) =>
  latin1(bytes.subarray(0, bytes.indexOf(0) < 0 ? bytes.length : bytes.indexOf(0)));
const isString = (t: Tlv) => [0x0c, 0x12, 0x13, 0x14, 0x16, 0x1a, 0x1e].includes(t.tag);

/** `ASN1_STRING_print`: octets outside ' '..'~' (except CR and LF) as '.'. */
export function asn1StringPrint(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += (b >= 0x20 && b <= 0x7e) || b === 0x0a || b === 0x0d ? String.fromCharCode(b) : '.';
  return out;
}

/** The elements of a SEQUENCE spanning `v` exactly. */
function sequence(v: Buffer): Tlv[] | null {
  const top = wholeTlv(v);
  return top && top.tag === 0x30 ? childrenOf(v, top) : null;
}

/** `x509v3_add_len_value`: the octets as text; a NUL makes the whole extension unprintable. */
const lenValue = (bytes: Uint8Array): string | null => (bytes.includes(0) ? null : latin1(bytes));

/** `ossl_ipaddr_to_asc`. */
function ipAddress(b: Uint8Array): string {
  if (b.length === 4) return [...b].join('.');
  if (b.length !== 16) return `<invalid length=${b.length}>`;
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((b[i] << 8) | b[i + 1]).toString(16).toUpperCase());
  return groups.join(':');
}

const OTHER_NAMES: Record<string, [label: string, tag: number]> = {
  '1.3.6.1.5.5.7.8.9': ['SmtpUTF8Mailbox', 0x0c],
  '1.3.6.1.5.5.7.8.5': ['XmppAddr', 0x0c],
  '1.3.6.1.5.5.7.8.7': ['SRVName', 0x16],
  '1.3.6.1.4.1.311.20.2.3': ['UPN', 0x0c],
  '1.3.6.1.5.5.7.8.8': ['NAIRealm', 0x0c],
};

/** `i2v_GENERAL_NAME`: "DNS:x", "IP Address:1.2.3.4", "DirName:/CN=x", "othername: 1.2.3.4::v", … */
function generalName(d: Buffer, g: Tlv): string | null {
  const data = d.subarray(g.body, g.end);
  switch (g.tag) {
    case 0x81:
    case 0x82:
    case 0x86: {
      const value = lenValue(data);
      return value === null ? null : `${{ 0x81: 'email', 0x82: 'DNS', 0x86: 'URI' }[g.tag]}:${value}`;
    }
    case 0x87:
      return `IP Address:${ipAddress(data)}`;
    case 0x88: {
      const oid = oidText(d, { ...g, tag: 0x06 });
      return oid && `Registered ID:${longName(oid)}`;
    }
    case 0xa3:
      return 'X400Name:<unsupported>';
    case 0xa5:
      return 'EdiPartyName:<unsupported>';
    case 0xa4: {
      const inner = childrenOf(d, g);
      const line = inner?.length === 1 && inner[0].tag === 0x30 ? onelineName(d, inner[0], 255) : null;
      return line === null ? null : `DirName:${line}`;
    }
    case 0xa0: {
      const parts = childrenOf(d, g);
      const oid = parts?.length === 2 ? oidText(d, parts[0]) : null;
      const wrapped = parts?.length === 2 && parts[1].tag === 0xa0 ? childrenOf(d, parts[1]) : null;
      if (!oid || !wrapped || wrapped.length !== 1) return null;
      const value = wrapped[0];
      const known = OTHER_NAMES[oid];
      const printable = value.tag === (known ? known[1] : value.tag) && (value.tag === 0x16 || value.tag === 0x0c);
      const text = printable ? lenValue(d.subarray(value.body, value.end)) : known ? null : '<unsupported>';
      return text === null ? null : `othername: ${known ? known[0] : longName(oid)}::${text}`;
    }
    default:
      return null;
  }
}

/** `GENERAL_NAME_print` (CRL distribution points) for the names it prints plainly; null for the others. */
function printedName(d: Buffer, g: Tlv): string | null {
  const data = d.subarray(g.body, g.end);
  const label = ({ 0x81: 'email', 0x82: 'DNS', 0x86: 'URI' } as Record<number, string>)[g.tag];
  if (label) return `${label}:${asn1StringPrint(data)}`;
  return g.tag === 0x87 || g.tag === 0x88 ? generalName(d, g) : null;
}

function generalNames(d: Buffer, list: Tlv): string[] | null {
  const out: string[] = [];
  for (const g of childrenOf(d, list) ?? [null]) {
    const text = g && generalName(d, g);
    if (!text) return null;
    out.push(text);
  }
  return out;
}

/** `X509V3_EXT_val_prn`: values joined by ", " (or one a line), `<EMPTY>` when there are none. */
const values = (list: string[] | null, indent: string, multiline = false): string | null =>
  list === null
    ? null
    : list.length === 0
      ? `${indent}<EMPTY>\n`
      : indent + list.join(multiline ? `\n${indent}` : ', ');

function integerText(d: Buffer, t: Tlv): string | null {
  if (t.tag !== 0x02 || t.end === t.body) return null;
  let n = BigInt(`0x${d.subarray(t.body, t.end).toString('hex')}`);
  if (d[t.body] & 0x80) n -= 1n << BigInt((t.end - t.body) * 8);
  const abs = n < 0n ? -n : n;
  const sign = n < 0n ? '-' : '';
  return abs.toString(2).length < 128 ? String(n) : `${sign}0x${abs.toString(16).toUpperCase()}`;
}

const KEY_USAGE = [
  'Digital Signature',
  'Non Repudiation',
  'Key Encipherment',
  'Data Encipherment',
  'Key Agreement',
  'Certificate Sign',
  'CRL Sign',
  'Encipher Only',
  'Decipher Only',
];

const PRINTERS: Record<string, Printer> = {
  '2.5.29.19': (v, indent) => {
    const p = sequence(v);
    if (!p || p.length > 2) return null;
    const ca = p[0]?.tag === 0x01 ? p[0] : null;
    const len = ca ? p[1] : p[0];
    if ((ca && ca.end - ca.body !== 1) || (p.length === 2 && !ca)) return null;
    const pathlen = len ? integerText(v, len) : undefined;
    if (pathlen === null) return null;
    return values(
      [`CA:${ca && v[ca.body] ? 'TRUE' : 'FALSE'}`, ...(pathlen !== undefined ? [`pathlen:${pathlen}`] : [])],
      indent,
    );
  },
  '2.5.29.15': (v, indent) => {
    const t = wholeTlv(v);
    if (!t || t.tag !== 0x03 || t.end === t.body || v[t.body] > 7) return null;
    const bits = Buffer.from(v.subarray(t.body + 1, t.end));
    if (bits.length) bits[bits.length - 1] &= 0xff << v[t.body];
    const set = KEY_USAGE.filter((_, n) => (bits[n >> 3] ?? 0) & (0x80 >> (n & 7)));
    return set.length ? values(set, indent) : null;
  },
  '2.5.29.37': (v, indent) => {
    const names = sequence(v)?.map((t) => oidText(v, t));
    return names?.length && names.every((n) => n !== null)
      ? values(
          names.map((n) => longName(n as string)),
          indent,
        )
      : null;
  },
  '2.5.29.14': (v, indent) => {
    const t = wholeTlv(v);
    return t && t.tag === 0x04 ? indent + hexUpper(v.subarray(t.body, t.end)) : null;
  },
  '2.5.29.35': (v, indent) => {
    const p = sequence(v);
    if (!p) return null;
    const id = p.find((t) => t.tag === 0x80);
    const issuer = p.find((t) => t.tag === 0xa1);
    const serial = p.find((t) => t.tag === 0x82);
    const names = issuer ? generalNames(v, issuer) : [];
    if (!names || p.length !== [id, issuer, serial].filter(Boolean).length) return null;
    const out = [
      ...(id ? [`${issuer || serial ? 'keyid:' : ''}${hexUpper(v.subarray(id.body, id.end))}`] : []),
      ...names,
      ...(serial ? [`serial:${hexUpper(v.subarray(serial.body, serial.end))}`] : []),
    ];
    return out.length ? values(out, indent, true) : null;
  },
  '2.5.29.17': (v, indent) => {
    const top = wholeTlv(v);
    return top && top.tag === 0x30 ? values(generalNames(v, top), indent) : null;
  },
  '1.3.6.1.5.5.7.1.1': (v, indent) => {
    const out: string[] = [];
    for (const desc of sequence(v) ?? [null]) {
      const p = desc && desc.tag === 0x30 ? childrenOf(v, desc) : null;
      const oid = p?.length === 2 ? oidText(v, p[0]) : null;
      const name = p && oid ? generalName(v, p[1]) : null;
      if (!name || !oid) return null;
      out.push(`${longName(oid)} - ${name}`);
    }
    return values(out, indent, true);
  },
  '2.5.29.31': (v, indent) => {
    const points: string[] = [];
    for (const dp of sequence(v) ?? [null]) {
      const text = dp && dp.tag === 0x30 ? distributionPoint(v, dp, indent) : null;
      if (text === null) return null;
      points.push(text);
    }
    return points.join('\n');
  },
  '2.5.29.32': (v, indent) => {
    const out: string[] = [];
    for (const info of sequence(v) ?? [null]) {
      const p = info && info.tag === 0x30 ? childrenOf(v, info) : null;
      const oid = p?.length ? oidText(v, p[0]) : null;
      const quals = p?.length === 2 && p[1].tag === 0x30 ? childrenOf(v, p[1]) : p?.length === 1 ? [] : null;
      if (!oid || !quals) return null;
      const lines = [`${indent}Policy: ${longName(oid)}`];
      for (const q of quals) {
        const text = qualifier(v, q, `${indent}  `);
        if (text === null) return null;
        lines.push(text);
      }
      out.push(lines.join('\n'));
    }
    return out.join('\n');
  },
  '2.5.29.30': (v, indent) => {
    const p = sequence(v);
    const out: string[] = [];
    for (const part of p ?? [null]) {
      const label = part?.tag === 0xa0 ? 'Permitted' : part?.tag === 0xa1 ? 'Excluded' : null;
      const trees = part && label ? childrenOf(v, part) : null;
      if (!part || !trees) return null;
      const names = trees.map((t) => {
        const base = t.tag === 0x30 ? childrenOf(v, t)?.[0] : undefined;
        if (base?.tag !== 0x87) return base ? printedName(v, base) : null;
        const ip = v.subarray(base.body, base.end);
        const half = ip.length >= 16 ? 16 : ip.length >= 4 ? 4 : ip.length;
        return `IP:${ipAddress(ip.subarray(0, half))}/${ipAddress(ip.subarray(half))}`;
      });
      if (names.some((n) => n === null)) return null;
      if (names.length) out.push(`${indent}${label}:\n${names.map((n) => `${indent}  ${n}`).join('\n')}`);
    }
    return out.join('\n');
  },
  '1.3.6.1.4.1.11129.2.4.2': sctList,
  '2.16.840.1.113730.1.13': (v, indent) => {
    const t = wholeTlv(v);
    return t && t.tag === 0x16 ? indent + upToNul(v.subarray(t.body, t.end)) : null;
  },
};

const REASONS = [
  'Unused',
  'Key Compromise',
  'CA Compromise',
  'Affiliation Changed',
  'Superseded',
  'Cessation Of Operation',
  'Certificate Hold',
  'Privilege Withdrawn',
  'AA Compromise',
];

/** `print_gens`: one name a line at indent + 2 (no final newline). */
function printedNames(v: Buffer, list: Tlv, indent: string): string | null {
  const names = childrenOf(v, list)?.map((g) => printedName(v, g));
  return names && names.every((n) => n !== null) ? names.map((n) => `${indent}  ${n}`).join('\n') : null;
}

/** One DistributionPoint as `i2r_crldp` prints it (full names, reasons, CRL issuer; relative names are not decoded). */
function distributionPoint(v: Buffer, dp: Tlv, indent: string): string | null {
  let out = '';
  for (const part of childrenOf(v, dp) ?? [null]) {
    if (part?.tag === 0xa0) {
      const full = childrenOf(v, part);
      const names = full?.length === 1 && full[0].tag === 0xa0 ? printedNames(v, full[0], indent) : null;
      if (names === null) return null;
      out += `${indent}Full Name:\n${names}`;
    } else if (part?.tag === 0x81 && part.end > part.body && v[part.body] <= 7) {
      const bits = Buffer.from(v.subarray(part.body + 1, part.end));
      if (bits.length) bits[bits.length - 1] &= 0xff << v[part.body];
      const set = REASONS.filter((_, n) => (bits[n >> 3] ?? 0) & (0x80 >> (n & 7)));
      out += `${indent}Reasons:\n${indent}  ${set.length ? set.join(', ') : '<EMPTY>'}\n`;
    } else if (part?.tag === 0xa2) {
      const names = printedNames(v, part, indent);
      if (names === null) return null;
      out += `${indent}CRL Issuer:\n${names}`;
    } else return null;
  }
  return out;
}

/** `print_qualifiers` / `print_notice` of certificatePolicies. */
function qualifier(v: Buffer, q: Tlv, indent: string): string | null {
  const p = q.tag === 0x30 ? childrenOf(v, q) : null;
  const oid = p?.length === 2 ? oidText(v, p[0]) : null;
  if (!p || !oid) return null;
  if (oid === '1.3.6.1.5.5.7.2.1')
    return p[1].tag === 0x16 ? `${indent}CPS: ${upToNul(v.subarray(p[1].body, p[1].end))}` : null;
  if (oid !== '1.3.6.1.5.5.7.2.2') return `${indent}  Unknown Qualifier: ${longName(oid)}`;
  const notice = p[1].tag === 0x30 ? childrenOf(v, p[1]) : null;
  if (!notice || notice.length > 2) return null;
  const ref = notice[0]?.tag === 0x30 ? childrenOf(v, notice[0]) : undefined;
  const text = notice.find((t) => isString(t));
  const inner = `${indent}  `;
  let out = `${indent}User Notice:\n`;
  if (ref) {
    const numbers = ref.length === 2 && isString(ref[0]) && ref[1].tag === 0x30 ? childrenOf(v, ref[1]) : null;
    const printed = numbers?.map((n) => integerText(v, n));
    if (!printed || printed.some((n) => n === null)) return null;
    out += `${inner}Organization: ${upToNul(v.subarray(ref[0].body, ref[0].end))}\n`;
    out += `${inner}Number${printed.length > 1 ? 's' : ''}: ${printed.join(', ')}${text ? '\n' : ''}`;
  } else if (ref === null) return null;
  if (text) out += `${inner}Explicit Text: ${upToNul(v.subarray(text.body, text.end))}`;
  return out;
}

/** The value lines of one extension at `indent` (no final newline: X509V3_extensions_print adds it). */
export function extensionLines(ext: CertExtension, indent: number): string {
  const pad = ' '.repeat(indent);
  const printed = PRINTERS[ext.oid === '2.5.29.18' ? '2.5.29.17' : ext.oid]?.(ext.value, pad) ?? null;
  return printed ?? pad + asn1StringPrint(ext.value);
}

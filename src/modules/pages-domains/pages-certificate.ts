import crypto, { X509Certificate, type KeyObject } from 'node:crypto';
import tls from 'node:tls';
import { derDepth } from './pages-der';
import { readCertificate, basicConstraintsCa, type CertFields } from './pages-x509';

/**
 * Pages certificates are parsed once, when a domain is saved, with OpenSSL as the gatekeeper (Node's
 * `crypto.X509Certificate`, the library GitLab's Ruby uses): a block OpenSSL refuses is not a
 * certificate. Before OpenSSL sees a byte, the PEM text is scanned linearly and the DER's nesting is
 * checked by an iterative walker; nothing here throws.
 */
export const CERTIFICATE_CAPS = {
  /** Characters of the certificate field (a bundle of 16 RSA-8192 certificates is about 40,000). */
  pemLength: 65_536,
  /** Certificates in a bundle (leaf, intermediates, root). */
  certificates: 16,
  /** Nesting of DER elements, encapsulated DER (extension values, keys) included. */
  depth: 32,
  /** Characters of the key field (an RSA-16384 PKCS#8 key is about 12,700). */
  keyLength: 65_536,
} as const;

/**
 * Most characters of a leaf's `openssl x509 -text` dump: a leaf within `pemLength` has at most 49,152
 * bytes of DER, and the dump spends at most about 4.7 characters per byte (a hex dump of an unknown
 * extension: 16 bytes per line of about 75 characters). What the GraphQL cost counts for it.
 */
export const CERTIFICATE_TEXT_MAX = 262_144;

export interface ParsedCertificate {
  x509: X509Certificate;
  fields: CertFields;
  /** OpenSSL's own rendering of the validity times (`ASN1_TIME_print`, as in `openssl x509 -text`). */
  validFrom: string;
  validTo: string;
  notBefore: Date;
  notAfter: Date;
}

export type BundleProblem = 'invalid' | 'tooLong' | 'tooMany' | 'tooDeep';
export type Bundle = { certs: ParsedCertificate[] } | { problem: BundleProblem };

const BEGIN = '-----BEGIN CERTIFICATE-----';
const END = '-----END CERTIFICATE-----';
const BASE64_BODY = /^[A-Za-z0-9+/=\s]*$/;

/** The next complete `BEGIN CERTIFICATE … END CERTIFICATE` block from `from`: its body and where the scan goes on. */
function nextBlock(text: string, from: number): { body: string; next: number } | null {
  const begin = text.indexOf(BEGIN, from);
  if (begin < 0) return null;
  const end = text.indexOf(END, begin + BEGIN.length);
  if (end < 0) return null; // a BEGIN never closed ends the scan: no rescan from the next BEGIN
  return { body: text.slice(begin + BEGIN.length, end), next: end + END.length };
}

/** The bodies of the complete blocks, in order, in one pass of `indexOf`; 'tooMany' as soon as there are more than `max`. */
export function pemBodies(text: string, max: number): string[] | 'tooMany' {
  const out: string[] = [];
  for (let block = nextBlock(text, 0); block; block = nextBlock(text, block.next)) {
    if (out.length === max) return 'tooMany';
    out.push(block.body);
  }
  return out;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const ASN1_TIME = /^([A-Z][a-z]{2}) ([ \d]\d) (\d\d):(\d\d):(\d\d)(?:\.(\d+))? (\d{1,4}) GMT$/;

/**
 * A validity time as OpenSSL printed it (`Jan  1 00:00:00 2024 GMT`; OpenSSL has already refused
 * month 13 or February 30 with "Bad time value"). Years 1-9999 (PostgreSQL timestamptz and ISO 8601
 * both hold them; year 1 set with setUTCFullYear, not the 19xx of two-digit Date arguments).
 */
export function opensslTime(text: string): Date | null {
  const m = ASN1_TIME.exec(text);
  if (!m) return null;
  const [month, day, year] = [MONTHS.indexOf(m[1]), Number(m[2]), Number(m[7])];
  if (month < 0 || year < 1 || year > 9999) return null;
  const d = new Date(0);
  d.setUTCFullYear(year, month, day);
  d.setUTCHours(Number(m[3]), Number(m[4]), Number(m[5]), Number(`${m[6] ?? ''}000`.slice(0, 3)));
  return d.getUTCFullYear() === year && d.getUTCMonth() === month && d.getUTCDate() === day ? d : null;
}

/** One DER certificate: depth checked, parsed by OpenSSL, fields read, times valid. */
export function parseDer(der: Buffer): ParsedCertificate | 'invalid' | 'tooDeep' {
  const depth = derDepth(der, CERTIFICATE_CAPS.depth);
  if (depth < 0) return 'invalid';
  if (depth > CERTIFICATE_CAPS.depth) return 'tooDeep';
  let x509: X509Certificate;
  let validFrom: string;
  let validTo: string;
  try {
    // As PEM: given DER, Node would first look for a PEM block inside the bytes (an extension can hold one).
    x509 = new X509Certificate(`${BEGIN}\n${(der.toString('base64').match(/.{1,64}/g) ?? []).join('\n')}\n${END}\n`);
    ({ validFrom, validTo } = x509);
  } catch {
    return 'invalid'; // OpenSSL refuses it (e.g. an empty serial number)
  }
  if (!x509.raw.equals(der)) return 'invalid';
  const fields = readCertificate(der);
  const notBefore = opensslTime(validFrom);
  const notAfter = opensslTime(validTo);
  if (!fields || !notBefore || !notAfter) return 'invalid';
  return { x509, fields, validFrom, validTo, notBefore, notAfter };
}

/**
 * A PEM bundle, leaf first. GitLab reads the first certificate (it must parse) and loads the others
 * for the chain only, so a later block that does not parse is left out; the caps refuse the whole field.
 */
export function parseBundle(pem: string): Bundle {
  if (pem.length > CERTIFICATE_CAPS.pemLength) return { problem: 'tooLong' };
  const bodies = pemBodies(pem, CERTIFICATE_CAPS.certificates);
  if (bodies === 'tooMany') return { problem: 'tooMany' };
  const certs: ParsedCertificate[] = [];
  for (const [i, body] of bodies.entries()) {
    const parsed = BASE64_BODY.test(body) ? parseDer(Buffer.from(body, 'base64')) : 'invalid';
    if (parsed === 'tooDeep') return { problem: 'tooDeep' };
    if (parsed !== 'invalid') certs.push(parsed);
    else if (i === 0) return { problem: 'invalid' };
  }
  return certs.length ? { certs } : { problem: 'invalid' };
}

/**
 * The first certificate of a stored PEM, caps on the bundle aside (rows saved before the caps): for
 * the one-time backfill of stored subjects and texts. null when it does not parse.
 */
export function parseStoredLeaf(pem: string): ParsedCertificate | null {
  const block = nextBlock(pem, 0);
  if (!block || block.body.length > CERTIFICATE_CAPS.pemLength || !BASE64_BODY.test(block.body)) return null;
  const parsed = parseDer(Buffer.from(block.body, 'base64'));
  return typeof parsed === 'string' ? null : parsed;
}

const PEM_PRIVATE_KEY = /-----BEGIN (?:RSA |EC )?PRIVATE KEY-----/;

/** An unencrypted PEM private key, RSA or EC (PKCS#1, SEC1 or PKCS#8); null otherwise. */
export function parsePrivateKey(pem: string): KeyObject | null {
  if (pem.length > CERTIFICATE_CAPS.keyLength || !PEM_PRIVATE_KEY.test(pem)) return null;
  try {
    const key = crypto.createPrivateKey({ key: pem, format: 'pem' });
    return key.asymmetricKeyType === 'rsa' || key.asymmetricKeyType === 'ec' ? key : null;
  } catch {
    return null;
  }
}

/** GitLab's `x509.check_private_key(key)`: OpenSSL's X509_check_private_key (public parts equal). */
export function keyMatches(cert: ParsedCertificate, key: KeyObject): boolean {
  try {
    return cert.x509.checkPrivateKey(key);
  } catch {
    return false;
  }
}

let systemRoots: { der: Buffer; parsed?: ParsedCertificate | null }[] | undefined;
/**
 * Candidate issuers from the trust store Node ships (Mozilla's roots): only roots whose DER contains
 * the wanted issuer name are parsed, each at most once per process.
 */
export function rootsIssuing(cert: ParsedCertificate): ParsedCertificate[] {
  systemRoots ??= tls.rootCertificates.map((pem) => ({
    der: Buffer.from(pem.replace(/-----[^-]+-----|\s/g, ''), 'base64'),
  }));
  const { der, issuer } = cert.fields;
  const name = der.subarray(issuer.start, issuer.end);
  const out: ParsedCertificate[] = [];
  for (const root of systemRoots) {
    if (root.der.indexOf(name) < 0) continue;
    if (root.parsed === undefined) {
      const parsed = parseDer(root.der);
      root.parsed = typeof parsed === 'string' ? null : parsed;
    }
    if (root.parsed) out.push(root.parsed);
  }
  return out;
}

/** Signature checks per chain decision (each can cost a full RSA-3072 modular exponentiation). */
const MAX_SIGNATURE_CHECKS = 24;
const MAX_PATH = 10;

/**
 * GitLab's `has_intermediates?`: a self-signed leaf passes (`x509.verify(x509.public_key)`);
 * otherwise the leaf must verify up to a self-signed root using the certificates of the bundle and
 * the system roots, every certificate of the path valid now (as OpenSSL's store verification
 * requires), each issuer allowed to issue (basicConstraints CA, or none) and named by its subject
 * (OpenSSL's X509_check_issued: names, key identifiers, key usage). Signatures are OpenSSL's.
 */
export function chainVerifies(certs: ParsedCertificate[], now: Date): boolean {
  let budget = MAX_SIGNATURE_CHECKS;
  const signedBy = (cert: ParsedCertificate, issuer: ParsedCertificate): boolean => {
    if (budget <= 0) return false;
    budget -= 1;
    try {
      return cert.x509.verify(issuer.x509.publicKey);
    } catch {
      return false;
    }
  };
  const issuedBy = (cert: ParsedCertificate, issuer: ParsedCertificate): boolean => {
    try {
      return cert.x509.checkIssued(issuer.x509) && basicConstraintsCa(issuer.fields) !== false;
    } catch {
      return false;
    }
  };
  const [leaf] = certs;
  if (signedBy(leaf, leaf)) return true;
  const used = new Set<ParsedCertificate>([leaf]);
  let current = leaf;
  for (let depth = 0; depth < MAX_PATH; depth += 1) {
    if (!(current.notBefore <= now && now <= current.notAfter)) return false;
    if (current !== leaf && issuedBy(current, current) && signedBy(current, current)) return true;
    const next = [...certs.slice(1), ...rootsIssuing(current)].find(
      (c) => !used.has(c) && issuedBy(current, c) && signedBy(current, c),
    );
    if (!next) return false;
    used.add(next);
    current = next;
  }
  return false;
}

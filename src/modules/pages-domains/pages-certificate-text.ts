import crypto from 'node:crypto';
import * as x509 from '@peculiar/x509';

/**
 * `certificate_text`: a dump in the layout of `openssl x509 -noout -text` (what GitLab returns):
 * version, serial, signature algorithm, issuer, validity, subject, public key (algorithm, size,
 * modulus/exponent or curve point) and the extensions decoded here; others are named by OID.
 */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad2 = (n: number) => String(n).padStart(2, '0');

function opensslDate(d: Date): string {
  const time = `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}`;
  return `${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, ' ')} ${time} ${d.getUTCFullYear()} GMT`;
}

/** Colon-separated hex, 15 bytes a line (OpenSSL's layout), each line indented. */
function hexBlock(bytes: Buffer, indent: string, perLine = 15): string[] {
  const parts = [...bytes].map((b) => b.toString(16).padStart(2, '0'));
  const lines: string[] = [];
  for (let i = 0; i < parts.length; i += perLine) {
    const last = i + perLine >= parts.length;
    lines.push(indent + parts.slice(i, i + perLine).join(':') + (last ? '' : ':'));
  }
  return lines;
}

const HASH: Record<string, string> = { 'SHA-1': 'sha1', 'SHA-256': 'sha256', 'SHA-384': 'sha384', 'SHA-512': 'sha512' };

function signatureAlgorithm(alg: x509.HashedAlgorithm): string {
  const hash = HASH[alg.hash?.name ?? ''] ?? 'unknown';
  if (alg.name === 'RSASSA-PKCS1-v1_5') return `${hash}WithRSAEncryption`;
  if (alg.name === 'ECDSA') return `ecdsa-with-${hash.toUpperCase()}`;
  if (alg.name === 'RSA-PSS') return 'rsassaPss';
  return alg.name;
}

function serial(hex: string): string[] {
  const clean = hex.replace(/^0+(?=.)/, '');
  if (clean.length <= 15) return [`        Serial Number: ${BigInt(`0x${clean}`).toString()} (0x${clean.toLowerCase()})`];
  return ['        Serial Number:', ...hexBlock(Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex'), '            ', 32)];
}

function publicKey(cert: x509.X509Certificate): string[] {
  const key = crypto.createPublicKey({ key: Buffer.from(cert.publicKey.rawData), format: 'der', type: 'spki' });
  const jwk = key.export({ format: 'jwk' });
  const out = ['        Subject Public Key Info:'];
  const b64 = (s: string | undefined) => Buffer.from(s ?? '', 'base64url');
  if (key.asymmetricKeyType === 'rsa') {
    const modulus = b64(jwk.n);
    const exponent = BigInt(`0x${b64(jwk.e).toString('hex')}`);
    out.push('            Public Key Algorithm: rsaEncryption', `                Public-Key: (${key.asymmetricKeyDetails?.modulusLength ?? modulus.length * 8} bit)`);
    out.push('                Modulus:', ...hexBlock(Buffer.concat([Buffer.from([0]), modulus]), '                    '));
    out.push(`                Exponent: ${exponent} (0x${exponent.toString(16)})`);
  } else if (key.asymmetricKeyType === 'ec') {
    const point = Buffer.concat([Buffer.from([4]), b64(jwk.x), b64(jwk.y)]);
    const curve = key.asymmetricKeyDetails?.namedCurve ?? jwk.crv ?? 'unknown';
    out.push('            Public Key Algorithm: id-ecPublicKey', `                Public-Key: (${b64(jwk.x).length * 8} bit)`);
    out.push('                pub:', ...hexBlock(point, '                    '), `                ASN1 OID: ${curve}`);
    if (jwk.crv) out.push(`                NIST CURVE: ${jwk.crv}`);
  } else {
    out.push(`            Public Key Algorithm: ${key.asymmetricKeyType ?? 'unknown'}`);
  }
  return out;
}

const KEY_USAGES: [number, string][] = [
  [1, 'Digital Signature'], [2, 'Non Repudiation'], [4, 'Key Encipherment'], [8, 'Data Encipherment'], [16, 'Key Agreement'],
  [32, 'Certificate Sign'], [64, 'CRL Sign'], [128, 'Encipher Only'], [256, 'Decipher Only'],
];
const EXTENDED_USAGES: Record<string, string> = {
  '1.3.6.1.5.5.7.3.1': 'TLS Web Server Authentication',
  '1.3.6.1.5.5.7.3.2': 'TLS Web Client Authentication',
  '1.3.6.1.5.5.7.3.3': 'Code Signing',
  '1.3.6.1.5.5.7.3.4': 'E-mail Protection',
};
const GENERAL_NAME: Record<string, string> = { dns: 'DNS', ip: 'IP Address', email: 'email', url: 'URI' };
const colonHex = (hex: string) => (hex.toUpperCase().match(/../g) ?? []).join(':');

/** One extension: its OpenSSL title and value lines. */
function extension(ext: x509.Extension): [string, string[]] {
  if (ext instanceof x509.BasicConstraintsExtension) {
    return ['X509v3 Basic Constraints', [`CA:${ext.ca ? 'TRUE' : 'FALSE'}${ext.pathLength !== undefined ? `, pathlen:${ext.pathLength}` : ''}`]];
  }
  if (ext instanceof x509.KeyUsagesExtension) return ['X509v3 Key Usage', [KEY_USAGES.filter(([bit]) => ext.usages & bit).map(([, n]) => n).join(', ')]];
  if (ext instanceof x509.ExtendedKeyUsageExtension) return ['X509v3 Extended Key Usage', [ext.usages.map((u) => EXTENDED_USAGES[String(u)] ?? String(u)).join(', ')]];
  if (ext instanceof x509.SubjectAlternativeNameExtension) {
    return ['X509v3 Subject Alternative Name', [ext.names.items.map((n) => `${GENERAL_NAME[n.type] ?? n.type}:${n.value}`).join(', ')]];
  }
  if (ext instanceof x509.SubjectKeyIdentifierExtension) return ['X509v3 Subject Key Identifier', [colonHex(ext.keyId)]];
  if (ext instanceof x509.AuthorityKeyIdentifierExtension) return ['X509v3 Authority Key Identifier', ext.keyId ? [`keyid:${colonHex(ext.keyId)}`] : []];
  return [ext.type, [Buffer.from(ext.value).toString('hex').replace(/(..)(?!$)/g, '$1:')]];
}

const oneLineName = (name: x509.Name) => name.toJSON().map((rdn) => Object.entries(rdn).map(([t, v]) => `${t}=${v.join('+')}`).join('+')).join(', ');

export function certificateText(cert: x509.X509Certificate): string {
  const sig = signatureAlgorithm(cert.signatureAlgorithm);
  const lines = [
    'Certificate:',
    '    Data:',
    `        Version: ${cert.extensions.length ? '3 (0x2)' : '1 (0x0)'}`,
    ...serial(cert.serialNumber),
    `    Signature Algorithm: ${sig}`,
    `        Issuer: ${oneLineName(cert.issuerName)}`,
    '        Validity',
    `            Not Before: ${opensslDate(cert.notBefore)}`,
    `            Not After : ${opensslDate(cert.notAfter)}`,
    `        Subject: ${oneLineName(cert.subjectName)}`,
    ...publicKey(cert),
  ];
  if (cert.extensions.length) {
    lines.push('        X509v3 extensions:');
    for (const ext of cert.extensions) {
      const [title, values] = extension(ext);
      lines.push(`            ${title}: ${ext.critical ? 'critical' : ''}`.trimEnd(), ...values.map((v) => `                ${v}`));
    }
  }
  lines.push(`    Signature Algorithm: ${sig}`, ...hexBlock(Buffer.from(cert.signature), '         ', 18));
  return `${lines.join('\n')}\n`;
}

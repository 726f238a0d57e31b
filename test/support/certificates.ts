import crypto from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(crypto.webcrypto as unknown as Crypto);

/**
 * Certificates made in process for the pages tests (@peculiar/x509 over Node's Web Crypto):
 * self-signed RSA and EC, a root → intermediate → leaf chain, expired, not yet valid, any key.
 */
const RSA = {
  name: 'RSASSA-PKCS1-v1_5',
  hash: 'SHA-256',
  publicExponent: new Uint8Array([1, 0, 1]),
  modulusLength: 2048,
};
const EC = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
const DAY = 86_400_000;

export interface Issued {
  cert: x509.X509Certificate;
  pem: string;
  keys: CryptoKeyPair;
  /** PKCS#8 PEM ("BEGIN PRIVATE KEY"). */
  keyPem: string;
}

export async function keyPair(kind: 'rsa' | 'ec' = 'rsa'): Promise<CryptoKeyPair> {
  return (await crypto.webcrypto.subtle.generateKey(kind === 'rsa' ? RSA : EC, true, [
    'sign',
    'verify',
  ])) as CryptoKeyPair;
}

export async function pkcs8Pem(keys: CryptoKeyPair): Promise<string> {
  const der = Buffer.from(await crypto.webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
  return `-----BEGIN PRIVATE KEY-----\n${der
    .toString('base64')
    .match(/.{1,64}/g)!
    .join('\n')}\n-----END PRIVATE KEY-----\n`;
}

/** The same key as PKCS#1 ("BEGIN RSA PRIVATE KEY") or SEC1 ("BEGIN EC PRIVATE KEY"). */
export function traditionalPem(keyPem: string): string {
  const key = crypto.createPrivateKey(keyPem);
  return key.export({ format: 'pem', type: key.asymmetricKeyType === 'rsa' ? 'pkcs1' : 'sec1' }).toString();
}

interface IssueOpts {
  cn: string;
  kind?: 'rsa' | 'ec';
  /** Days from now (negative: past). */
  from?: number;
  to?: number;
  ca?: boolean;
  issuer?: Issued;
  serial?: string;
}

export async function issue(opts: IssueOpts): Promise<Issued> {
  const kind = opts.kind ?? 'rsa';
  const keys = await keyPair(kind);
  const alg = kind === 'rsa' ? RSA : EC;
  const now = Date.now();
  const extensions: x509.Extension[] = [new x509.BasicConstraintsExtension(!!opts.ca, undefined, true)];
  if (!opts.ca) extensions.push(new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: opts.cn }]));
  const common = {
    serialNumber:
      opts.serial ??
      crypto
        .randomBytes(8)
        .toString('hex')
        .replace(/^[89a-f]/, '1'),
    notBefore: new Date(now + (opts.from ?? -1) * DAY),
    notAfter: new Date(now + (opts.to ?? 365) * DAY),
    extensions,
  };
  const cert = opts.issuer
    ? await x509.X509CertificateGenerator.create({
        ...common,
        subject: `CN=${opts.cn}`,
        issuer: opts.issuer.cert.subject,
        publicKey: keys.publicKey,
        signingKey: opts.issuer.keys.privateKey,
        signingAlgorithm: opts.issuer.keys.privateKey.algorithm.name === 'ECDSA' ? EC : RSA,
      })
    : await x509.X509CertificateGenerator.createSelfSigned({
        ...common,
        name: `CN=${opts.cn}`,
        signingAlgorithm: alg,
        keys,
      });
  return { cert, pem: cert.toString('pem'), keys, keyPem: await pkcs8Pem(keys) };
}

/** root (self-signed CA) → intermediate (CA) → leaf for `cn`. */
export async function chain(
  cn: string,
  kind: 'rsa' | 'ec' = 'rsa',
): Promise<{ root: Issued; intermediate: Issued; leaf: Issued }> {
  const root = await issue({ cn: 'Test Root CA', ca: true, kind });
  const intermediate = await issue({ cn: 'Test Intermediate CA', ca: true, issuer: root, kind });
  const leaf = await issue({ cn, issuer: intermediate, kind });
  return { root, intermediate, leaf };
}

/**
 * A small DER encoder, for certificates @peculiar/x509 will not make (empty or negative serials,
 * odd times, explicit or unusual curves, deep nesting): build the TBSCertificate field by field and
 * sign it with node:crypto.
 */
function derLength(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}
const tlv = (tag: number, ...parts: (Buffer | string)[]): Buffer => {
  const content = Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : p)));
  return Buffer.concat([Buffer.from([tag]), derLength(content.length), content]);
};
function oidBytes(dotted: string): Buffer {
  const arcs = dotted.split('.').map((a) => BigInt(a));
  const out = [Number(arcs[0] * 40n + arcs[1])];
  for (const arc of arcs.slice(2)) {
    const group = [Number(arc & 0x7fn)];
    for (let v = arc >> 7n; v > 0n; v >>= 7n) group.unshift(Number(v & 0x7fn) | 0x80);
    out.push(...group);
  }
  return Buffer.from(out);
}
export const der = {
  tlv,
  seq: (...parts: Buffer[]) => tlv(0x30, ...parts),
  set: (...parts: Buffer[]) => tlv(0x31, ...parts),
  oid: (dotted: string) => tlv(0x06, oidBytes(dotted)),
  int: (content: Buffer | number[]) => tlv(0x02, Buffer.from(content)),
  utf8: (s: string) => tlv(0x0c, Buffer.from(s, 'utf8')),
  printable: (s: string) => tlv(0x13, s),
  ia5: (s: string) => tlv(0x16, s),
  octet: (b: Buffer) => tlv(0x04, b),
  bits: (b: Buffer) => tlv(0x03, Buffer.concat([Buffer.from([0]), b])),
  bool: (v: boolean) => tlv(0x01, Buffer.from([v ? 0xff : 0])),
  utc: (s: string) => tlv(0x17, s),
  gen: (s: string) => tlv(0x18, s),
  /** A Name of one RDN per [oid, value] (UTF8String values). */
  name: (...atvs: [string, string][]) =>
    tlv(0x30, ...atvs.map(([o, v]) => tlv(0x31, tlv(0x30, der.oid(o), der.utf8(v))))),
  cn: (cn: string) => der.name(['2.5.4.3', cn]),
  extension: (oid: string, value: Buffer, critical = false) =>
    tlv(0x30, der.oid(oid), ...(critical ? [der.bool(true)] : []), der.octet(value)),
  san: (...dns: string[]) => der.extension('2.5.29.17', tlv(0x30, ...dns.map((d) => tlv(0x82, d)))),
  basicConstraints: (ca: boolean) => der.extension('2.5.29.19', tlv(0x30, ...(ca ? [der.bool(true)] : [])), true),
  /** `depth` SEQUENCEs, each holding the next. */
  nested: (depth: number): Buffer => {
    let inner = tlv(0x30);
    for (let i = 1; i < depth; i += 1) inner = tlv(0x30, inner);
    return inner;
  },
};

export interface RawCertOptions {
  /** The signing key; its public key goes in the certificate unless `publicKey` is given. */
  key: crypto.KeyObject;
  publicKey?: crypto.KeyObject;
  /** Signs instead of `key` (a CA). */
  issuerKey?: crypto.KeyObject;
  serial?: Buffer | number[];
  subject?: Buffer;
  issuer?: Buffer;
  notBefore?: Buffer;
  notAfter?: Buffer;
  extensions?: Buffer[];
  version?: number;
}

const daysFromNow = (days: number) => {
  const d = new Date(Date.now() + days * DAY);
  return der.gen(`${d.toISOString().slice(0, 19).replace(/[-:T]/g, '')}Z`);
};

/** A certificate from parts, signed with ECDSA-SHA256 or RSA-SHA256 by `issuerKey ?? key`. */
export function rawCertificate(o: RawCertOptions): { der: Buffer; pem: string } {
  const signer = o.issuerKey ?? o.key;
  const alg =
    signer.asymmetricKeyType === 'ec'
      ? der.seq(der.oid('1.2.840.10045.4.3.2'))
      : der.seq(der.oid('1.2.840.113549.1.1.11'), tlv(0x05));
  const spki = (o.publicKey ?? crypto.createPublicKey(o.key)).export({ type: 'spki', format: 'der' });
  const subject = o.subject ?? der.cn('raw.test');
  const tbs = der.seq(
    tlv(0xa0, der.int([o.version ?? 2])),
    der.int(o.serial ?? [1]),
    alg,
    o.issuer ?? subject,
    der.seq(o.notBefore ?? daysFromNow(-1), o.notAfter ?? daysFromNow(365)),
    subject,
    spki,
    ...(o.extensions?.length ? [tlv(0xa3, der.seq(...o.extensions))] : []),
  );
  const cert = der.seq(tbs, alg, der.bits(crypto.sign('sha256', tbs, signer)));
  return { der: cert, pem: pemOf(cert) };
}

export const pemOf = (bytes: Buffer, label = 'CERTIFICATE'): string =>
  `-----BEGIN ${label}-----\n${(bytes.toString('base64').match(/.{1,64}/g) ?? []).join('\n')}\n-----END ${label}-----\n`;

/** An EC key pair on any curve OpenSSL knows (secp256k1, brainpoolP256r1, …), optionally with explicit parameters. */
export function ecKey(
  namedCurve: string,
  paramEncoding: 'named' | 'explicit' = 'named',
): { privateKey: crypto.KeyObject; publicKey: crypto.KeyObject; keyPem: string } {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('ec', { namedCurve, paramEncoding });
  return { privateKey, publicKey, keyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
}

/** Certificates that exercise the text dump: curves, key sizes, serials, times, names and extensions. */
export function textVariants(): { name: string; pem: string }[] {
  const p256 = ecKey('prime256v1').privateKey;
  const ext = (...extensions: Buffer[]) => rawCertificate({ key: p256, extensions }).pem;
  const u16 = (n: number) => Buffer.from([n >> 8, n & 255]);
  const sct = (extension: Buffer, sig: Buffer, alg: number[], ms: bigint) => {
    const t = Buffer.alloc(8);
    t.writeBigUInt64BE(ms);
    return Buffer.concat([
      Buffer.from([0]),
      Buffer.alloc(32, 0xab),
      t,
      u16(extension.length),
      extension,
      Buffer.from(alg),
      u16(sig.length),
      sig,
    ]);
  };
  const sctList = (...list: Buffer[]) => {
    const body = Buffer.concat(list.map((s) => Buffer.concat([u16(s.length), s])));
    return der.octet(Buffer.concat([u16(body.length), body]));
  };
  const serial = (bytes: number[]) => rawCertificate({ key: p256, serial: bytes }).pem;
  return [
    {
      name: 'rsa 2048',
      pem: rawCertificate({ key: crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey }).pem,
    },
    {
      name: 'rsa 3072, exponent 3',
      pem: rawCertificate({
        key: crypto.generateKeyPairSync('rsa', { modulusLength: 3072, publicExponent: 3 }).privateKey,
      }).pem,
    },
    ...[
      'prime256v1',
      'secp384r1',
      'secp521r1',
      'secp224r1',
      'secp256k1',
      'brainpoolP256r1',
      'brainpoolP384r1',
      'brainpoolP512r1',
    ].map((c) => ({ name: c, pem: rawCertificate({ key: ecKey(c).privateKey }).pem })),
    { name: 'explicit P-256', pem: rawCertificate({ key: ecKey('prime256v1', 'explicit').privateKey }).pem },
    { name: 'explicit secp256k1', pem: rawCertificate({ key: ecKey('secp256k1', 'explicit').privateKey }).pem },
    { name: 'serial -2', pem: serial([0xfe]) },
    { name: 'serial -255', pem: serial([0xff, 0x01]) },
    { name: 'serial 0', pem: serial([0]) },
    { name: 'serial 2^63-1', pem: serial([0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]) },
    { name: 'serial 2^63', pem: serial([0, 0x80, 0, 0, 0, 0, 0, 0, 0]) },
    { name: 'serial -2^63', pem: serial([0x80, 0, 0, 0, 0, 0, 0, 0]) },
    { name: 'serial -(2^63+1)', pem: serial([0xff, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]) },
    { name: 'serial long negative', pem: serial([0x80, 1, 2, 3, 4, 5, 6, 7, 8, 9]) },
    { name: 'serial 20 octets', pem: serial([...Array(20).keys()].map((i) => i + 1)) },
    { name: 'version 1', pem: rawCertificate({ key: p256, version: 0 }).pem },
    {
      name: 'GeneralizedTime with fraction',
      pem: rawCertificate({ key: p256, notAfter: der.gen('20990101000000.123456Z') }).pem,
    },
    { name: 'UTCTime with offset', pem: rawCertificate({ key: p256, notAfter: der.utc('4901010000+0130') }).pem },
    {
      name: 'year 1 and year 9999',
      pem: rawCertificate({ key: p256, notBefore: der.gen('00010101000000Z'), notAfter: der.gen('99991231235959Z') })
        .pem,
    },
    { name: 'empty names', pem: rawCertificate({ key: p256, subject: der.seq(), issuer: der.seq() }).pem },
    {
      name: 'names: escapes, multi-valued RDN, email, unknown OID, BMPString',
      pem: rawCertificate({
        key: p256,
        subject: der.seq(
          der.set(der.seq(der.oid('2.5.4.6'), der.printable('NL'))),
          der.set(
            der.seq(der.oid('2.5.4.10'), der.printable('Ac/me+x')),
            der.seq(der.oid('2.5.4.11'), der.utf8('Unit')),
          ),
          der.set(der.seq(der.oid('1.2.840.113549.1.9.1'), der.ia5('a@b.c'))),
          der.set(der.seq(der.oid('2.5.4.3'), der.utf8('café \u0001 a/B=c'))),
          der.set(der.seq(der.oid('1.2.3.4.5'), der.utf8('odd'))),
          der.set(der.seq(der.oid('2.5.4.3'), der.tlv(0x1e, Buffer.from([0, 0x41, 0, 0x42])))),
          der.set(der.seq(der.oid('0.9.2342.19200300.100.1.25'), der.ia5('dc'))),
        ),
      }).pem,
    },
    {
      name: 'usual extensions',
      pem: ext(
        der.extension('2.5.29.14', der.octet(Buffer.from('0102030405', 'hex'))),
        der.extension(
          '2.5.29.35',
          der.seq(
            der.tlv(0x80, Buffer.from('0a0b', 'hex')),
            der.tlv(0xa1, der.tlv(0xa4, der.cn('CA'))),
            der.tlv(0x82, Buffer.from([1, 2])),
          ),
        ),
        der.extension('2.5.29.19', der.seq(der.bool(true), der.int([3])), true),
        der.extension('2.5.29.15', der.tlv(0x03, Buffer.from([7, 0xa6, 0x80])), true),
        der.extension(
          '2.5.29.37',
          der.seq(der.oid('1.3.6.1.5.5.7.3.1'), der.oid('1.3.6.1.5.5.7.3.2'), der.oid('1.2.3.4')),
        ),
        der.extension(
          '2.5.29.17',
          der.seq(
            der.tlv(0x82, 'a.test'),
            der.tlv(0x81, 'me@x.test'),
            der.tlv(0x87, Buffer.from([10, 0, 0, 1])),
            der.tlv(0x87, Buffer.from('20010db8000000000000000000000001', 'hex')),
            der.tlv(0x87, Buffer.from([1, 2, 3])),
            der.tlv(0x86, 'http://u'),
            der.tlv(0x88, der.oid('1.2.840.113549.1.1.1').subarray(2)),
            der.tlv(0xa4, der.name(['2.5.4.6', 'NL'], ['2.5.4.3', 'Dir'])),
            der.tlv(0xa0, der.oid('1.2.3.4'), der.tlv(0xa0, der.utf8('hello'))),
            der.tlv(0xa0, der.oid('1.3.6.1.5.5.7.8.7'), der.tlv(0xa0, der.ia5('_sip.x'))),
            der.tlv(0xa0, der.oid('1.2.3.5'), der.tlv(0xa0, der.int([5]))),
          ),
        ),
        der.extension(
          '1.3.6.1.5.5.7.1.1',
          der.seq(
            der.seq(der.oid('1.3.6.1.5.5.7.48.1'), der.tlv(0x86, 'http://ocsp.test')),
            der.seq(der.oid('1.3.6.1.5.5.7.48.2'), der.tlv(0x86, 'http://ca.test/x.crt')),
          ),
        ),
        der.extension(
          '2.5.29.31',
          der.seq(
            der.seq(
              der.tlv(
                0xa0,
                der.tlv(0xa0, der.tlv(0x86, 'http://crl.test/a.crl'), der.tlv(0x87, Buffer.from([1, 2, 3, 4]))),
              ),
            ),
            der.seq(
              der.tlv(0xa0, der.tlv(0xa0, der.tlv(0x86, 'http://d'))),
              der.tlv(0x81, Buffer.from([7, 0x80])),
              der.tlv(0xa2, der.tlv(0x82, 'iss.test')),
            ),
          ),
        ),
        der.extension(
          '2.5.29.32',
          der.seq(
            der.seq(der.oid('2.23.140.1.2.1')),
            der.seq(
              der.oid('1.3.6.1.4.1.44947.1.1.1'),
              der.seq(
                der.seq(der.oid('1.3.6.1.5.5.7.2.1'), der.ia5('http://cps.test')),
                der.seq(
                  der.oid('1.3.6.1.5.5.7.2.2'),
                  der.seq(der.seq(der.utf8('Org'), der.seq(der.int([1]), der.int([2]))), der.utf8('Explicit text')),
                ),
              ),
            ),
          ),
        ),
        der.extension(
          '2.5.29.30',
          der.seq(
            der.tlv(
              0xa0,
              der.seq(der.tlv(0x82, 'ok.test')),
              der.seq(der.tlv(0x87, Buffer.from([10, 0, 0, 0, 255, 0, 0, 0]))),
            ),
            der.tlv(0xa1, der.seq(der.tlv(0x81, 'x@y'))),
          ),
        ),
        der.extension(
          '1.3.6.1.4.1.11129.2.4.2',
          sctList(
            sct(Buffer.alloc(0), Buffer.alloc(71, 7), [4, 3], 1764000000123n),
            sct(Buffer.from([1, 2, 3]), Buffer.alloc(16, 9), [4, 1], 1n << 62n),
          ),
        ),
        der.extension('2.16.840.1.113730.1.13', der.ia5('a comment')),
        der.extension('1.2.3.4.5', Buffer.from('hello\x00\x01\xffworld\nline', 'latin1')),
      ),
    },
    {
      name: 'extensions OpenSSL cannot print (raw)',
      pem: ext(
        der.extension('2.5.29.17', der.seq(der.tlv(0x82, 'a\u0000b.test'))),
        der.extension('2.5.29.15', der.tlv(0x03, Buffer.from([0]))),
        der.extension('2.5.29.37', der.seq()),
        der.extension('2.5.29.35', der.seq()),
        der.extension('1.3.6.1.4.1.11129.2.4.2', sctList(Buffer.from([0, 1, 2]))),
      ),
    },
    {
      name: 'empty lists',
      pem: ext(
        der.extension('2.5.29.17', der.seq()),
        der.extension('1.3.6.1.5.5.7.1.1', der.seq()),
        der.extension('2.5.29.14', der.octet(Buffer.alloc(0))),
      ),
    },
  ];
}

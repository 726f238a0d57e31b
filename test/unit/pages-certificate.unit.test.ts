import { execFileSync, spawnSync } from 'node:child_process';
import tls from 'node:tls';
import { derDepth } from '../../src/modules/pages-domains/pages-der';
import {
  CERTIFICATE_CAPS,
  chainVerifies,
  keyMatches,
  opensslTime,
  parseBundle,
  parseDer,
  parsePrivateKey,
  pemBodies,
  rootsIssuing,
  type ParsedCertificate,
} from '../../src/modules/pages-domains/pages-certificate';
import {
  certificateSubject,
  certificateText,
  serialNumberText,
} from '../../src/modules/pages-domains/pages-certificate-text';
import { hostnameErrors, PAGES_MSG } from '../../src/modules/pages-domains/pages-domain.validation';
import { chain, der, ecKey, issue, pemOf, rawCertificate, textVariants, traditionalPem } from '../support/certificates';

const now = () => new Date();
const certs = (pem: string): ParsedCertificate[] => {
  const bundle = parseBundle(pem);
  if (!('certs' in bundle)) throw new Error(`not a certificate: ${bundle.problem}`);
  return bundle.certs;
};
const leafOf = (pem: string) => certs(pem)[0];

describe('pages certificates (spec 4.27, OpenSSL through node:crypto)', () => {
  it('parses a self-signed RSA certificate and its key in PKCS#8 and PKCS#1 form', async () => {
    const c = await issue({ cn: 'ssl.domain.test', serial: '0c' });
    const leaf = leafOf(c.pem);
    expect(certificateSubject(leaf)).toBe('/CN=ssl.domain.test');
    expect(keyMatches(leaf, parsePrivateKey(c.keyPem)!)).toBe(true);
    expect(keyMatches(leaf, parsePrivateKey(traditionalPem(c.keyPem))!)).toBe(true);
    expect(chainVerifies([leaf], now())).toBe(true);
  });

  it('parses EC (P-256) certificates and SEC1 keys; a foreign key does not match', async () => {
    const c = await issue({ cn: 'ec.domain.test', kind: 'ec' });
    const other = await issue({ cn: 'other.test', kind: 'ec' });
    const leaf = leafOf(c.pem);
    expect(keyMatches(leaf, parsePrivateKey(traditionalPem(c.keyPem))!)).toBe(true);
    expect(keyMatches(leaf, parsePrivateKey(other.keyPem)!)).toBe(false);
    expect(chainVerifies([leaf], now())).toBe(true);
  });

  it('self-signed secp256k1, brainpoolP256r1 and explicit-parameter certificates verify as OpenSSL verifies them', () => {
    for (const key of [
      ecKey('secp256k1'),
      ecKey('brainpoolP256r1'),
      ecKey('prime256v1', 'explicit'),
      ecKey('secp256k1', 'explicit'),
    ]) {
      const leaf = leafOf(rawCertificate({ key: key.privateKey }).pem);
      expect(chainVerifies([leaf], now())).toBe(true);
      expect(keyMatches(leaf, parsePrivateKey(key.keyPem)!)).toBe(true);
    }
  });

  it('refuses what is not a PEM certificate or private key', async () => {
    const c = await issue({ cn: 'x.test' });
    expect(parseBundle('hello')).toEqual({ problem: 'invalid' });
    expect(parseBundle('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n')).toEqual({
      problem: 'invalid',
    });
    expect(parseBundle(`-----BEGIN CERTIFICATE-----\n${c.pem.split('\n')[1]}!\n-----END CERTIFICATE-----\n`)).toEqual({
      problem: 'invalid',
    });
    expect(parsePrivateKey('hello')).toBeNull();
    expect(parsePrivateKey(c.pem)).toBeNull();
    expect(parsePrivateKey('-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n')).toBeNull();
  });

  it('OpenSSL is the gatekeeper: an empty serial number, month 13, February 30 and year 0 are not certificates', () => {
    const key = ecKey('prime256v1').privateKey;
    expect(parseBundle(rawCertificate({ key, serial: [] }).pem)).toEqual({ problem: 'invalid' });
    expect(parseBundle(rawCertificate({ key, notBefore: der.utc('241301000000Z') }).pem)).toEqual({
      problem: 'invalid',
    });
    expect(parseBundle(rawCertificate({ key, notAfter: der.gen('20990230000000Z') }).pem)).toEqual({
      problem: 'invalid',
    });
    expect(parseBundle(rawCertificate({ key, notAfter: der.gen('99999999999999Z') }).pem)).toEqual({
      problem: 'invalid',
    });
    expect(parseBundle(rawCertificate({ key, notBefore: der.gen('00000101000000Z') }).pem)).toEqual({
      problem: 'invalid',
    });
    // DER bytes that hold a PEM block: Node would read the inner PEM; the certificate is the bytes given.
    const inner = rawCertificate({ key }).pem;
    const outer = rawCertificate({ key, extensions: [der.extension('1.2.3.4', Buffer.from(inner))] }).der;
    expect(parseDer(outer)).not.toBe('invalid');
    expect(parseDer(Buffer.concat([Buffer.from(inner), outer]))).toBe('invalid');
  });

  it('validity times: OpenSSL prints them, we read them strictly (year 1 is year 1, not 1901)', () => {
    expect(opensslTime('Jan  1 00:00:00 1 GMT')!.toISOString()).toBe('0001-01-01T00:00:00.000Z');
    expect(opensslTime('Dec 31 23:59:59 9999 GMT')!.toISOString()).toBe('9999-12-31T23:59:59.000Z');
    expect(opensslTime('Jan  1 00:00:00.123456 2099 GMT')!.toISOString()).toBe('2099-01-01T00:00:00.123Z');
    expect(opensslTime('Feb 29 00:00:00 2024 GMT')!.toISOString()).toBe('2024-02-29T00:00:00.000Z');
    for (const bad of [
      'Bad time value',
      'Feb 29 00:00:00 2023 GMT',
      'Jan  1 00:00:00 0 GMT',
      'Jan  1 00:00:00 10007 GMT',
      'Foo  1 00:00:00 2024 GMT',
      '',
    ]) {
      expect([bad, opensslTime(bad)]).toEqual([bad, null]);
    }
    const year1 = leafOf(
      rawCertificate({ key: ecKey('prime256v1').privateKey, notBefore: der.gen('00010101000000Z') }).pem,
    );
    expect(year1.notBefore.toISOString()).toBe('0001-01-01T00:00:00.000Z');
  });

  it('verifies a chain only with its intermediate (root included in the bundle)', async () => {
    const { root, intermediate, leaf } = await chain('chain.domain.test');
    expect(chainVerifies(certs(leaf.pem + intermediate.pem + root.pem), now())).toBe(true);
    expect(chainVerifies(certs(leaf.pem + root.pem), now())).toBe(false);
    expect(chainVerifies(certs(leaf.pem), now())).toBe(false);
    // An intermediate without its root is not enough: the path must end at a self-signed certificate.
    expect(chainVerifies(certs(leaf.pem + intermediate.pem), now())).toBe(false);
  });

  it('a CA-issued brainpoolP256r1 leaf chains to its P-256 root', () => {
    const ca = ecKey('prime256v1');
    const root = rawCertificate({
      key: ca.privateKey,
      subject: der.cn('BP Root'),
      extensions: [der.basicConstraints(true)],
    });
    const leaf = rawCertificate({
      key: ca.privateKey,
      publicKey: ecKey('brainpoolP256r1').publicKey,
      subject: der.cn('bp.test'),
      issuer: der.cn('BP Root'),
      serial: [7],
    });
    expect(chainVerifies(certs(leaf.pem + root.pem), now())).toBe(true);
    expect(certificateText(leafOf(leaf.pem))).toContain('                ASN1 OID: brainpoolP256r1\n');
  });

  it("finds issuers among Node's trust store roots by name, parsing only candidates", async () => {
    const real = leafOf(tls.rootCertificates[0]);
    expect(rootsIssuing(real).map((c) => c.x509.subject)).toContain(real.x509.issuer);
    expect(rootsIssuing(leafOf((await issue({ cn: 'nobody.test', kind: 'ec' })).pem))).toEqual([]);
  });

  it('a chain whose leaf is outside its validity does not verify; a self-signed one still does', async () => {
    const { root, intermediate, leaf } = await chain('c.test');
    const bundle = certs(leaf.pem + intermediate.pem + root.pem);
    expect(chainVerifies(bundle, new Date(Date.now() + 400 * 86_400_000))).toBe(false);
    const expired = await issue({ cn: 'old.test', from: -30, to: -1 });
    expect(chainVerifies(certs(expired.pem), now())).toBe(true);
  });
});

describe('caps and linear scanning', () => {
  const BEGIN = '-----BEGIN CERTIFICATE-----\n';

  it('scans 2 MB of BEGIN lines never closed in one pass', () => {
    const hostile = BEGIN.repeat(Math.ceil((2 * 1024 * 1024) / BEGIN.length));
    const started = process.hrtime.bigint();
    expect(pemBodies(hostile, 16)).toEqual([]);
    expect(pemBodies(`${hostile}-----END CERTIFICATE-----`, 16)).toHaveLength(1);
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(2000); // catches a quadratic scan, not a timing target
  });

  it('refuses a field over 65,536 characters, more than 16 certificates, nesting deeper than 32', async () => {
    const c = await issue({ cn: 'x.test', kind: 'ec' });
    expect(parseBundle(BEGIN.repeat(CERTIFICATE_CAPS.pemLength / BEGIN.length + 1))).toEqual({ problem: 'tooLong' });
    expect(parseBundle(c.pem.repeat(16))).toHaveProperty('certs');
    expect(parseBundle(c.pem.repeat(17))).toEqual({ problem: 'tooMany' });
    const key = ecKey('prime256v1').privateKey;
    const deep = (depth: number) =>
      rawCertificate({
        key,
        extensions: [
          der.extension('2.5.29.17', der.seq(der.tlv(0xa0, der.oid('1.2.3.4'), der.tlv(0xa0, der.nested(depth))))),
        ],
      }).pem;
    expect(parseBundle(deep(5000))).toEqual({ problem: 'tooDeep' });
    expect(parseBundle(c.pem + deep(5000))).toEqual({ problem: 'tooDeep' });
    expect(parseBundle(deep(20))).toHaveProperty('certs');
    expect(parsePrivateKey(`${'x'.repeat(CERTIFICATE_CAPS.keyLength)}${c.keyPem}`)).toBeNull();
  });

  it('derDepth: constructed elements and DER inside OCTET/BIT STRINGs count; opaque strings do not; BER is refused', () => {
    expect(derDepth(der.nested(5), 32)).toBe(5);
    expect(derDepth(der.nested(100), 32)).toBe(33);
    expect(derDepth(der.seq(der.octet(der.nested(3))), 32)).toBe(5);
    expect(derDepth(der.seq(der.octet(Buffer.from([0x30, 0x05, 0x30]))), 32)).toBe(2); // not DER inside: opaque
    expect(derDepth(der.seq(der.bits(der.nested(2))), 32)).toBe(4);
    expect(derDepth(Buffer.from([0x30, 0x80, 0x00, 0x00]), 32)).toBe(-1); // indefinite length
    expect(derDepth(Buffer.concat([der.seq(), Buffer.from([0])]), 32)).toBe(-1); // trailing octet
    expect(derDepth(Buffer.from([0x30, 0x84, 0xff, 0xff, 0xff, 0xff]), 32)).toBe(-1);
  });
});

describe('certificate_text: openssl x509 -noout -text -nameopt compat (Ruby to_text)', () => {
  it.each([
    [[0x0c], '        Serial Number: 12 (0xc)'],
    [[0x00], '        Serial Number: 0 (0x0)'],
    [[0xff], '        Serial Number: -1 (-0x1)'], // OpenSSL 1.x and 3.2+; 3.0 alone prints the long form
    [[0xfe], '        Serial Number: -2 (-0x2)'],
    [[0xff, 0x01], '        Serial Number: -255 (-0xff)'],
    [
      [0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
      '        Serial Number: 9223372036854775807 (0x7fffffffffffffff)',
    ],
    [[0x80, 0, 0, 0, 0, 0, 0, 0], '        Serial Number: -9223372036854775808 (-0x8000000000000000)'],
    [[0x00, 0x80, 0, 0, 0, 0, 0, 0, 0], '        Serial Number:\n            80:00:00:00:00:00:00:00'],
    [
      [0xff, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
      '        Serial Number:\n             (Negative)80:00:00:00:00:00:00:01',
    ],
    [[0x80, 1, 2, 3, 4, 5, 6, 7, 8, 9], '        Serial Number:\n             (Negative)7f:fe:fd:fc:fb:fa:f9:f8:f7:f7'],
    [[], '        Serial Number: (Empty)'],
  ])('serial %p', (content, text) => {
    expect(serialNumberText(Buffer.from(content))).toBe(text);
  });

  it('reads like openssl x509 -text', async () => {
    const rsa = await issue({ cn: 'ssl.domain.test', serial: '0c' });
    const text = certificateText(leafOf(rsa.pem));
    expect(text).toMatch(
      /^Certificate:\n {4}Data:\n {8}Version: 3 \(0x2\)\n {8}Serial Number: 12 \(0xc\)\n {8}Signature Algorithm: sha256WithRSAEncryption\n/,
    );
    expect(text).toContain('        Issuer: CN=ssl.domain.test\n        Validity\n            Not Before: ');
    expect(text).toMatch(/Not After : [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4} GMT\n/);
    expect(text).toContain(
      '        Subject: CN=ssl.domain.test\n        Subject Public Key Info:\n            Public Key Algorithm: rsaEncryption\n                Public-Key: (2048 bit)\n                Modulus:\n',
    );
    expect(text).toContain('                Exponent: 65537 (0x10001)\n');
    expect(text).toContain('            X509v3 Basic Constraints: critical\n                CA:FALSE\n');
    expect(text).toContain('            X509v3 Subject Alternative Name: \n                DNS:ssl.domain.test\n');
    expect(text).toMatch(
      /\n {4}Signature Algorithm: sha256WithRSAEncryption\n {4}Signature Value:\n( {8}([0-9a-f]{2}:){17}[0-9a-f]{2}:\n)+/,
    );
    const ec = certificateText(leafOf((await issue({ cn: 'ec.test', kind: 'ec' })).pem));
    expect(ec).toContain('        Signature Algorithm: ecdsa-with-SHA256\n');
    expect(ec).toContain(
      '            Public Key Algorithm: id-ecPublicKey\n                Public-Key: (256 bit)\n                pub:\n',
    );
    expect(ec).toContain('                ASN1 OID: prime256v1\n                NIST CURVE: P-256\n');
  });

  it('subject: OpenSSL one-line form with escapes, as Ruby X509::Name#to_s', () => {
    const [names] = textVariants().filter((v) => v.name.startsWith('names:'));
    expect(certificateSubject(leafOf(names.pem))).toBe(
      '/C=NL/O=Ac\\/me\\+x+OU=Unit/emailAddress=a@b.c/CN=caf\\xC3\\xA9 \\x01 a\\/B=c/1.2.3.4.5=odd/CN=\\x00A\\x00B/DC=dc',
    );
  });

  it('a certificate whose text cannot be rendered gets the short form, never an exception', () => {
    const leaf = leafOf(rawCertificate({ key: ecKey('prime256v1').privateKey }).pem);
    const broken = {
      ...leaf,
      fields: { ...leaf.fields, subject: { ...leaf.fields.subject, end: leaf.fields.subject.end - 1 } },
    };
    expect(certificateText(broken)).toBe(
      `Certificate:\n    Data:\n        Validity\n            Not Before: ${leaf.validFrom}\n            Not After : ${leaf.validTo}\n`,
    );
  });

  // The oracle: this machine's OpenSSL (CI without the openssl command skips it).
  const openssl = spawnSync('openssl', ['version']).status === 0;
  (openssl ? it : it.skip)('equals `openssl x509 -noout -text -nameopt compat` and `-subject` byte for byte', () => {
    for (const { name, pem } of textVariants()) {
      const leaf = leafOf(pem);
      const text = execFileSync('openssl', ['x509', '-noout', '-text', '-nameopt', 'compat'], {
        input: pem,
      }).toString();
      const subject = execFileSync('openssl', ['x509', '-noout', '-subject', '-nameopt', 'compat'], {
        input: pem,
      }).toString();
      expect([name, certificateText(leaf)]).toEqual([name, text]);
      expect([name, `subject=${certificateSubject(leaf)}\n`]).toEqual([name, subject]);
    }
  });

  it('pemOf and rawCertificate round-trip (test support)', () => {
    const raw = rawCertificate({ key: ecKey('prime256v1').privateKey, serial: [0x42] });
    expect(pemOf(raw.der)).toBe(raw.pem);
    expect(leafOf(raw.pem).x509.serialNumber).toBe('42');
  });
});

describe('pages domain hostname rules (GitLab 10.3 hostname validator)', () => {
  it.each([
    ['www.example.org', []],
    ['localhost', []],
    ['UPPER.Case.IO', []],
    ['a'.repeat(63) + '.io', []],
    ['', [PAGES_MSG.hostLength]],
    ['a'.repeat(64) + '.io', [PAGES_MSG.labelLength]],
    ['-bad.io', [PAGES_MSG.hyphen]],
    ['bad-.io', [PAGES_MSG.hyphen]],
    ['under_score.io', [PAGES_MSG.characters]],
    ['*.wild.io', [PAGES_MSG.characters]],
    ['123.io', [PAGES_MSG.numeric]],
    ['a..b', [PAGES_MSG.labelLength, PAGES_MSG.characters, PAGES_MSG.dots]],
    ['trailing.dot.', [PAGES_MSG.endDot]],
    [`${'a'.repeat(60)}.`.repeat(5), [PAGES_MSG.hostLength, PAGES_MSG.endDot]],
  ])('%p → %p', (domain, messages) => {
    expect(hostnameErrors(domain)).toEqual(messages);
  });
});

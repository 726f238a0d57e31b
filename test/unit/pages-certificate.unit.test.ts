import { certificateText } from '../../src/modules/pages-domains/pages-certificate-text';
import tls from 'node:tls';
import { chainVerifies, keyMatches, parseCertificates, parsePrivateKey, rootsIssuing, slashSubject } from '../../src/modules/pages-domains/pages-certificate';
import { hostnameErrors, PAGES_MSG } from '../../src/modules/pages-domains/pages-domain.validation';
import { chain, issue, traditionalPem } from '../support/certificates';

const now = () => new Date();

describe('pages certificates (spec 4.27, parsed with @peculiar/x509)', () => {
  it('parses a self-signed RSA certificate and its key in PKCS#8 and PKCS#1 form', async () => {
    const c = await issue({ cn: 'ssl.domain.test', serial: '0c' });
    const [leaf] = parseCertificates(c.pem)!;
    expect(slashSubject(leaf)).toBe('/CN=ssl.domain.test');
    expect(keyMatches(leaf, parsePrivateKey(c.keyPem)!)).toBe(true);
    expect(keyMatches(leaf, parsePrivateKey(traditionalPem(c.keyPem))!)).toBe(true);
    expect(await chainVerifies([leaf], now())).toBe(true);
  });

  it('parses EC (P-256) certificates and SEC1 keys; a foreign key does not match', async () => {
    const c = await issue({ cn: 'ec.domain.test', kind: 'ec' });
    const other = await issue({ cn: 'other.test', kind: 'ec' });
    const [leaf] = parseCertificates(c.pem)!;
    expect(keyMatches(leaf, parsePrivateKey(traditionalPem(c.keyPem))!)).toBe(true);
    expect(keyMatches(leaf, parsePrivateKey(other.keyPem)!)).toBe(false);
    expect(await chainVerifies([leaf], now())).toBe(true);
  });

  it('refuses what is not a PEM certificate or private key', async () => {
    const c = await issue({ cn: 'x.test' });
    expect(parseCertificates('hello')).toBeNull();
    expect(parseCertificates('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n')).toBeNull();
    expect(parsePrivateKey('hello')).toBeNull();
    expect(parsePrivateKey(c.pem)).toBeNull();
    expect(parsePrivateKey('-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n')).toBeNull();
  });

  it('verifies a chain only with its intermediate (root included in the bundle)', async () => {
    const { root, intermediate, leaf } = await chain('chain.domain.test');
    expect(await chainVerifies(parseCertificates(leaf.pem + intermediate.pem + root.pem)!, now())).toBe(true);
    expect(await chainVerifies(parseCertificates(leaf.pem + root.pem)!, now())).toBe(false);
    expect(await chainVerifies(parseCertificates(leaf.pem)!, now())).toBe(false);
    // An intermediate without its root is not enough: the path must end at a self-signed certificate.
    expect(await chainVerifies(parseCertificates(leaf.pem + intermediate.pem)!, now())).toBe(false);
  });

  it("finds issuers among Node's trust store roots by name, parsing only candidates", async () => {
    const real = parseCertificates(tls.rootCertificates[0])![0];
    const found = rootsIssuing(real);
    expect(found.map((c) => c.subject)).toContain(real.issuer);
    expect(rootsIssuing(parseCertificates((await issue({ cn: 'nobody.test', kind: 'ec' })).pem)![0])).toEqual([]);
  });

  it('a chain whose leaf is outside its validity does not verify; a self-signed one still does', async () => {
    const { root, intermediate, leaf } = await chain('c.test');
    const bundle = parseCertificates(leaf.pem + intermediate.pem + root.pem)!;
    expect(await chainVerifies(bundle, new Date(Date.now() + 400 * 86_400_000))).toBe(false);
    const expired = await issue({ cn: 'old.test', from: -30, to: -1 });
    expect(await chainVerifies(parseCertificates(expired.pem)!, now())).toBe(true);
  });

  it('certificate_text reads like openssl x509 -text', async () => {
    const rsa = await issue({ cn: 'ssl.domain.test', serial: '0c' });
    const text = certificateText(parseCertificates(rsa.pem)![0]);
    expect(text).toMatch(/^Certificate:\n {4}Data:\n {8}Version: 3 \(0x2\)\n {8}Serial Number: 12 \(0xc\)\n {4}Signature Algorithm: sha256WithRSAEncryption\n/);
    expect(text).toContain('        Issuer: CN=ssl.domain.test\n        Validity\n            Not Before: ');
    expect(text).toMatch(/Not After : [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4} GMT\n/);
    expect(text).toContain('        Subject: CN=ssl.domain.test\n        Subject Public Key Info:\n            Public Key Algorithm: rsaEncryption\n                Public-Key: (2048 bit)\n                Modulus:\n');
    expect(text).toContain('                Exponent: 65537 (0x10001)\n');
    expect(text).toContain('            X509v3 Basic Constraints: critical\n                CA:FALSE\n');
    expect(text).toContain('            X509v3 Subject Alternative Name:\n                DNS:ssl.domain.test\n');
    const ec = certificateText(parseCertificates((await issue({ cn: 'ec.test', kind: 'ec' })).pem)![0]);
    expect(ec).toContain('    Signature Algorithm: ecdsa-with-SHA256\n');
    expect(ec).toContain('            Public Key Algorithm: id-ecPublicKey\n                Public-Key: (256 bit)\n                pub:\n');
    expect(ec).toContain('                ASN1 OID: prime256v1\n                NIST CURVE: P-256\n');
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

import crypto from 'node:crypto';
import {
  chainVerifies,
  keyMatches,
  parseBundle,
  parsePrivateKey,
} from '../../src/modules/pages-domains/pages-certificate';
import { extensionLines } from '../../src/modules/pages-domains/pages-certificate-extensions';
import { certificateSubject, certificateText } from '../../src/modules/pages-domains/pages-certificate-text';
import { createGroup, createProject } from '../support/factories';
import { der, ecKey, pemOf, rawCertificate } from '../support/certificates';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';

/**
 * Hostile certificates through create, list, single GET and
 * GraphQL. Every answer is 400 or 2xx, nothing reaches the process's unhandled-rejection or
 * uncaught-exception handlers, and /-/liveness still answers. Deterministic: a seeded PRNG and a
 * fixed RSA key sign the generated corpus (PKCS#1 v1.5 signatures are deterministic).
 */
const t = useTestApp({ reset: 'once' });

const FIXED_RSA = crypto.createPrivateKey(`-----BEGIN PRIVATE KEY-----
MIICdQIBADANBgkqhkiG9w0BAQEFAASCAl8wggJbAgEAAoGBAMY8nyUzuFWPx0ec
QtohX8uPonrgL+uIn2ql2/Yj6TzSu1Ak5TeF3FHNB+njhYazwxJM04bCJCTabYOg
VhP6/x4y9A1gomCjO2Pwlw9fx1Ji/XYU5vZ9733HUDST9HAk51WmjwBSAXIO1BR4
HUHBbz/eCUzsx/oSGqTGY7zVTeA3AgMBAAECgYAFP3+bFYZwxXCqJanjanTFx9Su
WhcKrkBCK4fqOUMoeA+7bG6hDKsrgzkNaReU3FdyuZP0AlnAnAPAM1N0DfYJA7GG
BoN/KZFRvuqb4jDNWnBzOXE7K+4br95uxHS5vku5oX5We4fwB6zi/aNOCaijeQ81
MebIsLKH878buMLLWQJBAOvvNskKC+l8IR36l4XMRg3hc0xH3cHV2KxYmVN5CN0C
c7Oi/q2kirm8L2A1wR0E8h40loIn3dpmWd0QTGD15iUCQQDXGKbHxFlKRoS+Mmiu
8TrGdQiN1EWQ+WNNHeAsozZwQPcEMJ7zPYpJAan+7LbyONraJFoubY+H8GW5grvf
PdgrAkAcl2KmPkdvRhGlVmbiWfzrVbTpO5ROFyIo0JvUF8jRL6jhzhDa7iO5mmqL
WDhM0fqdWnYa08X434poVb9LyMDZAkApMXBnW6QaBG1Rm4fO0SYHccxklR2JiSlK
UIlpIwy+7MIhzEn0nXmJR8dNqfnTY64ODt4yfAr75r8kivP96fMnAkAOIRF1berB
KRyz+J0ZpXJ4YVrgIU+TIDnIryF78t0TUkaVkyC931OAASjqrmE53v1qoiYMwqsk
/vP2OhUSgWwP
-----END PRIVATE KEY-----`);
const FIXED_RSA_PEM = FIXED_RSA.export({ type: 'pkcs8', format: 'pem' }).toString();

/** mulberry32: a small seeded PRNG. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return {
    int,
    chance: (p: number) => next() < p,
    pick: <T>(list: readonly T[]): T => list[int(list.length)],
    bytes: (n: number) => Buffer.from(Array.from({ length: n }, () => int(256))),
  };
}
type Rand = ReturnType<typeof prng>;

interface Case {
  name: string;
  certificate: string;
  key: string;
}

const TIMES = [
  '20000101000000Z',
  '20991231235959Z',
  '00010101000000Z',
  '99991231235959Z',
  '99999999999999Z',
  '20241301000000Z',
  '20240230000000Z',
  '20240132000000Z',
  '20240101240000Z',
  '20240101235960Z',
  '00000101000000Z',
  '20240101000000.5Z',
  '20240101000000.123456789Z',
  '20240101000000+0130',
  '2024010100Z',
  '',
  'Z',
  '2024',
  '20240101000000',
  '+0000000000000Z',
];
const UTC_TIMES = [
  '491231235959Z',
  '500101000000Z',
  '240101000000Z',
  '9901010000+0100',
  '241301000000Z',
  '2401010000Z',
  '240101000000-2359',
  'abcdefghijklZ',
];
const NAME_OIDS = [
  '2.5.4.3',
  '2.5.4.6',
  '2.5.4.10',
  '2.5.4.11',
  '1.2.840.113549.1.9.1',
  '0.9.2342.19200300.100.1.25',
  '1.2.3.4',
  '2.5.4.5',
  '2.999.1234567890123456789',
];
const STRING_TAGS = [0x0c, 0x13, 0x16, 0x1e, 0x1c, 0x14, 0x12, 0x1a, 0x1b, 0x04, 0x30, 0x02];
const EXT_OIDS = [
  '2.5.29.17',
  '2.5.29.18',
  '2.5.29.15',
  '2.5.29.37',
  '2.5.29.19',
  '2.5.29.14',
  '2.5.29.35',
  '1.3.6.1.5.5.7.1.1',
  '2.5.29.31',
  '2.5.29.32',
  '2.5.29.30',
  '1.3.6.1.4.1.11129.2.4.2',
  '2.16.840.1.113730.1.13',
  '1.2.3.4',
];

function randomName(r: Rand): Buffer {
  const rdns = Array.from({ length: r.int(4) }, () =>
    der.set(
      ...Array.from({ length: 1 + r.int(2) }, () =>
        der.seq(der.oid(r.pick(NAME_OIDS)), der.tlv(r.pick(STRING_TAGS), r.bytes(r.int(12)))),
      ),
    ),
  );
  return der.seq(...rdns);
}

function randomGeneralName(r: Rand): Buffer {
  switch (r.int(8)) {
    case 0:
      return der.tlv(0x82, r.chance(0.7) ? `h${r.int(99)}.test` : r.bytes(r.int(10)));
    case 1:
      return der.tlv(0x87, r.bytes(r.pick([4, 16, 0, 3, 8, 32])));
    case 2:
      return der.tlv(0xa4, randomName(r));
    case 3:
      return der.tlv(
        0xa0,
        der.oid(r.pick(['1.2.3.4', '1.3.6.1.5.5.7.8.7', '1.3.6.1.4.1.311.20.2.3'])),
        der.tlv(0xa0, der.tlv(r.pick(STRING_TAGS), r.bytes(r.int(8)))),
      );
    case 4:
      return der.tlv(0x88, der.oid(r.pick(NAME_OIDS)).subarray(2));
    case 5:
      return der.tlv(0x86, `http://x/${r.int(1000)}`);
    case 6:
      return der.tlv(0x81, r.bytes(r.int(6)));
    default:
      return der.tlv(0x80 + r.int(32), r.bytes(r.int(6)));
  }
}

/** An extension value: a plausible structure for its OID, sometimes damaged, sometimes random or deep. */
function randomExtension(r: Rand): Buffer {
  const oid = r.pick(EXT_OIDS);
  let value: Buffer;
  if (r.chance(0.1)) value = der.nested(1 + r.int(60));
  else if (r.chance(0.15)) value = r.bytes(r.int(40));
  else if (oid === '2.5.29.15') value = der.tlv(0x03, Buffer.concat([Buffer.from([r.int(9)]), r.bytes(r.int(3))]));
  else if (oid === '2.5.29.19')
    value = der.seq(
      ...(r.chance(0.5) ? [der.bool(r.chance(0.5))] : []),
      ...(r.chance(0.5) ? [der.int(r.bytes(1 + r.int(20)))] : []),
    );
  else if (oid === '2.5.29.37')
    value = der.seq(...Array.from({ length: r.int(4) }, () => der.oid(r.pick([...NAME_OIDS, '1.3.6.1.5.5.7.3.1']))));
  else if (oid === '2.5.29.14') value = der.octet(r.bytes(r.int(30)));
  else if (oid === '1.3.6.1.4.1.11129.2.4.2')
    value = der.octet(Buffer.concat([Buffer.from([0, r.int(200)]), r.bytes(r.int(120))]));
  else if (oid === '2.16.840.1.113730.1.13') value = der.ia5(r.bytes(r.int(20)).toString('latin1'));
  else
    value = der.seq(
      ...Array.from({ length: r.int(5) }, () =>
        oid === '2.5.29.17' || oid === '2.5.29.18'
          ? randomGeneralName(r)
          : der.seq(der.oid(r.pick(NAME_OIDS)), randomGeneralName(r)),
      ),
    );
  if (r.chance(0.3) && value.length) {
    value = Buffer.from(value);
    for (let k = 1 + r.int(3); k > 0; k -= 1) value[r.int(value.length)] = r.int(256);
  }
  return der.extension(oid, value, r.chance(0.3));
}

const time = (r: Rand) => (r.chance(0.3) ? der.utc(r.pick(UTC_TIMES)) : der.gen(r.pick(TIMES)));

/** Self-signed with the fixed RSA key, every field chosen at random: many are accepted, so the text is rendered. */
function structured(r: Rand): Buffer {
  const serial = r.chance(0.1) ? [] : [...r.bytes(r.pick([1, 1, 2, 8, 9, 20, 21, 64]))];
  return rawCertificate({
    key: FIXED_RSA,
    serial,
    version: r.chance(0.9) ? 2 : r.pick([0, 1, 3, 255]),
    notBefore: r.chance(0.5) ? der.gen('20000101000000Z') : time(r),
    notAfter: r.chance(0.5) ? der.gen('20991231235959Z') : time(r),
    subject: r.chance(0.3) ? der.cn('fuzz.test') : randomName(r),
    extensions: Array.from({ length: r.int(5) }, () => randomExtension(r)),
  }).der;
}

/** A valid certificate's DER with flipped, inserted or removed octets, or cut short. */
function mutated(r: Rand, base: Buffer): Buffer {
  let out = Buffer.from(base);
  for (let k = 1 + r.int(4); k > 0; k -= 1) {
    const at = r.int(out.length);
    const op = r.int(5);
    if (op === 0) out[at] = r.int(256);
    else if (op === 1) out[at] ^= 1 << r.int(8);
    else if (op === 2) out = Buffer.concat([out.subarray(0, at), r.bytes(1 + r.int(3)), out.subarray(at)]);
    else if (op === 3) out = Buffer.concat([out.subarray(0, at), out.subarray(at + 1 + r.int(4))]);
    else out = out.subarray(0, Math.max(1, at));
  }
  return out;
}

function namedCases(): Case[] {
  const rsa = (o: Partial<Parameters<typeof rawCertificate>[0]>) => rawCertificate({ key: FIXED_RSA, ...o }).pem;
  const cases: Case[] = [];
  const add = (name: string, certificate: string, key = FIXED_RSA_PEM) => cases.push({ name, certificate, key });
  const root = rsa({ subject: der.cn('Fuzz Root'), extensions: [der.basicConstraints(true)] });
  const issued = (name: string, k: ReturnType<typeof ecKey>) =>
    add(
      name,
      rawCertificate({
        key: FIXED_RSA,
        publicKey: k.publicKey,
        subject: der.cn(name),
        issuer: der.cn('Fuzz Root'),
        serial: [5],
      }).pem + root,
      k.keyPem,
    );
  const deepSan = (depth: number) =>
    der.extension('2.5.29.17', der.seq(der.tlv(0xa0, der.oid('1.2.3.4'), der.tlv(0xa0, der.nested(depth)))));
  add('empty serial', rsa({ serial: [] }));
  add('san nesting 5,000', rsa({ extensions: [deepSan(5000)] }));
  add(
    'issuer nesting 5,000',
    rsa({ issuer: der.cn('Fuzz Root') }) +
      rsa({ subject: der.cn('Fuzz Root'), extensions: [der.basicConstraints(true), deepSan(5000)] }),
  );
  add('BEGIN never closed, 60 KB', '-----BEGIN CERTIFICATE-----\n'.repeat(2200));
  add('BEGIN never closed, 1 MB', '-----BEGIN CERTIFICATE-----\n'.repeat(37_500));
  add('17 certificates', rsa({}).repeat(17));
  add('leaf and junk blocks', rsa({}) + '-----BEGIN CERTIFICATE-----\n!!\n-----END CERTIFICATE-----\n'.repeat(15));
  for (const [name, serial] of [
    ['huge serial', [0x7f, ...Array(63).fill(0xff)]],
    ['negative serial', [0xfe]],
    ['minus one', [0xff]],
    ['long negative', [0x80, ...Array(30).fill(1)]],
    ['non-minimal serial', [0, 1]],
    ['non-minimal negative', [0xff, 0x80]],
  ] as const) {
    add(name, rsa({ serial: [...serial] }));
  }
  for (const t of TIMES) add(`notAfter ${t}`, rsa({ notAfter: der.gen(t) }));
  for (const t of UTC_TIMES) add(`notBefore UTCTime ${t}`, rsa({ notBefore: der.utc(t) }));
  for (const curve of ['secp256k1', 'brainpoolP256r1', 'brainpoolP512r1', 'secp521r1', 'secp224r1', 'prime192v1'])
    issued(`CA-issued ${curve}`, ecKey(curve));
  for (const curve of ['prime256v1', 'secp256k1', 'brainpoolP256r1']) {
    const k = ecKey(curve, 'explicit');
    add(`self-signed explicit ${curve}`, rawCertificate({ key: k.privateKey }).pem, k.keyPem);
  }
  const k1 = ecKey('secp256k1');
  add('self-signed secp256k1', rawCertificate({ key: k1.privateKey }).pem, k1.keyPem);
  const big = crypto.generateKeyPairSync('rsa', { modulusLength: 3072 }).publicKey.export({ format: 'jwk' });
  const n = Buffer.from(big.n as string, 'base64url');
  const hugeE = Buffer.from(n);
  hugeE[0] >>= 1;
  hugeE[hugeE.length - 1] |= 1;
  const spki = der.seq(
    der.seq(der.oid('1.2.840.113549.1.1.1'), der.tlv(0x05)),
    der.bits(der.seq(der.int(Buffer.concat([Buffer.from([0]), n])), der.int(hugeE))),
  );
  add(
    'RSA-3072 key with a 3071-bit exponent, in the SPKI',
    rawCertificate({ key: FIXED_RSA, publicKey: crypto.createPublicKey({ key: spki, format: 'der', type: 'spki' }) })
      .pem,
  );
  add('indefinite length', pemOf(Buffer.from([0x30, 0x80, 0x02, 0x01, 0x01, 0x00, 0x00])));
  add('trailing octets', pemOf(Buffer.concat([rawCertificate({ key: FIXED_RSA }).der, Buffer.from([0])])));
  add('bad base64', '-----BEGIN CERTIFICATE-----\n@@@@\n-----END CERTIFICATE-----\n');
  add('huge length', pemOf(Buffer.from([0x30, 0x84, 0x7f, 0xff, 0xff, 0xff, 0x02])));
  add('key is a certificate', rsa({}), rsa({}));
  return cases;
}

const recorded: unknown[] = [];
const record = (e: unknown) => void recorded.push(e);
beforeAll(() => {
  process.on('unhandledRejection', record);
  process.on('uncaughtException', record);
});
afterAll(() => {
  process.off('unhandledRejection', record);
  process.off('uncaughtException', record);
});

describe('certificate fuzzing', () => {
  it('parse, render, verify and match never throw on 3,000 mutated or generated certificates (direct calls)', () => {
    const r = prng(18);
    const bases = [rawCertificate({ key: FIXED_RSA }).der, structured(r), structured(r)];
    const key = parsePrivateKey(FIXED_RSA_PEM)!;
    let accepted = 0;
    for (let i = 0; i < 3000; i += 1) {
      const bytes = i % 3 === 0 ? structured(r) : mutated(r, r.pick(bases));
      const bundle = parseBundle(pemOf(bytes));
      if (!('certs' in bundle)) continue;
      accepted += 1;
      const [leaf] = bundle.certs;
      expect(typeof certificateText(leaf)).toBe('string');
      expect(typeof certificateSubject(leaf)).toBe('string');
      expect(typeof chainVerifies(bundle.certs, new Date())).toBe('boolean');
      expect(typeof keyMatches(leaf, key)).toBe('boolean');
    }
    expect(accepted).toBeGreaterThan(300); // 370 with these seeds: the rest are refused (mutations, odd times)
    for (let i = 0; i < 3000; i += 1) {
      const value = r.chance(0.5) ? r.bytes(r.int(64)) : mutated(r, randomExtension(r).subarray(2));
      expect(typeof extensionLines({ oid: r.pick(EXT_OIDS), critical: false, value }, 16)).toBe('string');
    }
  });

  it('over HTTP: create answers 201 or 400, list, single GET and GraphQL answer 200, the process stays up', async () => {
    const r = prng(1018);
    const p = await createProject(t, { namespace: await createGroup(t) });
    const base = `/api/v4/projects/${p.id}/pages/domains`;
    const cases: Case[] = [...namedCases()];
    for (let i = 0; i < 120; i += 1)
      cases.push({ name: `structured ${i}`, certificate: pemOf(structured(r)), key: FIXED_RSA_PEM });
    const valid = rawCertificate({ key: FIXED_RSA }).der;
    for (let i = 0; i < 60; i += 1)
      cases.push({ name: `mutated ${i}`, certificate: pemOf(mutated(r, valid)), key: FIXED_RSA_PEM });
    const created: string[] = [];
    const statuses: Record<number, number> = {};
    for (const [i, c] of cases.entries()) {
      const domain = `f${i}.fuzz.test`;
      const res = await api(t, ROOT_TOKEN).post(base).send({ domain, certificate: c.certificate, key: c.key });
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      expect([c.name, [201, 400].includes(res.status)]).toEqual([c.name, true]);
      if (res.status === 400) expect([c.name, Object.keys(res.body)]).toEqual([c.name, ['message']]);
      else created.push(domain);
    }
    expect(created.length).toBeGreaterThan(30);
    expect(statuses[400]).toBeGreaterThan(30);
    for (let page = 1; page <= Math.ceil(created.length / 100); page += 1) {
      const list = await api(t, ROOT_TOKEN).get(`${base}?per_page=100&page=${page}`);
      expect(list.status).toBe(200);
    }
    expect((await api(t, ROOT_TOKEN).get('/api/v4/pages/domains?per_page=100')).status).toBe(200);
    for (const domain of created) {
      const one = await api(t, ROOT_TOKEN).get(`${base}/${domain}`);
      expect([domain, one.status, typeof one.body.certificate?.certificate_text]).toEqual([domain, 200, 'string']);
    }
    const fields = 'a: subject b: certificateText c: expiration d: subject e: certificateText expired';
    // Pages of 10: certificate texts count at their bound (docs/security.md, "Response size").
    let after: string | null = null;
    let seen = 0;
    for (let page = 1; page <= Math.ceil(created.length / 10); page += 1) {
      const gql = await api(t, ROOT_TOKEN).graphql(
        `query($after: String) { project(id: "${p.id}") { pagesDomains(first: 10, after: $after) { nodes { domain certificate { ${fields} } } pageInfo { endCursor } } } }`,
        { after },
      );
      expect([gql.status, gql.body.errors]).toEqual([200, undefined]);
      seen += gql.body.data.project.pagesDomains.nodes.length;
      after = gql.body.data.project.pagesDomains.pageInfo.endCursor;
    }
    expect(seen).toBe(created.length);
    const admin = await api(t, ROOT_TOKEN).graphql(
      '{ pagesDomains(first: 20) { nodes { domain certificate { subject certificateText expiration } } } }',
    );
    expect([admin.status, admin.body.errors]).toEqual([200, undefined]);
    expect(recorded).toEqual([]);
    expect((await api(t).get('/-/liveness')).status).toBe(200);
  });
});

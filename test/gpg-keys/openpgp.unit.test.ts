import { hasArmorFormat, dearmor } from '../../src/modules/gpg-keys/openpgp-armor';
import { readPackets, readPublicKey } from '../../src/modules/gpg-keys/openpgp-key';
import { ALICE, BOB, CAROL, crc24 } from '../support/gpg-keys';

/** The OpenPGP reader behind GPG keys: what gpg would import from a key, refused in linear time when hostile. */

// The test's own armor writer (the bitwise CRC-24 of test/support, independent of the table-driven one in src/).
function armor(data: Uint8Array, opts: { crc?: boolean; headers?: string[] } = {}): string {
  const b64 = Buffer.from(data).toString('base64');
  const lines = b64.match(/.{1,64}/g) ?? [];
  const crc = Buffer.from([crc24(data) >> 16, (crc24(data) >> 8) & 0xff, crc24(data) & 0xff]).toString('base64');
  return [
    '-----BEGIN PGP PUBLIC KEY BLOCK-----',
    ...(opts.headers ?? []),
    '',
    ...lines,
    ...(opts.crc === false ? [] : [`=${crc}`]),
    '-----END PGP PUBLIC KEY BLOCK-----',
  ].join('\n');
}
const binary = (key: string) => {
  const b64 = key
    .split('\n')
    .filter((l) => /^[A-Za-z0-9+/]+=*$/.test(l))
    .join('');
  return Buffer.from(b64, 'base64');
};

// The test's own old-format packet splitter (gpg exports old-format headers with 1/2/4-octet lengths).
function oldPackets(data: Buffer): { tag: number; body: Buffer }[] {
  const out: { tag: number; body: Buffer }[] = [];
  for (let pos = 0; pos < data.length;) {
    const first = data[pos];
    expect(first & 0xc0).toBe(0x80);
    const n = [1, 2, 4][first & 3];
    const len = data.readUIntBE(pos + 1, n);
    out.push({ tag: (first >> 2) & 0x0f, body: data.subarray(pos + 1 + n, pos + 1 + n + len) });
    pos += 1 + n + len;
  }
  return out;
}
// New-format headers (RFC 4880 §4.2.2): one-, two- or five-octet lengths.
function newFormat(packets: { tag: number; body: Buffer }[], five = false): Buffer {
  return Buffer.concat(
    packets.flatMap(({ tag, body }) => {
      const len = body.length;
      let header: number[];
      if (five) header = [0xff, len >>> 24, (len >> 16) & 0xff, (len >> 8) & 0xff, len & 0xff];
      else if (len < 192) header = [len];
      else header = [((len - 192) >> 8) + 192, (len - 192) & 0xff];
      return [Buffer.from([0xc0 | tag, ...header]), body];
    }),
  );
}
const oldPacket = (tag: number, body: Buffer) =>
  Buffer.concat([Buffer.from([0x80 | (tag << 2) | 1, body.length >> 8, body.length & 0xff]), body]);

describe('readPublicKey', () => {
  it.each([
    ['RSA', ALICE],
    ['Ed25519', BOB],
    ['NIST P-256', CAROL],
  ])('reads the fingerprint and key id gpg printed (%s)', (_name, k) => {
    expect(readPublicKey(k.key)).toEqual({ fingerprint: k.fingerprint, keyId: k.keyId });
  });

  it('takes armor headers, CRLF line ends, trailing blanks, and no CRC line (gpg imports those)', () => {
    const data = binary(BOB.key);
    expect(
      readPublicKey(armor(data, { headers: ['Version: GnuPG v2', 'Comment: https://example.com/key'] }))?.fingerprint,
    ).toBe(BOB.fingerprint);
    expect(readPublicKey(BOB.key.replace(/\n/g, '  \r\n'))?.fingerprint).toBe(BOB.fingerprint);
    expect(readPublicKey(armor(data, { crc: false }))?.fingerprint).toBe(BOB.fingerprint);
  });

  it('reads new-format packet headers (one-, two- and five-octet lengths) as the old ones', () => {
    for (const k of [ALICE, BOB]) {
      const packets = oldPackets(binary(k.key));
      expect(readPublicKey(armor(newFormat(packets)))?.fingerprint).toBe(k.fingerprint);
      expect(readPublicKey(armor(newFormat(packets, true)))?.fingerprint).toBe(k.fingerprint);
    }
  });

  it('keeps the first key of a block holding two (GitLab takes the first gpg imports)', () => {
    expect(readPublicKey(armor(Buffer.concat([binary(CAROL.key), binary(ALICE.key)])))?.fingerprint).toBe(
      CAROL.fingerprint,
    );
  });

  it('refuses a wrong CRC, bad base64, a truncated packet, and text around the armor', () => {
    const data = binary(BOB.key);
    const good = armor(data);
    const crcLine = good.split('\n').find((l) => l.startsWith('='))!;
    const flipped = `=${Buffer.from((crc24(data) ^ 1).toString(16).padStart(6, '0'), 'hex').toString('base64')}`;
    expect(readPublicKey(good.replace(crcLine, flipped))).toBeNull();
    expect(readPublicKey(good.replace(crcLine, '=AAA'))).toBeNull();
    expect(readPublicKey(good.replace(/\n([A-Za-z0-9+/]{10})/, '\n$1*'))).toBeNull();
    expect(readPublicKey(armor(data.subarray(0, data.length - 7)))).toBeNull();
    expect(readPublicKey(armor(data.subarray(0, 20)))).toBeNull();
    expect(readPublicKey(`${good}\ntrailing`)).toBeNull();
    expect(readPublicKey(good.replace('\n\n', '\nnot a header\n\n'))).toBeNull();
  });

  it('refuses what gpg would not import: no user id, an unsigned user id, v3, unknown algorithm, stray packets', () => {
    const packets = oldPackets(binary(BOB.key)); // key, user id, signature, subkey, signature
    expect(packets.map((p) => p.tag)).toEqual([6, 13, 2, 14, 2]);
    const [key, uid, sig, sub, subSig] = packets.map((p) => oldPacket(p.tag, p.body));
    expect(readPublicKey(armor(Buffer.concat([key, uid, sig, sub, subSig])))?.fingerprint).toBe(BOB.fingerprint);
    expect(readPublicKey(armor(Buffer.concat([key])))).toBeNull();
    expect(readPublicKey(armor(Buffer.concat([key, uid])))).toBeNull();
    expect(readPublicKey(armor(Buffer.concat([key, uid, sub, subSig])))).toBeNull();
    expect(readPublicKey(armor(Buffer.concat([uid, sig, key])))).toBeNull();
    const v3 = Buffer.from(packets[0].body);
    v3[0] = 3;
    expect(readPublicKey(armor(Buffer.concat([oldPacket(6, v3), uid, sig])))).toBeNull();
    const unknownAlgorithm = Buffer.from(packets[0].body);
    unknownAlgorithm[5] = 99;
    expect(readPublicKey(armor(Buffer.concat([oldPacket(6, unknownAlgorithm), uid, sig])))).toBeNull();
    // A literal data packet (tag 11) has no place in a key block.
    expect(readPublicKey(armor(Buffer.concat([key, uid, sig, oldPacket(11, Buffer.from('hello'))])))).toBeNull();
    // The key's fields must fill its packet exactly.
    expect(
      readPublicKey(armor(Buffer.concat([oldPacket(6, Buffer.concat([packets[0].body, Buffer.from([0])])), uid, sig]))),
    ).toBeNull();
  });

  it('refuses partial body lengths and lengths past the end without reading further', () => {
    expect(readPackets(Buffer.from([0xc6, 0xe1, 1, 2]))).toBeNull(); // partial length (2 octets)
    expect(readPackets(Buffer.from([0xc6, 0xff, 0xff, 0xff, 0xff, 0xff, 1]))).toBeNull(); // 4 GB claimed
    expect(readPackets(Buffer.from([0x99, 0x01]))).toBeNull(); // two-octet length cut
    expect(readPackets(Buffer.from([0x18, 0x00]))).toBeNull(); // bit 7 clear
    expect(readPackets(Buffer.from([0x9b, 1, 2, 3]))?.map((p) => p.body.length)).toEqual([3]); // indeterminate: to the end
  });

  it('stops at the packet limit: a megabyte of empty packets is refused', () => {
    const many = Buffer.alloc(1_000_000);
    for (let i = 0; i < many.length; i += 2) many[i] = 0xc2; // new-format signature packets of length 0
    expect(readPackets(many)).toBeNull();
    expect(readPublicKey(armor(many))).toBeNull();
  });

  it('handles random bytes without throwing', () => {
    let seed = 42;
    const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) & 0xff;
    for (let n = 0; n < 300; n++) {
      const data = Buffer.from(Array.from({ length: 1 + (n % 97) }, rnd));
      expect(() => readPublicKey(armor(data))).not.toThrow();
    }
  });
});

describe('GitLab 10.3 key format (hasArmorFormat)', () => {
  const B = '-----BEGIN PGP PUBLIC KEY BLOCK-----';
  const E = '-----END PGP PUBLIC KEY BLOCK-----';
  it.each([
    [`${B}x${E}`, true],
    [`${B}\n\nabc\n${E}`, true],
    [`${B}${E}`, false],
    [`${B}\nabc\n${E}\n${B}\nabc\n${E}`, false],
    [`${B}\n${B}\nabc\n${E}`, false],
    [`x${B}abc${E}`, false],
    [`${B}abc${E}x`, false],
    ['-----BEGIN PGP PRIVATE KEY BLOCK-----\nabc\n-----END PGP PRIVATE KEY BLOCK-----', false],
  ])('%j → %s', (key, ok) => {
    expect(hasArmorFormat(key)).toBe(ok);
  });
  it('dearmors nothing from a block without data', () => {
    expect(dearmor(`${B}\n\n${E}`)).toBeNull();
  });
});

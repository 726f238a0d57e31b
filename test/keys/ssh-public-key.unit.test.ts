import { parseSshPublicKey } from '../../src/modules/keys/ssh-public-key';
import { normalizeKey } from '../../src/modules/keys/key.service';
import { SSH_KEYS } from '../support/ssh-keys';

const blobOf = (k: string) => Buffer.from(k.split(' ')[1], 'base64');
const str = (b: Buffer | string) => {
  const data = typeof b === 'string' ? Buffer.from(b) : b;
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  return Buffer.concat([len, data]);
};
const text = (type: string, ...parts: Buffer[]) => `${type} ${Buffer.concat(parts).toString('base64')}`;

describe('parseSshPublicKey (Gitlab::SSHPublicKey over net-ssh 4.1)', () => {
  it.each(Object.entries(SSH_KEYS))(
    'reads %s: type, bits and the MD5 and SHA256 fingerprints ssh-keygen prints',
    (name, k) => {
      const type = name.startsWith('rsa')
        ? 'rsa'
        : name === 'dsa'
          ? 'dsa'
          : name.startsWith('ec') && !name.startsWith('ed')
            ? 'ecdsa'
            : 'ed25519';
      expect(parseSshPublicKey(k.key)).toEqual({
        type,
        bits: k.bits,
        fingerprint: k.fingerprint,
        fingerprintSha256: k.sha256.replace(/^SHA256:/, ''),
      });
    },
  );

  it('skips fields before the type (options) and ignores the comment; the blob decides the type', () => {
    const [type, blob] = SSH_KEYS.rsa2048.key.split(' ');
    expect(parseSshPublicKey(`command="ls" ${type} ${blob}`)?.fingerprint).toBe(SSH_KEYS.rsa2048.fingerprint);
    expect(parseSshPublicKey(`${type} ${blob} a comment with spaces`)?.fingerprint).toBe(SSH_KEYS.rsa2048.fingerprint);
    expect(parseSshPublicKey(`ssh-ed25519 ${blob}`)).toMatchObject({ type: 'rsa', bits: 2048 });
  });

  it('finds no key in text without a blob, bad base64, truncated blobs, or unknown types', () => {
    for (const bad of [
      '',
      'ssh-rsa',
      'ssh-rsa an-invalid-key==',
      'ssh-foo AAAA',
      `ssh-rsa ${blobOf(SSH_KEYS.rsa2048.key).subarray(0, 200).toString('base64')}`,
    ]) {
      expect(parseSshPublicKey(bad)).toBeNull();
    }
    expect(parseSshPublicKey(text('ssh-rsa', str('ssh-foo'), str('x')))).toBeNull();
    expect(
      parseSshPublicKey(text('ssh-rsa-cert-v01@openssh.com', str('ssh-rsa-cert-v01@openssh.com'), str('nonce'))),
    ).toBeNull();
  });

  it('checks ED25519 length, ECDSA curve names and points', () => {
    expect(parseSshPublicKey(text('ssh-ed25519', str('ssh-ed25519'), str(Buffer.alloc(31, 1))))).toBeNull();
    const ec = blobOf(SSH_KEYS.ec256.key);
    const point = ec.subarray(ec.length - 65);
    expect(
      parseSshPublicKey(text('ecdsa-sha2-nistp256', str('ecdsa-sha2-nistp256'), str('nistp384'), str(point))),
    ).toBeNull();
    expect(
      parseSshPublicKey(
        text(
          'ecdsa-sha2-nistp256',
          str('ecdsa-sha2-nistp256'),
          str('nistp256'),
          str(Buffer.concat([point.subarray(0, 64), Buffer.from([point[64] ^ 1])])),
        ),
      ),
    ).toBeNull();
    expect(
      parseSshPublicKey(text('ecdsa-sha2-nistp192', str('ecdsa-sha2-nistp192'), str('nistp192'), str(point))),
    ).toBeNull();
  });

  it('fingerprints the canonical encoding (an mpint with extra leading zeros is the same key)', () => {
    const e = Buffer.from([1, 0, 1]);
    const n = Buffer.concat([Buffer.from([0]), Buffer.alloc(128, 0xab)]);
    const canonical = parseSshPublicKey(text('ssh-rsa', str('ssh-rsa'), str(e), str(n)));
    const padded = parseSshPublicKey(
      text(
        'ssh-rsa',
        str('ssh-rsa'),
        str(Buffer.concat([Buffer.alloc(2), e])),
        str(Buffer.concat([Buffer.alloc(3), n])),
      ),
    );
    expect(canonical).toEqual({
      type: 'rsa',
      bits: 1024,
      fingerprint: expect.stringMatching(/^([0-9a-f]{2}:){15}[0-9a-f]{2}$/),
      fingerprintSha256: expect.stringMatching(/^[A-Za-z0-9+/]{43}$/),
    });
    expect(padded).toEqual(canonical);
  });
});

describe("normalizeKey (GitLab's Key#key=)", () => {
  it('deletes CR and LF anywhere, then strips; blank stays as sent', () => {
    expect(normalizeKey(' \tssh-rsa AA\r\nAA c\n ')).toBe('ssh-rsa AAAA c');
    expect(normalizeKey('   ')).toBe('   ');
  });
});

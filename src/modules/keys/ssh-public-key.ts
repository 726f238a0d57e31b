import { createHash, ECDH } from 'node:crypto';

/**
 * An OpenSSH public key as GitLab 10.3 reads it (lib/gitlab/ssh_public_key.rb over net-ssh 4.1's
 * KeyFactory.load_data_public_key): the first space-separated field naming a key type locates the
 * key, the next field is its base64 blob, and the blob's own type string decides what it is. Options
 * before it and a comment after it are ignored; bytes after the key inside the blob too.
 */
export type SshKeyType = 'rsa' | 'dsa' | 'ecdsa' | 'ed25519';

export interface SshPublicKey {
  type: SshKeyType;
  /** GitLab's Gitlab::SSHPublicKey#bits: RSA modulus, DSA p, the curve order, 256 for ED25519. */
  bits: number;
  /** net-ssh's `fingerprint`: MD5 of the re-encoded blob, colon-separated hex (GitLab 10.3's `keys.fingerprint`). */
  fingerprint: string;
  /** Later GitLab's `fingerprint_sha256`: SHA-256 of the same blob, base64 without padding (OpenSSH's `SHA256:` form). */
  fingerprintSha256: string;
}

const TYPE_FIELD = /^(ssh-(rsa|dss|ed25519)|ecdsa-sha2-nistp\d+)(-cert-v01@openssh\.com)?$/;
/** net-ssh's OpenSSL::PKey::EC::CurveNameAlias: the three curves OpenSSH uses. */
const CURVES: Record<string, { openssl: string; bits: number }> = {
  nistp256: { openssl: 'prime256v1', bits: 256 },
  nistp384: { openssl: 'secp384r1', bits: 384 },
  nistp521: { openssl: 'secp521r1', bits: 521 },
};

class Truncated extends Error {}

/** Net::SSH::Buffer, strict: a length running past the end is no key (net-ssh then fails later with a 500). */
class Reader {
  private pos = 0;
  constructor(private readonly buf: Buffer) {}
  bytes(): Buffer {
    if (this.pos + 4 > this.buf.length) throw new Truncated();
    const n = this.buf.readUInt32BE(this.pos);
    if (this.pos + 4 + n > this.buf.length) throw new Truncated();
    const out = this.buf.subarray(this.pos + 4, this.pos + 4 + n);
    this.pos += 4 + n;
    return out;
  }
  string(): string {
    return this.bytes().toString('latin1');
  }
}

/** OpenSSL::BN.new(data, 2): the bytes as an unsigned big-endian number, leading zeros dropped. */
const unsigned = (b: Buffer): Buffer => {
  let i = 0;
  while (i < b.length && b[i] === 0) i++;
  return b.subarray(i);
};

const numBits = (b: Buffer): number => {
  const n = unsigned(b);
  return n.length === 0 ? 0 : (n.length - 1) * 8 + (32 - Math.clz32(n[0]));
};

const sshString = (b: Buffer): Buffer => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(b.length);
  return Buffer.concat([len, b]);
};

/** OpenSSL::BN#to_ssh: the canonical mpint (a zero byte before a set high bit). */
const mpint = (b: Buffer): Buffer => {
  const n = unsigned(b);
  return sshString(n.length > 0 && n[0] & 0x80 ? Buffer.concat([Buffer.from([0]), n]) : n);
};

const md5Colons = (blob: Buffer): string =>
  createHash('md5')
    .update(blob)
    .digest('hex')
    .replace(/(..)(?=.)/g, '$1:');
const fingerprints = (blob: Buffer) => ({
  fingerprint: md5Colons(blob),
  fingerprintSha256: createHash('sha256').update(blob).digest('base64').replace(/=+$/, ''),
});

function readKey(blob: Buffer): SshPublicKey | null {
  const r = new Reader(blob);
  const type = r.string();
  const str = (s: string) => sshString(Buffer.from(s, 'latin1'));
  if (type === 'ssh-rsa') {
    const [e, n] = [r.bytes(), r.bytes()];
    return { type: 'rsa', bits: numBits(n), ...fingerprints(Buffer.concat([str(type), mpint(e), mpint(n)])) };
  }
  if (type === 'ssh-dss') {
    const [p, q, g, y] = [r.bytes(), r.bytes(), r.bytes(), r.bytes()];
    return {
      type: 'dsa',
      bits: numBits(p),
      ...fingerprints(Buffer.concat([str(type), mpint(p), mpint(q), mpint(g), mpint(y)])),
    };
  }
  if (type === 'ssh-ed25519') {
    const pub = r.bytes();
    if (pub.length !== 32) return null; // RbNaCl::VerifyKey refuses any other length
    return { type: 'ed25519', bits: 256, ...fingerprints(Buffer.concat([str(type), sshString(pub)])) };
  }
  const ec = /^ecdsa-sha2-(\w*)$/.exec(type);
  if (ec) {
    const curve = CURVES[ec[1]];
    if (!curve || r.string() !== ec[1]) return null; // unknown curve, or the blob names another one
    let point: Buffer;
    try {
      // Checks the point is on the curve (OpenSSL::PKey::EC::Point.new); to_blob writes it uncompressed.
      point = ECDH.convertKey(unsigned(r.bytes()), curve.openssl, undefined, undefined, 'uncompressed') as Buffer;
    } catch (e) {
      if (e instanceof Truncated) throw e;
      return null;
    }
    return {
      type: 'ecdsa',
      bits: curve.bits,
      ...fingerprints(Buffer.concat([str(type), str(ec[1]), sshString(point)])),
    };
  }
  // Certificates (GitLab 10.3 fails on them with a 500) and unknown types are no key.
  return null;
}

/** The key in `text`, or null when GitLab 10.3 would find none (its `valid?` false). */
export function parseSshPublicKey(text: string): SshPublicKey | null {
  const fields = text.split(' ');
  const at = fields.findIndex((f) => TYPE_FIELD.test(f));
  const encoded = at < 0 ? undefined : fields[at + 1];
  if (encoded === undefined) return null;
  try {
    return readKey(Buffer.from(encoded, 'base64'));
  } catch (e) {
    if (e instanceof Truncated) return null;
    throw e;
  }
}

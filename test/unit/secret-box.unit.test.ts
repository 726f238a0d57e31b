import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadOrCreateKeyFile, parseSecretsKey, secretBox } from '../../src/core/crypto/secret-box';

describe('secret box (secrets at rest)', () => {
  const box = secretBox(Buffer.alloc(32, 1));

  it('round-trips, and never stores the plain text', () => {
    const sealed = box.seal('glrt-secret-token');
    expect(sealed).toMatch(/^v1:/);
    expect(sealed).not.toContain('glrt-secret-token');
    expect(box.open(sealed)).toBe('glrt-secret-token');
    expect(box.seal('same')).not.toBe(box.seal('same')); // random IV per value
  });

  it('refuses values sealed with another key or altered', () => {
    const other = secretBox(Buffer.alloc(32, 2));
    const sealed = box.seal('x');
    expect(() => other.open(sealed)).toThrow();
    const parts = sealed.split(':');
    parts[3] = Buffer.from('y').toString('base64url');
    expect(() => box.open(parts.join(':'))).toThrow();
    expect(() => box.open('plain')).toThrow('not a sealed secret');
  });

  it('digests are stable per key and differ between keys', () => {
    expect(box.digest('t')).toBe(box.digest('t'));
    expect(box.digest('t')).not.toBe(secretBox(Buffer.alloc(32, 2)).digest('t'));
  });

  it('parses SECRETS_KEY as hex or base64 and rejects other lengths', () => {
    expect(parseSecretsKey('ab'.repeat(32))).toHaveLength(32);
    expect(parseSecretsKey(Buffer.alloc(32, 3).toString('base64'))).toHaveLength(32);
    expect(() => parseSecretsKey('short')).toThrow('SECRETS_KEY must be 32 bytes');
  });

  it('generates the key file once (mode 0600) and reads the same key afterwards', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'secrets-'));
    try {
      const first = loadOrCreateKeyFile(dir);
      expect(loadOrCreateKeyFile(dir).equals(first)).toBe(true);
      expect(fs.statSync(path.join(dir, 'secrets.key')).mode & 0o777).toBe(0o600);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

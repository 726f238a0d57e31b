import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { adoptRotatedKey, loadOrCreateKeyFile, parseSecretsKey, secretBox } from '../../src/core/crypto/secret-box';

describe('secret box (secrets at rest)', () => {
  const box = secretBox(Buffer.alloc(32, 1));

  const slot = { table: 'ci_runners', column: 'token', row: 7 };

  it('round-trips, and never stores the plain text', () => {
    const sealed = box.seal('glrt-secret-token', slot);
    expect(sealed).toMatch(/^v2:/);
    expect(sealed).not.toContain('glrt-secret-token');
    expect(box.open(sealed, slot)).toBe('glrt-secret-token');
    expect(box.seal('same', slot)).not.toBe(box.seal('same', slot)); // random IV per value
  });

  it('refuses values sealed with another key or altered', () => {
    const other = secretBox(Buffer.alloc(32, 2));
    const sealed = box.seal('x', slot);
    expect(() => other.open(sealed, slot)).toThrow();
    const parts = sealed.split(':');
    // One bit of the ciphertext flipped (a fixed replacement equals the random original one time in 256).
    const altered = Buffer.from(parts[3], 'base64url');
    altered[0] ^= 1;
    parts[3] = altered.toString('base64url');
    expect(() => box.open(parts.join(':'), slot)).toThrow();
    expect(() => box.open('plain', slot)).toThrow('not a sealed secret');
    expect(() => box.open(`${sealed}:extra`, slot)).toThrow('not a sealed secret');
  });

  it('binds a v2 value to its table, column and row: copied elsewhere it does not open', () => {
    const sealed = box.seal('secret', slot);
    expect(box.open(sealed, slot)).toBe('secret'); // now cached for this slot
    for (const elsewhere of [
      { ...slot, row: 8 },
      { ...slot, row: '7x' },
      { ...slot, column: 'token_digest' },
      { ...slot, table: 'projects' },
    ]) {
      expect(() => box.open(sealed, elsewhere)).toThrow('does not open in this slot');
    }
    // A row key that only looks like the slot's ("7" and 7 are the same row).
    expect(box.open(sealed, { ...slot, row: '7' })).toBe('secret');
    // The version prefix cannot be swapped to skip the check.
    expect(() => box.open(sealed.replace(/^v2:/, 'v1:'), slot)).toThrow();
  });

  it('still opens v1 values (no associated data) in any slot', () => {
    const legacy = box.seal('old-token');
    expect(legacy).toMatch(/^v1:/);
    expect(box.open(legacy, slot)).toBe('old-token');
    expect(box.open(legacy, { table: 'projects', column: 'runners_token', row: 1 })).toBe('old-token');
    expect([box.isBound(legacy), box.isBound(box.seal('x', slot))]).toEqual([false, true]);
  });

  it('openOrNull: null and one report (slot and reason, never the value) for an unreadable value', () => {
    const reports: unknown[] = [];
    const reporting = secretBox(Buffer.alloc(32, 1), { onUnreadable: (e) => reports.push(e) });
    const sealed = reporting.seal('hidden-value', slot);
    expect(reporting.openOrNull(sealed, slot)).toBe('hidden-value');
    expect(reporting.openOrNull(sealed, { ...slot, row: 9 })).toBeNull();
    expect(reports).toEqual([
      {
        table: 'ci_runners',
        column: 'token',
        row: 9,
        reason: 'the sealed value does not open in this slot or with this key',
      },
    ]);
    expect(JSON.stringify(reports)).not.toContain('hidden-value');
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

describe('adoptRotatedKey (npm run secrets:rotate and DATA_DIR/secrets.key)', () => {
  it('replaces a key file holding another key, leaves one holding the new key, and creates none', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rotated-key-'));
    try {
      const newKey = crypto.randomBytes(32);
      expect(adoptRotatedKey(dir, newKey)).toBe('no file');
      expect(fs.existsSync(path.join(dir, 'secrets.key'))).toBe(false);
      const oldKey = loadOrCreateKeyFile(dir);
      expect(oldKey.equals(newKey)).toBe(false);
      expect(adoptRotatedKey(dir, newKey)).toBe('replaced');
      expect(loadOrCreateKeyFile(dir).equals(newKey)).toBe(true);
      expect(fs.statSync(path.join(dir, 'secrets.key')).mode & 0o777).toBe(0o600);
      expect(fs.readdirSync(dir)).toEqual(['secrets.key']);
      expect(adoptRotatedKey(dir, newKey)).toBe('unchanged');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

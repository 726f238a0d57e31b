import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import { Counter } from 'prom-client';
import { createLogger } from '../logger';

/**
 * Secrets at rest (runner tokens, registration tokens, application-setting keys, pages private keys):
 * AES-256-GCM with a key from configuration, so that a database dump alone does not reveal them.
 * Lookups never decrypt: they use `digest()`.
 *
 * Stored forms (base64url parts):
 * - `v2:<iv>:<tag>:<ciphertext>`: sealed for one slot (table, column, row) given as AES-GCM
 *   associated data, so a value copied to another row or column does not open.
 * - `v1:<iv>:<tag>:<ciphertext>`: the earlier form, bound to nothing. Still opened in any slot, so
 *   existing rows keep working; a value is re-sealed as v2 when it is written again (a pages key on
 *   update, the settings row on its first read, every value by `npm run secrets:rotate`), and
 *   `isBound` tells the two apart.
 *
 * Keys: one current key seals and digests; `previous` keys (SECRETS_KEY_PREVIOUS, during a rotation)
 * only open, and lookups by digest accept their digests too (`digests`). docs/operations.md#secrets-key-rotation
 * gives the rotation steps; `key-check.ts` makes sure every instance has the same key.
 */
export interface SecretSlot {
  table: string;
  column: string;
  /** The row's id, or a natural key that is fixed before the row exists and never changes. */
  row: string | number;
}

/** What `openOrNull` reports when a stored value does not open (never the value itself). */
export interface UnreadableSecret extends SecretSlot {
  reason: string;
}

export interface SecretBox {
  /**
   * Seals for `slot` (v2). Without a slot the unbound v1 form is written: only for fixtures and tools
   * that write rows outside the service; service code always names the slot
   * (test/security/sealed-slots.test.ts checks src/).
   */
  seal(plain: string, slot?: SecretSlot): string;
  /** The plain text, or a thrown Error when the value was sealed with another key or for another slot, or altered. */
  open(sealed: string, slot: SecretSlot): string;
  /**
   * Like `open`, but an unreadable value gives null and one warning through the box's `onUnreadable`:
   * reads degrade to that one field being absent instead of failing a whole list.
   */
  openOrNull(sealed: string, slot: SecretSlot): string | null;
  /** True for the v2 form (bound to its slot); false for v1 and for anything else. */
  isBound(sealed: string): boolean;
  /** Keyed SHA-256 (HMAC) for indexed equality lookups of secrets such as tokens (current key). */
  digest(plain: string): string;
  /**
   * The digests of `plain` under the current key and then each previous key: what a lookup compares
   * with (`= any(?)`) so that rows not yet re-sealed by a rotation are still found.
   */
  digests(plain: string): string[];
  /** The key checks of the current key and then each previous key (key-check.ts). */
  keyChecks(): string[];
}

export interface SecretBoxOptions {
  /**
   * Where unreadable values are reported (the service logs a warning and counts it); default: nothing.
   * Called once per slot and sealed text per process, not on every read of it.
   */
  onUnreadable?: (event: UnreadableSecret) => void;
  /** Keys that still open (and find by digest) what they sealed: SECRETS_KEY_PREVIOUS during a rotation. */
  previous?: Buffer[];
}

/** What a key check is computed over (HMAC with the key): a fixed label, so it reveals nothing of the key. */
const KEY_CHECK_LABEL = 'gitlab-admin secrets key check v1';

interface DerivedKeys {
  enc: Buffer;
  mac: Buffer;
  check: string;
}

function derive(key: Buffer): DerivedKeys {
  if (key.length !== KEY_BYTES) throw new Error(`the secrets key must be ${KEY_BYTES} bytes`);
  return {
    enc: crypto.createHmac('sha256', key).update('encrypt').digest(),
    mac: crypto.createHmac('sha256', key).update('digest').digest(),
    check: crypto.createHmac('sha256', key).update(KEY_CHECK_LABEL).digest('hex'),
  };
}

const KEY_BYTES = 32;
/** Opened values kept per process (bounded; oldest dropped first). */
const OPENED_MAX = 10_000;

/** The associated data of a slot: unambiguous whatever characters the row key holds. */
const slotData = (slot: SecretSlot) => JSON.stringify([slot.table, slot.column, String(slot.row)]);

export function secretBox(key: Buffer, options: SecretBoxOptions = {}): SecretBox {
  const keys = [derive(key), ...(options.previous ?? []).map(derive)];
  const encKey = keys[0].enc;
  const macKey = keys[0].mac;
  const hmac = (mac: Buffer, plain: string) => crypto.createHmac('sha256', mac).update(plain, 'utf8').digest('hex');
  /** Slots and texts already reported as unreadable (bounded like `opened`). */
  const reported = new Set<string>();
  // A list of 100 projects shows 100 runners tokens: each sealed text is opened once per process,
  // not once per row and request. The process holds the key anyway, so the cache adds no
  // exposure; a sealed text never changes meaning (a new value is a new random IV). A v2 text opens
  // only in its slot, so the slot is part of the cache key: a copied value misses and fails.
  const opened = new Map<string, string>();
  const box: SecretBox = {
    seal(plain, slot) {
      const iv = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv('aes-256-gcm', encKey, iv);
      if (slot) cipher.setAAD(Buffer.from(slotData(slot), 'utf8'));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [
        slot ? 'v2' : 'v1',
        iv.toString('base64url'),
        cipher.getAuthTag().toString('base64url'),
        body.toString('base64url'),
      ].join(':');
    },
    open(sealed, slot) {
      const aad = sealed.startsWith('v2:') ? slotData(slot) : null;
      const cacheKey = aad === null ? sealed : `${aad}\n${sealed}`;
      const hit = opened.get(cacheKey);
      if (hit !== undefined) return hit;
      const plain = openUncached(sealed, aad);
      if (opened.size >= OPENED_MAX) opened.delete(opened.keys().next().value!);
      opened.set(cacheKey, plain);
      return plain;
    },
    openOrNull(sealed, slot) {
      try {
        return box.open(sealed, slot);
      } catch (e) {
        // Known failure: a foreign key, another slot or altered text. Reported without the value,
        // once per process for this slot and text (a list shows the row on every request).
        const seen = `${slotData(slot)}\n${sealed}`;
        if (!reported.has(seen)) {
          if (reported.size >= OPENED_MAX) reported.delete(reported.values().next().value!);
          reported.add(seen);
          options.onUnreadable?.({ ...slot, reason: (e as Error).message });
        }
        return null;
      }
    },
    isBound: (sealed) => sealed.startsWith('v2:'),
    digest: (plain) => hmac(macKey, plain),
    digests: (plain) => keys.map((k) => hmac(k.mac, plain)),
    keyChecks: () => keys.map((k) => k.check),
  };
  return box;

  /** Tries the current key, then each previous one (only during a rotation is there more than one). */
  function openUncached(sealed: string, aad: string | null): string {
    const [version, iv, tag, body, extra] = sealed.split(':');
    if ((version !== 'v1' && version !== 'v2') || !iv || !tag || body === undefined || extra !== undefined)
      throw new Error('not a sealed secret');
    for (const k of keys) {
      const decipher = crypto.createDecipheriv('aes-256-gcm', k.enc, Buffer.from(iv, 'base64url'));
      if (aad !== null) decipher.setAAD(Buffer.from(aad, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      try {
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        // next key
      }
    }
    throw new Error(
      aad === null
        ? 'the sealed value does not open with this key'
        : 'the sealed value does not open in this slot or with this key',
    );
  }
}

/** Parses SECRETS_KEY (64 hex characters or base64 of 32 bytes). */
export function parseSecretsKey(raw: string): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
  if (key.length !== KEY_BYTES) throw new Error('SECRETS_KEY must be 32 bytes: 64 hex characters or base64');
  return key;
}

/**
 * The key for the embedded default: DATA_DIR/secrets.key, generated (mode 0600) on first start and
 * kept with the data, so restarts can open what earlier runs sealed.
 */
export function loadOrCreateKeyFile(dataDir: string): Buffer {
  const file = path.join(dataDir, 'secrets.key');
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, crypto.randomBytes(KEY_BYTES).toString('hex'), { mode: 0o600, flag: 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  return parseSecretsKey(fs.readFileSync(file, 'utf8').trim());
}

/**
 * After a complete rotation to `key` (`npm run secrets:rotate`): a DATA_DIR/secrets.key that holds
 * another key is replaced by `key` (written aside, then renamed over it, mode 0600), so an instance
 * started without SECRETS_KEY reads the key the database is now sealed with. The old key is not kept.
 * Answers what happened: no file (nothing to do), unchanged (it already held `key`), or replaced.
 */
export function adoptRotatedKey(dataDir: string, key: Buffer): 'no file' | 'unchanged' | 'replaced' {
  const file = path.join(dataDir, 'secrets.key');
  let current: Buffer;
  try {
    current = parseSecretsKey(fs.readFileSync(file, 'utf8').trim());
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 'no file';
    throw e;
  }
  if (current.equals(key)) return 'unchanged';
  const aside = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(aside, key.toString('hex'), { mode: 0o600 });
  fs.renameSync(aside, file);
  return 'replaced';
}

/**
 * The service's secret box: SECRETS_KEY when configured, else the key file under DATA_DIR. Unreadable
 * values are logged as warnings (table, column, row, reason; never a value) on `logger`, by default a
 * logger of the configured level on stdout.
 */
export function secretsFrom(
  config: { secretsKey: Buffer | undefined; secretsKeyPrevious?: Buffer[]; dataDir: string; logLevel?: string },
  logger?: Logger,
): SecretBox {
  const log = logger ?? createLogger(config.logLevel ?? 'info');
  return secretBox(config.secretsKey ?? loadOrCreateKeyFile(config.dataDir), {
    previous: config.secretsKeyPrevious,
    onUnreadable: (event) => {
      secretsUnreadableTotal.inc({ table: event.table, column: event.column });
      log.warn({ secret: event }, 'a sealed value does not open; it is treated as absent');
    },
  });
}

/** Exported on /-/metrics (ops/metrics.ts): sealed values that did not open, once per value and process. */
export const secretsUnreadableTotal = new Counter({
  name: 'secrets_unreadable_total',
  help: 'Sealed values that did not open (another key, another slot or altered), counted once per value and process; each is served as absent',
  labelNames: ['table', 'column'] as const,
  registers: [],
});

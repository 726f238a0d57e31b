import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Secrets at rest (runner tokens, the instance registration token, pages private keys): AES-256-GCM
 * with a key from configuration, so that a database dump alone does not reveal them. Stored form:
 * `v1:<iv>:<tag>:<ciphertext>` (base64url parts). Lookups never decrypt: they use `digest()`.
 */
export interface SecretBox {
  seal(plain: string): string;
  /** The plain text, or a thrown Error when the value was sealed with another key or altered. */
  open(sealed: string): string;
  /** Keyed SHA-256 (HMAC) for indexed equality lookups of secrets such as tokens. */
  digest(plain: string): string;
}

const KEY_BYTES = 32;
/** Opened values kept per process (bounded; oldest dropped first). */
const OPENED_MAX = 10_000;

export function secretBox(key: Buffer): SecretBox {
  if (key.length !== KEY_BYTES) throw new Error(`the secrets key must be ${KEY_BYTES} bytes`);
  const encKey = crypto.createHmac('sha256', key).update('encrypt').digest();
  const macKey = crypto.createHmac('sha256', key).update('digest').digest();
  // A list of 100 projects shows 100 runners tokens: each sealed text is opened once per process,
  // not once per row and request (issue 8). The process holds the key anyway, so the cache adds no
  // exposure; a sealed text never changes meaning (a new value is a new random IV).
  const opened = new Map<string, string>();
  return {
    seal(plain) {
      const iv = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv('aes-256-gcm', encKey, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join(':');
    },
    open(sealed) {
      const hit = opened.get(sealed);
      if (hit !== undefined) return hit;
      const plain = openUncached(sealed);
      if (opened.size >= OPENED_MAX) opened.delete(opened.keys().next().value!);
      opened.set(sealed, plain);
      return plain;
    },
    digest(plain) {
      return crypto.createHmac('sha256', macKey).update(plain, 'utf8').digest('hex');
    },
  };

  function openUncached(sealed: string): string {
    const [version, iv, tag, body] = sealed.split(':');
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed secret');
    const decipher = crypto.createDecipheriv('aes-256-gcm', encKey, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
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

/** The service's secret box: SECRETS_KEY when configured, else the key file under DATA_DIR. */
export function secretsFrom(config: { secretsKey: Buffer | undefined; dataDir: string }): SecretBox {
  return secretBox(config.secretsKey ?? loadOrCreateKeyFile(config.dataDir));
}

import fs from 'node:fs';
import path from 'node:path';
import { parseSecretsKey, secretBox } from './secret-box';

/**
 * The secrets backup of `npm run secrets:backup` (docs/operations.md#keys): the key(s) the service
 * uses, kept apart from the data backup on purpose (as GitLab keeps gitlab-secrets.json out of its
 * backup archive), so one stolen file never holds both the sealed values and what opens them.
 * JSON, mode 0600: the current key, SECRETS_KEY_PREVIOUS if set, and the current key's check, which
 * equals the `key_check` of a data backup's manifest made with the same key.
 */
export const SECRETS_FORMAT = 'gitlab-admin-secrets';

export interface SecretsFile {
  format: typeof SECRETS_FORMAT;
  version: 1;
  created_at: string;
  /** Where the key came from: SECRETS_KEY or the key file. */
  source: string;
  /** 64 hex characters: the value for SECRETS_KEY or DATA_DIR/secrets.key. */
  secrets_key: string;
  secrets_key_previous: string[];
  key_check: string;
}

/** The key a start would use, without creating a key file: SECRETS_KEY, else DATA_DIR/secrets.key if present. */
export function configuredKey(config: { secretsKey: Buffer | undefined; dataDir: string }): Buffer | undefined {
  if (config.secretsKey) return config.secretsKey;
  try {
    return parseSecretsKey(fs.readFileSync(path.join(config.dataDir, 'secrets.key'), 'utf8').trim());
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/** The key check of `key` (secret-box.ts `keyChecks`). */
export const keyCheckOf = (key: Buffer): string => secretBox(key).keyChecks()[0];

export function writeSecretsFile(file: string, key: Buffer, previous: Buffer[], source: string): SecretsFile {
  const content: SecretsFile = {
    format: SECRETS_FORMAT,
    version: 1,
    created_at: new Date().toISOString(),
    source,
    secrets_key: key.toString('hex'),
    secrets_key_previous: previous.map((k) => k.toString('hex')),
    key_check: keyCheckOf(key),
  };
  const partial = `${file}.partial`;
  fs.writeFileSync(partial, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(partial, file);
  return content;
}

/** Reads a secrets backup; throws a plain message when it is not one or its key does not match its check. */
export function readSecretsFile(file: string): { key: Buffer; previous: Buffer[]; keyCheck: string } {
  let content: SecretsFile;
  try {
    content = JSON.parse(fs.readFileSync(file, 'utf8')) as SecretsFile;
  } catch (e) {
    throw new Error(`${file} is not readable as a secrets backup (${(e as Error).message})`);
  }
  if (content?.format !== SECRETS_FORMAT) throw new Error(`${file} is not a secrets backup of this service`);
  const key = parseSecretsKey(content.secrets_key);
  if (keyCheckOf(key) !== content.key_check)
    throw new Error(`${file} is damaged: its key does not match its key check`);
  return { key, previous: (content.secrets_key_previous ?? []).map(parseSecretsKey), keyCheck: content.key_check };
}

/**
 * Writes `key` as DATA_DIR/secrets.key (mode 0600) where there is none yet; an existing file must
 * already hold `key` (never overwritten: it may be the only copy of another key).
 */
export function installKeyFile(dataDir: string, key: Buffer): 'written' | 'unchanged' {
  const file = path.join(dataDir, 'secrets.key');
  const existing = configuredKey({ secretsKey: undefined, dataDir });
  if (existing) {
    if (existing.equals(key)) return 'unchanged';
    throw new Error(`${file} holds another key: move it away first (it may be the only copy of that key)`);
  }
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, key.toString('hex'), { mode: 0o600, flag: 'wx' });
  return 'written';
}

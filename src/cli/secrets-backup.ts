import 'reflect-metadata';
import fs from 'node:fs';
import { loadConfig } from '../config';
import { keySource } from '../core/crypto/key-check';
import { configuredKey, writeSecretsFile } from '../core/crypto/secrets-file';
import { CommandFailed, runCommand } from './command-database';

/**
 * `npm run secrets:backup -- <file>` (docs/operations.md#keys): writes the secrets key(s) the service
 * uses (SECRETS_KEY or DATA_DIR/secrets.key, and SECRETS_KEY_PREVIOUS) with the key check to `<file>`,
 * mode 0600. Keep it apart from the data backups: together they open every sealed value. Needs no
 * database. Exit 0 written, 2 wrong usage or no key yet.
 */
async function main(): Promise<void> {
  const file = process.argv[2];
  if (!file || file.startsWith('-') || process.argv.length > 3)
    throw new CommandFailed('usage: npm run secrets:backup -- <file>', 2);
  if (fs.existsSync(file)) throw new CommandFailed(`${file} exists: give a new file name`, 2);
  const config = loadConfig();
  const key = configuredKey(config);
  if (!key)
    throw new CommandFailed(
      `no secrets key yet: SECRETS_KEY is unset and ${config.dataDir}/secrets.key does not exist (the first start creates it)`,
      2,
    );
  const written = writeSecretsFile(file, key, config.secretsKeyPrevious, keySource(config));
  process.stdout.write(
    `wrote the key of ${keySource(config)}${written.secrets_key_previous.length > 0 ? ' and SECRETS_KEY_PREVIOUS' : ''} to ${file} ` +
      `(key check ${written.key_check.slice(0, 12)}…); keep it apart from the data backups\n`,
  );
}

runCommand('secrets:backup', main);

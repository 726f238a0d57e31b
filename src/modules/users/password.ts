import crypto from 'node:crypto';

/** scrypt with a random salt; format `scrypt$<salt>$<hash>` (base64url). */
export function hashPassword(password: string): string {
  const salt = crypto.randomBytes(16);
  const hash = crypto.scryptSync(password, salt, 32);
  return `scrypt$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

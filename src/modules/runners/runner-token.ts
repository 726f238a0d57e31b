import crypto from 'node:crypto';
import type { SecretSlot } from '../../core/crypto/secret-box';

/**
 * Where a runner's token is sealed: `ci_runners.token` of its own row (AES-GCM associated data), so
 * a sealed token copied to another runner does not open there. Writers reserve the id before the
 * insert (core/crypto/reserve-row-id.ts).
 */
export const runnerTokenSlot = (runnerId: number): SecretSlot => ({
  table: 'ci_runners',
  column: 'token',
  row: runnerId,
});

/** A new runner token: 30 hex characters (as registration issues them). */
export const newRunnerToken = (): string => crypto.randomBytes(15).toString('hex');

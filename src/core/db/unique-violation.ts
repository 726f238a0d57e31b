import { isUniqueViolation } from './sql';

/**
 * Runs a write; a unique-index violation (a lost race after the service's own duplicate check)
 * becomes the domain error the caller names (409 Conflict, or the same 400 as a detected duplicate),
 * never a driver 500. Any other error passes through.
 */
export async function onUniqueViolation<T>(write: () => Promise<T>, toError: (err: unknown) => Error): Promise<T> {
  try {
    return await write();
  } catch (e) {
    if (isUniqueViolation(e)) throw toError(e);
    throw e;
  }
}

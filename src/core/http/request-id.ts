import crypto from 'node:crypto';

/** A client's X-Request-Id is kept only when it is a short token of safe characters (no log or header injection). */
const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;

export function requestIdFrom(header: string | undefined): string {
  return header !== undefined && SAFE_ID.test(header) ? header : crypto.randomUUID();
}

import { ParamError } from '../errors/domain-errors';

/** Keyset cursor: the last row's sort value and id (opaque base64url JSON for clients). */
export interface Cursor {
  v: string | number;
  id: number;
}

export function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify(c), 'utf8').toString('base64url');
}

/** A cursor the client altered or invented is 400 "cursor is invalid", never a 500. */
export function decodeCursor(raw: string): Cursor {
  try {
    const c = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Cursor;
    if (typeof c.id !== 'number' || (typeof c.v !== 'string' && typeof c.v !== 'number')) throw new Error('shape');
    return c;
  } catch {
    throw ParamError.invalid('cursor');
  }
}

import { ParamError } from '../errors/domain-errors';
import { hasNulByte } from '../params/coerce';

/** Keyset cursor: the last row's sort value and id (opaque base64url JSON for clients). */
export interface Cursor {
  v: string | number;
  id: number;
}

/**
 * Numeric sort values are PostgreSQL integers; ids integers or bigints (audit events: up to 2^53 − 1;
 * against an int4 column PostgreSQL compares such an id as a bigint, so a forged one merely bounds the
 * page); sort strings are column values (at most 255 characters).
 */
const INT4_MAX = 2 ** 31 - 1;
const MAX_STRING = 1024;
const isInt4 = (n: unknown): n is number => Number.isInteger(n) && Math.abs(n as number) <= INT4_MAX;
const isSortString = (s: unknown): s is string => typeof s === 'string' && s.length <= MAX_STRING && !hasNulByte(s);

export function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify(c), 'utf8').toString('base64url');
}

/**
 * A cursor the client altered or invented is 400 "cursor is invalid", never a 500: the id must be
 * a safe integer and a numeric value fit an integer column, a string value may not carry NUL or lone surrogates
 * (PostgreSQL text cannot hold them) and is bounded.
 */
export function decodeCursor(raw: string): Cursor {
  try {
    if (raw.length > 2 * MAX_STRING) throw new Error('size');
    const c = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Cursor;
    if (!c || typeof c !== 'object' || !Number.isSafeInteger(c.id) || c.id < 0) throw new Error('id');
    if (!isInt4(c.v) && !isSortString(c.v)) throw new Error('v');
    return c;
  } catch {
    throw ParamError.invalid('cursor');
  }
}

/** The furthest position an offset cursor may name (page 1,000,000,000 of 100 rows). */
const MAX_POSITION = 100_000_000_000;

/**
 * A connection cursor (docs/graphql.md#connections-relay): a row's keyset (sort value, id), or its
 * position in the list (`o`, 0-based) where the list is cut by offset (page mode, or a list without
 * one sort column). Both are opaque to clients; a forged one is 400 "cursor is invalid".
 */
export type ConnectionCursor = { kind: 'keyset'; key: Cursor } | { kind: 'offset'; position: number };

export function encodeOffsetCursor(position: number): string {
  return Buffer.from(JSON.stringify({ o: position }), 'utf8').toString('base64url');
}

export function decodeConnectionCursor(raw: string): ConnectionCursor {
  let parsed: unknown;
  try {
    if (raw.length > 2 * MAX_STRING) throw new Error('size');
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw ParamError.invalid('cursor');
  }
  if (parsed && typeof parsed === 'object' && 'o' in parsed) {
    const o = (parsed as { o: unknown }).o;
    if (
      !Number.isSafeInteger(o) ||
      (o as number) < 0 ||
      (o as number) > MAX_POSITION ||
      Object.keys(parsed).length !== 1
    )
      throw ParamError.invalid('cursor');
    return { kind: 'offset', position: o as number };
  }
  return { kind: 'keyset', key: decodeCursor(raw) };
}

/**
 * MikroORM and knex put the statement with every parameter inlined into error messages (and pg's
 * `detail` repeats key values), which would write password hashes or token digests into logs.
 * Literal values are replaced by `?`; identifiers and keywords stay readable.
 */
export function redactSql(text: string): string {
  return text
    .replace(/(?<![A-Za-z0-9_])E'(?:[^']|'')*'|'(?:[^']|'')*'/g, '?')
    .replace(/\)=\([^)]*\)/g, ')=(?)')
    .replace(
      /([(,=<>+-]\s*|\b(?:limit|offset|between|and|then|else)\s+)-?\d+(?:\.\d+)?(?:e[+-]?\d+)?(?=$|[\s),;])/gi,
      '$1?',
    );
}

export interface SerializedError {
  type: string;
  message: string;
  code?: string;
  stack?: string;
}

/** pino `err` serializer: name, redacted message and stack, SQLSTATE or errno code; nothing else. */
export function serializeError(err: unknown): SerializedError | unknown {
  if (!(err instanceof Error)) return err;
  const code = (err as { code?: unknown }).code;
  return {
    type: err.name,
    message: redactSql(err.message),
    ...(typeof code === 'string' ? { code } : {}),
    ...(err.stack ? { stack: redactSql(err.stack) } : {}),
  };
}

import { GraphQLError, Kind, type DocumentNode, type SelectionSetNode } from 'graphql';
import { Parser } from 'graphql/language/parser';
import type { NextFunction, Request, Response } from 'express';
import { searchOf } from './url-search';

/** Document caps, checked on the raw text before Apollo parses and validates it (docs/security.md#graphql). */
export const DOCUMENT_LIMITS = {
  /** graphql-js `parse(…, { maxTokens })`; GraphiQL's introspection query is about 300 tokens. */
  maxTokens: 5000,
  maxAliases: 100,
  maxFragmentSpreads: 100,
  /**
   * How often one response name may appear in one selection set (inline fragments included).
   * graphql-js's OverlappingFieldsCanBeMerged rule compares those pairwise: 2,400 copies of one
   * field took about a second to validate.
   */
  maxSameNameFields: 10,
  /** Operations in one batched POST (a JSON array); tokens, aliases and spreads are also capped over the whole batch. */
  maxBatchOperations: 10,
};

/** What the caps count in one document; a batch's documents are counted together too. */
export interface DocumentSize {
  tokens: number;
  aliases: number;
  spreads: number;
}

function tooLarge(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'QUERY_TOO_LARGE' } });
}

interface Shape {
  aliases: number;
  spreads: number;
  /** Highest count of one response name in one selection set (inline fragments flattened into it). */
  repeats: number;
}

/** One pass over a selection set and everything under it; `counts` is shared with inline fragments. */
function measure(set: SelectionSetNode, shape: Shape, counts = new Map<string, number>()): void {
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) {
      if (sel.alias) shape.aliases += 1;
      const key = (sel.alias ?? sel.name).value;
      const n = (counts.get(key) ?? 0) + 1;
      counts.set(key, n);
      if (n > shape.repeats) shape.repeats = n;
      if (sel.selectionSet) measure(sel.selectionSet, shape);
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      measure(sel.selectionSet, shape, counts);
    } else {
      shape.spreads += 1;
    }
  }
}

function shapeOf(doc: DocumentNode): Shape {
  const shape: Shape = { aliases: 0, spreads: 0, repeats: 0 };
  for (const def of doc.definitions) if ('selectionSet' in def && def.selectionSet) measure(def.selectionSet, shape);
  return shape;
}

/** The caps on counts that add up (one document, or a whole batch: `what` and `scope` say which). */
function sizeError(
  size: Omit<DocumentSize, 'tokens'>,
  limits: typeof DOCUMENT_LIMITS,
  what = 'Query has',
  scope = '',
): GraphQLError | undefined {
  const { aliases, spreads } = size;
  if (aliases > limits.maxAliases)
    return tooLarge(`${what} ${aliases} aliases${scope}; the maximum is ${limits.maxAliases}`);
  if (spreads > limits.maxFragmentSpreads)
    return tooLarge(`${what} ${spreads} fragment spreads${scope}; the maximum is ${limits.maxFragmentSpreads}`);
  return undefined;
}

/** Linear checks of one parsed document: aliases, fragment spreads, repeated response names. */
export function documentShapeError(doc: DocumentNode, limits = DOCUMENT_LIMITS): GraphQLError | undefined {
  const shape = shapeOf(doc);
  const { repeats } = shape;
  const error = sizeError(shape, limits);
  if (error) return error;
  if (repeats > limits.maxSameNameFields)
    return tooLarge(
      `Query selects one field ${repeats} times in a selection; the maximum is ${limits.maxSameNameFields}`,
    );
  return undefined;
}

/**
 * The error for a document over the caps, or undefined. Syntax errors other than the token cap are
 * left to Apollo, which reports them as GRAPHQL_PARSE_FAILED.
 */
export function documentLimitError(source: string, limits = DOCUMENT_LIMITS): GraphQLError | undefined {
  return measureDocument(source, limits).error;
}

/** The caps' verdict on one document and, within them, its size (unparsable documents count as empty). */
function measureDocument(source: string, limits = DOCUMENT_LIMITS): { error?: GraphQLError; size: DocumentSize } {
  const parser = new Parser(source, { maxTokens: limits.maxTokens, noLocation: true });
  let doc: DocumentNode;
  try {
    doc = parser.parseDocument();
  } catch (e) {
    if (e instanceof GraphQLError && /contains more th\w+ \d+ tokens/.test(e.message))
      return { error: tooLarge(`Query has more than ${limits.maxTokens} tokens`), size: EMPTY };
    return { size: EMPTY };
  }
  const shape = shapeOf(doc);
  return {
    error: documentShapeError(doc, limits),
    size: { tokens: parser.tokenCount, aliases: shape.aliases, spreads: shape.spreads },
  };
}

const EMPTY: DocumentSize = { tokens: 0, aliases: 0, spreads: 0 };

/**
 * Documents already found within the caps, by text (bounded LRU): a client repeating its
 * queries is not parsed here on every request (Apollo keeps its own LRU of parsed, validated
 * documents). At most 500 texts of at most 20,000 characters (10 MB worst case).
 */
const ACCEPTED_MAX = 500;
const ACCEPTED_TEXT_MAX = 20_000;
const accepted = new Map<string, DocumentSize>();

function cachedMeasure(source: string): { error?: GraphQLError; size: DocumentSize } {
  const known = accepted.get(source);
  if (known) {
    accepted.delete(source);
    accepted.set(source, known);
    return { size: known };
  }
  const measured = measureDocument(source);
  if (!measured.error && source.length <= ACCEPTED_TEXT_MAX) {
    accepted.set(source, measured.size);
    if (accepted.size > ACCEPTED_MAX) accepted.delete(accepted.keys().next().value as string);
  }
  return measured;
}

const cachedLimitError = (source: string): GraphQLError | undefined => cachedMeasure(source).error;

/**
 * A batch (POST of a JSON array, docs/security.md#batches): at most maxBatchOperations operations, each
 * within the caps, and all of them together within the same token, alias and spread caps (a batch
 * carries no more validation work than one request). Checked operation by operation, stopping at
 * the first one that takes a total over. Every piece must carry its query text: a persisted query's
 * hash alone would reach Apollo unmeasured and uncounted in the batch's complexity (batch.ts).
 */
export function batchLimitError(body: readonly unknown[], limits = DOCUMENT_LIMITS): GraphQLError | undefined {
  if (body.length === 0)
    return new GraphQLError('No operations found in request.', { extensions: { code: 'BAD_REQUEST' } });
  if (body.length > limits.maxBatchOperations) {
    return new GraphQLError(
      `A batch may hold at most ${limits.maxBatchOperations} operations; this one has ${body.length}`,
      { extensions: { code: 'BATCH_TOO_LARGE' } },
    );
  }
  const total: DocumentSize = { tokens: 0, aliases: 0, spreads: 0 };
  for (const [i, piece] of body.entries()) {
    const source = (piece as { query?: unknown } | null)?.query;
    if (typeof source !== 'string')
      return new GraphQLError(
        `Operation ${i + 1} of the batch has no query text (a batch takes no persisted query hashes)`,
        { extensions: { code: 'BAD_REQUEST' } },
      );
    const { error, size } = cachedMeasure(source);
    if (error) return tooLarge(`Operation ${i + 1} of the batch: ${error.message}`);
    total.tokens += size.tokens;
    total.aliases += size.aliases;
    total.spreads += size.spreads;
    if (total.tokens > limits.maxTokens) return tooLarge(`The batch has more than ${limits.maxTokens} tokens in all`);
    const over = sizeError(total, limits, 'The batch has', ' in all');
    if (over) return over;
  }
  return undefined;
}

/** The request keys Apollo reads (Apollo Server's runHttpQuery), plain or in any bracketed form. */
const APOLLO_KEYS = /^(query|operationName|variables|extensions)(\[|$)/;

/**
 * The document exactly where Apollo reads it: a POST body's `query` when it is a string; for GET the
 * URL's search parameters through URLSearchParams, as Apollo parses them (not express's qs, which
 * turns `query=…&query[]=x` into an array while Apollo still reads the plain key).
 * A GET naming one of Apollo's keys twice or in bracketed form is refused here, so nothing the
 * guard did not check can reach Apollo.
 */
export function documentOf(req: Request): { source?: string; refused?: string } {
  if (req.method !== 'GET') {
    const body = req.body as { query?: unknown } | undefined;
    return { source: typeof body?.query === 'string' ? body.query : undefined };
  }
  const params = new URLSearchParams(searchOf(req.url));
  const seen = new Set<string>();
  for (const key of params.keys()) {
    const m = APOLLO_KEYS.exec(key);
    if (!m) continue;
    if (key !== m[1] || seen.has(key))
      return { refused: `The '${m[1]}' search parameter may only be specified once, as a plain key.` };
    seen.add(key);
  }
  return { source: params.get('query') ?? undefined };
}

/**
 * Express middleware in front of Apollo: refuses an oversized document with 400 before any validation
 * walk (graphql-js's own rules are quadratic in repeated fields).
 */
export function graphqlDocumentGuard(req: Request, res: Response, next: NextFunction): void {
  // GET never batches (Apollo reads a GET's search parameters only).
  if (req.method === 'POST' && Array.isArray(req.body)) {
    const error = batchLimitError(req.body);
    if (!error) return next();
    res.status(400).json({ errors: [{ message: error.message, extensions: error.extensions }] });
    return;
  }
  const { source, refused } = documentOf(req);
  if (refused) {
    res.status(400).json({ errors: [{ message: refused, extensions: { code: 'BAD_REQUEST' } }] });
    return;
  }
  const error = source === undefined ? undefined : cachedLimitError(source);
  if (!error) return next();
  res.status(400).json({ errors: [{ message: error.message, extensions: error.extensions }] });
}

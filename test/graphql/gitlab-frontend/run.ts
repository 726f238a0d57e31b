import type { Server } from 'node:http';
import request from 'supertest';
import { loadDocument } from './load';

export interface RunResult {
  status: number;
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

/**
 * Posts one of GitLab's frontend documents to /api/graphql as GitLab's frontend would: imports resolved,
 * client-only parts removed (load.ts), the operation name set, the caller's token as PRIVATE-TOKEN.
 * `app` is the test app's express app or listening server.
 */
export async function runDocument(
  app: Parameters<typeof request>[0] | Server,
  path: string,
  variables: Record<string, unknown> = {},
  token?: string,
): Promise<RunResult> {
  const loaded = loadDocument(path);
  if (!loaded.source || !loaded.document) throw new Error(`${path} is local state only: GitLab sends nothing`);
  const op = loaded.document.definitions.find((d) => d.kind === 'OperationDefinition');
  const operationName = op && 'name' in op && op.name ? op.name.value : undefined;
  let req = request(app).post('/api/graphql').send({ query: loaded.source, variables, operationName });
  if (token) req = req.set('PRIVATE-TOKEN', token);
  const res = await req;
  return { status: res.status, data: res.body?.data, errors: res.body?.errors };
}

import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { routeLabel } from './metrics';

/**
 * Query parameters whose values never reach a log: credentials, as GitLab's `filter_parameters`
 * (`private_token`, `access_token`, a runner's `token`, `password`, `secret`, `*_key`).
 */
const SECRET_NAME = /token|password|secret|key$/i;
const FILTERED = '[FILTERED]';

function decodedName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

/** The request's path and query as sent, with the values of credential parameters replaced by [FILTERED]. */
export function redactedUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0 || !SECRET_NAME.test(decodedName(pair.slice(0, eq)))) return pair;
      return `${pair.slice(0, eq)}=${FILTERED}`;
    });
  return `${url.slice(0, q)}?${params.join('&')}`;
}

/**
 * One `info` line per request once it is answered (docs/operations.md#logs): the full path with its
 * query (credentials redacted), the bounded route label of the metrics, the user it was served as
 * (null: anonymous or not authenticated), the client address, status and duration.
 */
export function accessLogger(logger: Logger): (req: Request, res: Response) => void {
  return (req, res) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      logger.info(
        {
          reqId: req.id,
          method: req.method,
          path: redactedUrl(req.originalUrl),
          route: routeLabel(req, res),
          userId: req.userId ?? null,
          ip: req.ip,
          status: res.statusCode,
          ms: Number(process.hrtime.bigint() - started) / 1e6,
        },
        'request',
      );
    });
  };
}

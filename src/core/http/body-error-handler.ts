import type { NextFunction, Request, Response } from 'express';
import multer from 'multer';

type HttpError = Error & { status?: number; statusCode?: number; type?: string; code?: string };

/** Multer limit codes → status (a size limit is 413, any other limit 400). */
const MULTER_STATUS: Record<string, number> = { LIMIT_FILE_SIZE: 413, LIMIT_FIELD_VALUE: 413, LIMIT_PART_COUNT: 413 };

/** A JSON body with exactly `Content-Type: application/json` (python-gitlab decodes only that). */
export function sendJsonError(res: Response, status: number, body: Record<string, unknown>): void {
  const text = JSON.stringify(body);
  res.status(status).setHeader('Content-Type', 'application/json');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

/**
 * The one error handler for failures before a route runs (body parsers, multipart, unknown errors):
 * malformed or oversized bodies are 4xx with a JSON `error`; anything else goes to `unexpected`
 * (which reports it once and answers 503 or 500).
 */
export function bodyErrorHandler(unexpected: (err: Error, req: Request, res: Response) => void) {
  return (err: HttpError, req: Request, res: Response, _next: NextFunction): void => {
    if (res.headersSent) return void res.end();
    if (err.type === 'entity.parse.failed') return sendJsonError(res, 400, { error: 'The request body is not valid JSON' });
    if (err.type === 'entity.too.large') return sendJsonError(res, 413, { error: 'The request body is too large' });
    if (err instanceof multer.MulterError) return sendJsonError(res, MULTER_STATUS[err.code] ?? 400, { error: `Multipart body refused: ${err.message}${err.field ? ` (${err.field})` : ''}` });
    // busboy's own failures: truncated body, missing boundary, malformed part headers.
    if (/^(Multipart|Unexpected end of form|Malformed part header|Unexpected end of file)/.test(err.message ?? '') && !err.status) {
      return sendJsonError(res, 400, { error: `Malformed multipart body: ${err.message}` });
    }
    const status = err.status ?? err.statusCode;
    if (status && status >= 400 && status < 500) return sendJsonError(res, status, { error: err.message });
    return unexpected(err, req, res);
  };
}

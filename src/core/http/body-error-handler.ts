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
 * The client went away while its body was being read: it closed the connection or aborted the
 * upload (multer: "Request aborted" / "Request closed"; Node: "aborted", ECONNRESET). Not a server
 * fault, and nobody is left to answer.
 */
export function isClientAbort(req: Request, err: Error): boolean {
  // A request read to its end is not aborted, whatever its stream state (Node destroys it after 'end').
  if (req.complete) return false;
  const code = (err as Error & { code?: string }).code;
  return (
    req.socket?.destroyed === true ||
    code === 'ECONNRESET' ||
    code === 'ECONNABORTED' ||
    /^(Request aborted|Request closed|aborted)$/.test(err.message ?? '')
  );
}

/**
 * The one error handler for failures before a route runs (body parsers, multipart, unknown errors):
 * malformed or oversized bodies are 4xx with a JSON `error`; anything else goes to `unexpected`
 * (which reports it once and answers 503 or 500).
 */
export function bodyErrorHandler(unexpected: (err: Error, req: Request, res: Response) => void) {
  return (err: HttpError, req: Request, res: Response, _next: NextFunction): void => {
    if (res.headersSent) return void res.end();
    // A client abort reaching here (the REST multipart parser logs its own as a warning): no error line.
    if (isClientAbort(req, err)) return void res.destroy();
    if (err.type === 'entity.parse.failed')
      return sendJsonError(res, 400, { error: 'The request body is not valid JSON' });
    if (err.type === 'entity.too.large') return sendJsonError(res, 413, { error: 'The request body is too large' });
    if (err instanceof multer.MulterError)
      return sendJsonError(res, MULTER_STATUS[err.code] ?? 400, {
        error: `Multipart body refused: ${err.message}${err.field ? ` (${err.field})` : ''}`,
      });
    // busboy's own failures: truncated body, missing boundary, malformed part headers.
    if (
      /^(Multipart|Unexpected end of form|Malformed part header|Unexpected end of file)/.test(err.message ?? '') &&
      !err.status
    ) {
      return sendJsonError(res, 400, { error: `Malformed multipart body: ${err.message}` });
    }
    const status = err.status ?? err.statusCode;
    if (status && status >= 400 && status < 500) return sendJsonError(res, status, { error: err.message });
    return unexpected(err, req, res);
  };
}

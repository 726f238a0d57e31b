import type { Request, Response } from 'express';
import { CSP_LOCKDOWN } from './security-headers';

/** A file kept in the database and served as it was stored (an avatar). */
export interface StoredFile {
  data: Buffer;
  /** The type its bytes were checked to be when it was stored. */
  contentType: string;
  filename: string;
  /** Hex SHA-256 of `data`: the ETag. */
  sha256: string;
  modifiedAt: Date;
  /** Sent as a download (`Content-Disposition: attachment`) even when it is an image a browser shows. */
  attachment?: boolean;
}

/** Raster images a browser shows but never runs: served inline. Anything else is an attachment of no type. */
const INLINE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/bmp', 'image/tiff', 'image/x-icon']);

/** A file name safe inside a quoted header value. */
const headerFilename = (name: string) => name.replace(/[^a-zA-Z0-9.\-+_]/g, '_');

/**
 * Sends a stored file byte for byte (docs/security.md#avatars): its checked type, `nosniff`, a
 * sandboxing CSP, GitLab's upload caching (`max-age=0, private, must-revalidate`: revalidated each time,
 * never kept by shared caches since some are not public) with a strong ETag (304 on If-None-Match).
 */
export function sendStoredFile(req: Request, res: Response, file: StoredFile): void {
  const etag = `"${file.sha256}"`;
  const image = INLINE_TYPES.has(file.contentType);
  res.setHeader('Content-Type', image ? file.contentType : 'application/octet-stream');
  res.setHeader(
    'Content-Disposition',
    `${image && !file.attachment ? 'inline' : 'attachment'}; filename="${headerFilename(file.filename)}"`,
  );
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Security-Policy', `default-src 'none'; sandbox; ${CSP_LOCKDOWN}`);
  res.setHeader('Cache-Control', 'max-age=0, private, must-revalidate');
  res.setHeader('ETag', etag);
  res.setHeader('Last-Modified', file.modifiedAt.toUTCString());
  const match = req.get('if-none-match');
  if (match && match.split(',').some((t) => t.trim() === etag || t.trim() === `W/${etag}` || t.trim() === '*')) {
    res.status(304).end();
    return;
  }
  res.setHeader('Content-Length', file.data.length);
  res.status(200).end(req.method === 'HEAD' ? undefined : file.data);
}

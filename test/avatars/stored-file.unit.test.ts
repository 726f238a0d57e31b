import express from 'express';
import request from 'supertest';
import { sendStoredFile, type StoredFile } from '../../src/core/http/stored-file';

function appServing(file: StoredFile) {
  const app = express();
  app.get('/f', (req, res) => sendStoredFile(req, res, file));
  return app;
}
const file = (contentType: string, filename: string): StoredFile => ({
  data: Buffer.from('<svg onload="alert(1)"/>'),
  contentType,
  filename,
  sha256: 'a'.repeat(64),
  modifiedAt: new Date('2026-11-25T12:00:00Z'),
});

describe('sendStoredFile', () => {
  it('never serves a type outside the raster images inline', async () => {
    for (const type of ['image/svg+xml', 'text/html', 'application/javascript']) {
      const res = await request(appServing(file(type, 'x.svg'))).get('/f');
      expect([
        res.headers['content-type'],
        res.headers['content-disposition'],
        res.headers['x-content-type-options'],
      ]).toEqual(['application/octet-stream', 'attachment; filename="x.svg"', 'nosniff']);
    }
  });

  it('quotes a safe file name and answers HEAD and If-None-Match without a body', async () => {
    const app = appServing(file('image/png', 'a"b\r\nX-Evil: 1.png'));
    const res = await request(app).get('/f');
    expect(res.headers['content-disposition']).toBe('inline; filename="a_b__X-Evil__1.png"');
    expect(res.headers['x-evil']).toBeUndefined();
    expect(res.headers['last-modified']).toBe('Wed, 25 Nov 2026 12:00:00 GMT');
    const head = await request(app).head('/f');
    expect([head.status, head.headers['content-length'], head.text]).toEqual([200, '24', undefined]);
    const cached = await request(app)
      .get('/f')
      .set('If-None-Match', `W/"${'a'.repeat(64)}", "other"`);
    expect(cached.status).toBe(304);
  });
});

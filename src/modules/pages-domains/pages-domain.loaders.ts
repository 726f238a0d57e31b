import { PeekLoader } from '../../core/context/peek-loader';
import type { RequestCtx } from '../../core/context/request-ctx';
import { pgArray, sqlRows } from '../../core/db/sql';

/** The long columns of a domain: read only for the domains whose `certificate` a request selects. */
export interface PagesCertificateColumns {
  certificate: string | null;
  certificateSubject: string | null;
  certificateText: string | null;
}

async function loadCertificates(ctx: RequestCtx, ids: readonly number[]): Promise<PagesCertificateColumns[]> {
  const rows = await sqlRows<{
    id: number;
    certificate: string | null;
    certificate_subject: string | null;
    certificate_text: string | null;
  }>(
    ctx.em,
    'select id, certificate, certificate_subject, certificate_text from pages_domains where id = any(?::int[])',
    [pgArray(ids)],
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => {
    const r = byId.get(id);
    return {
      certificate: r?.certificate ?? null,
      certificateSubject: r?.certificate_subject ?? null,
      certificateText: r?.certificate_text ?? null,
    };
  });
}

export function pagesDomainLoaders(ctx: RequestCtx) {
  return {
    /** Certificate columns by domain id, for rows read without them (node lookups). */
    pagesCertificate: new PeekLoader<number, PagesCertificateColumns>((ids) => loadCertificates(ctx, ids)),
  };
}

type PagesDomainLoaders = ReturnType<typeof pagesDomainLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends PagesDomainLoaders {}
}

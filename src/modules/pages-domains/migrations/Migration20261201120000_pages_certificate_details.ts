import { Migration } from '@mikro-orm/migrations';
import { parseStoredLeaf } from '../pages-certificate';
import { certificateSubject, certificateText } from '../pages-certificate-text';

const BATCH = 100;

/**
 * Certificates are parsed once, when a domain is saved, and reads return stored values.
 * Adds the leaf's subject and text dump, fills them for the rows saved before (PostgreSQL cannot
 * parse a certificate: the backfill runs here, in batches of 100 rows by id, once), and stores
 * domains in lower case (the unique index on lower(domain) means no two rows can collide).
 * A stored certificate the new rules do not parse keeps its dates and gets '' for both (reads answer
 * 200 with them, as the per-read parsing answered before); one that parses also gets OpenSSL's dates.
 * Running it again only fills rows still without a text (the backfill test calls `up` directly).
 */
export class Migration20261201120000PagesCertificateDetails extends Migration {
  override async up(): Promise<void> {
    await this.execute(
      'alter table pages_domains add column if not exists certificate_subject text null, add column if not exists certificate_text text null',
    );
    await this.execute('update pages_domains set domain = lower(domain) where domain <> lower(domain)');
    for (let last = 0; ;) {
      const rows = (await this.execute(
        'select id, certificate from pages_domains where certificate is not null and certificate_text is null and id > ? order by id limit ?',
        [last, BATCH],
      )) as { id: number; certificate: string }[];
      if (!rows.length) break;
      for (const row of rows) {
        const leaf = parseStoredLeaf(row.certificate);
        await this.execute(
          `update pages_domains set certificate_subject = ?, certificate_text = ?,
            certificate_not_before = coalesce(?, certificate_not_before), certificate_not_after = coalesce(?, certificate_not_after) where id = ?`,
          [
            leaf ? certificateSubject(leaf) : '',
            leaf ? certificateText(leaf) : '',
            leaf?.notBefore ?? null,
            leaf?.notAfter ?? null,
            row.id,
          ],
        );
      }
      last = rows[rows.length - 1].id;
    }
  }
}

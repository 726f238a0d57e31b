import { Migration } from '@mikro-orm/migrations';

/**
 * Later GitLab's `keys.fingerprint_sha256` (`GET /keys?fingerprint=SHA256:…`), indexed for that lookup
 * (not unique: the MD5 fingerprint already is). Keys stored before it have none until re-added.
 */
export class Migration20261204120200KeysFingerprintSha256 extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table keys add column fingerprint_sha256 varchar(64);');
    this.addSql('create index keys_fingerprint_sha256_idx on keys (fingerprint_sha256);');
  }

  override async down(): Promise<void> {
    this.addSql('alter table keys drop column fingerprint_sha256;');
  }
}

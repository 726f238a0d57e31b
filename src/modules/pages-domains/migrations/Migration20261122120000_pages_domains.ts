import { Migration } from '@mikro-orm/migrations';

/**
 * Custom domains of projects' pages sites (spec 2.7). Domains are unique instance-wide without
 * regard to case (the unique index on lower(domain)); project lists and lookups use
 * (project_id, domain). The private key is stored sealed (core/crypto/secret-box), never in clear.
 */
export class Migration20261122120000PagesDomains extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table pages_domains (
      id serial primary key,
      project_id integer not null references projects (id) on delete cascade,
      domain varchar(255) not null,
      certificate text null,
      sealed_key text null,
      certificate_not_before timestamptz null,
      certificate_not_after timestamptz null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`);
    this.addSql('create unique index pages_domains_domain_lower_uniq on pages_domains (lower(domain))');
    this.addSql('create index pages_domains_project_id_domain_idx on pages_domains (project_id, domain)');
  }
}

import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

/** A custom domain of a project's pages site (spec 2.7); storage only. */
@Entity({ tableName: 'pages_domains' })
export class PagesDomain {
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Property({ type: 'integer' })
  projectId!: number;

  @Property({ type: 'string', length: 255 })
  domain!: string;

  /** PEM as given, intermediates included. */
  @Property({ type: 'text', nullable: true })
  certificate: string | null = null;

  /** The private key sealed with ctx.secrets (never returned by any route or field). */
  @Property({ type: 'text', nullable: true, hidden: true })
  sealedKey: string | null = null;

  /** The leaf's validity, kept so the instance list needs no certificate parsing. */
  @Property({ type: 'datetime', nullable: true })
  certificateNotBefore: Date | null = null;

  @Property({ type: 'datetime', nullable: true })
  certificateNotAfter: Date | null = null;

  /** The leaf's subject in OpenSSL's one-line form, computed when saved (reads never parse). */
  @Property({ type: 'text', nullable: true })
  certificateSubject: string | null = null;

  /** The leaf's `openssl x509 -text` dump, computed when saved. */
  @Property({ type: 'text', nullable: true })
  certificateText: string | null = null;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime' })
  updatedAt: Date = new Date();
}

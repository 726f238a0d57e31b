import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

/** A user's SSH public key (GitLab 10.3's `keys` without deploy keys): storage only. */
@Entity({ tableName: 'keys' })
export class SshKey {
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Property({ type: 'integer' })
  userId!: number;

  @Property({ type: 'string', length: 255 })
  title!: string;

  /** As sent, without line breaks and surrounding blanks (GitLab's `Key#key=`); the comment stays. */
  @Property({ type: 'text' })
  key!: string;

  /** MD5 of the key blob, colon hex (net-ssh's fingerprint, as GitLab 10.3): unique on the instance. */
  @Property({ type: 'string', length: 128 })
  fingerprint!: string;

  /** SHA-256 of the blob, base64 without padding (later GitLab's column, for `GET /keys?fingerprint=SHA256:…`). */
  @Property({ type: 'string', length: 64, nullable: true })
  fingerprintSha256: string | null = null;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime' })
  updatedAt: Date = new Date();
}

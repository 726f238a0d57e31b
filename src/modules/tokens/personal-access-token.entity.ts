import { ArrayType, Entity, PrimaryKey, Property } from '@mikro-orm/core';

/** Tokens are stored only as SHA-256 digests; the plain value is shown once on creation. */
@Entity({ tableName: 'personal_access_tokens' })
export class PersonalAccessToken {
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Property({ type: 'integer' })
  userId!: number;

  @Property({ type: 'string', length: 255 })
  name!: string;

  @Property({ type: 'string', length: 64, hidden: true })
  tokenDigest!: string;

  @Property({ type: new ArrayType(), columnType: 'text[]' })
  scopes: string[] = [];

  @Property({ type: 'boolean' })
  impersonation = false;

  @Property({ type: 'boolean' })
  revoked = false;

  @Property({ type: 'date', nullable: true })
  expiresAt: string | null = null;

  @Property({ type: 'datetime', nullable: true })
  lastUsedAt: Date | null = null;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime' })
  updatedAt: Date = new Date();
}

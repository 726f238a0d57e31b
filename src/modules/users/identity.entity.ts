import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

/** A user's account at an external authentication provider (GitLab's Identity). */
@Entity({ tableName: 'identities' })
export class Identity {
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Property({ type: 'integer' })
  userId!: number;

  @Property({ type: 'string', length: 255 })
  provider!: string;

  @Property({ type: 'string', length: 255 })
  externUid!: string;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime' })
  updatedAt: Date = new Date();
}

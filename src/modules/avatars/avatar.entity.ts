import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

/** An avatar image (table `avatars`): read and written with plain SQL by avatar.store.ts. */
@Entity({ tableName: 'avatars' })
export class Avatar {
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Property({ type: 'integer', nullable: true })
  userId: number | null = null;

  @Property({ type: 'integer', nullable: true })
  projectId: number | null = null;

  @Property({ type: 'integer', nullable: true })
  groupId: number | null = null;

  @Property({ type: 'string', length: 255 })
  filename!: string;

  @Property({ type: 'string', length: 64 })
  contentType!: string;

  @Property({ type: 'integer' })
  size!: number;

  @Property({ type: 'string', length: 64 })
  sha256!: string;

  @Property({ type: 'blob', lazy: true })
  data!: Buffer;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();
}

import { ArrayType, Entity, PrimaryKey, Property } from '@mikro-orm/core';

export type NamespaceKind = 'user' | 'group';

/**
 * Groups and personal (user) namespaces share one table, as in GitLab: their full paths live in one
 * unique space (a top-level group cannot take a username). `traversalIds` holds the ids from the root
 * down to this namespace (GIN-indexed), so ancestor/descendant questions are one indexed predicate.
 */
@Entity({ tableName: 'namespaces' })
export class Namespace {
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Property({ type: 'string', length: 255 })
  name!: string;

  @Property({ type: 'string', length: 255 })
  path!: string;

  @Property({ type: 'text' })
  fullPath!: string;

  @Property({ type: 'text' })
  fullName!: string;

  @Property({ type: 'string', length: 8 })
  kind: NamespaceKind = 'group';

  @Property({ type: 'integer', nullable: true })
  parentId: number | null = null;

  @Property({ type: new ArrayType<number>((v) => Number(v)), columnType: 'int[]' })
  traversalIds: number[] = [];

  @Property({ type: 'integer', nullable: true })
  ownerId: number | null = null;

  @Property({ type: 'string', length: 255 })
  description = '';

  /** 0 private, 10 internal, 20 public (GitLab's levels). */
  @Property({ type: 'smallint' })
  visibilityLevel = 0;

  @Property({ type: 'boolean', nullable: true })
  lfsEnabled: boolean | null = null;

  @Property({ type: 'boolean' })
  requestAccessEnabled = false;

  /** Groups: projects inside may not be shared with other groups (GitLab 10.3); a lock holds for the whole subtree. */
  @Property({ type: 'boolean' })
  shareWithGroupLock = false;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime' })
  updatedAt: Date = new Date();
}

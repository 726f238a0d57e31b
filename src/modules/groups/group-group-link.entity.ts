import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

/** A group shared with another group (POST /groups/:id/share; GitLab's GroupGroupLink). */
@Entity({ tableName: 'group_group_links' })
export class GroupGroupLink {
  @PrimaryKey({ type: 'integer' })
  id!: number;

  /** The group being shared. */
  @Property({ type: 'integer' })
  sharedGroupId!: number;

  /** The group invited to it. */
  @Property({ type: 'integer' })
  sharedWithGroupId!: number;

  @Property({ type: 'smallint' })
  groupAccess!: number;

  @Property({ type: 'date', nullable: true })
  expiresAt: string | null = null;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime' })
  updatedAt: Date = new Date();
}

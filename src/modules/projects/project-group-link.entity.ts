import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

/** A project shared with a group (POST /projects/:id/share). */
@Entity({ tableName: 'project_group_links' })
export class ProjectGroupLink {
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Property({ type: 'integer' })
  projectId!: number;

  @Property({ type: 'integer' })
  groupId!: number;

  @Property({ type: 'smallint' })
  groupAccess!: number;

  @Property({ type: 'date', nullable: true })
  expiresAt: string | null = null;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();
}

import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

@Entity({ tableName: 'users_star_projects' })
export class ProjectStar {
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Property({ type: 'integer' })
  userId!: number;

  @Property({ type: 'integer' })
  projectId!: number;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();
}

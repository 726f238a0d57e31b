import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

export type EnvironmentState = 'available' | 'stopped';

/** A deployment target of a project (spec 2.8); storage only. */
@Entity({ tableName: 'environments' })
export class Environment {
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Property({ type: 'integer' })
  projectId!: number;

  @Property({ type: 'string', length: 255 })
  name!: string;

  /** Generated once at creation (environment-slug.ts), never changed by a rename. */
  @Property({ type: 'string', length: 24 })
  slug!: string;

  @Property({ type: 'string', length: 255, nullable: true })
  externalUrl: string | null = null;

  /** GitLab's later environment description (GraphQL only; REST's 10.3 wire has no such key). */
  @Property({ type: 'text', nullable: true })
  description: string | null = null;

  @Property({ type: 'string', length: 16 })
  state: EnvironmentState = 'available';

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime' })
  updatedAt: Date = new Date();
}

import { ArrayType, Entity, PrimaryKey, Property } from '@mikro-orm/core';

/** A CI runner (spec 2.1). The token is sealed at rest; `tokenDigest` finds a runner by its token. */
@Entity({ tableName: 'ci_runners' })
export class Runner {
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Property({ type: 'text', hidden: true })
  token!: string;

  @Property({ type: 'string', length: 64, hidden: true })
  tokenDigest!: string;

  @Property({ type: 'string', length: 255 })
  description = '';

  @Property({ type: 'string', length: 255, nullable: true })
  name: string | null = null;

  @Property({ type: 'string', length: 255, nullable: true })
  version: string | null = null;

  @Property({ type: 'string', length: 255, nullable: true })
  revision: string | null = null;

  @Property({ type: 'string', length: 255, nullable: true })
  platform: string | null = null;

  @Property({ type: 'string', length: 255, nullable: true })
  architecture: string | null = null;

  @Property({ type: 'boolean' })
  active = true;

  @Property({ type: 'boolean' })
  isShared = false;

  @Property({ type: 'boolean' })
  locked = false;

  @Property({ type: 'boolean' })
  runUntagged = true;

  /** 0 not_protected, 1 ref_protected (GitLab's enum values). */
  @Property({ type: 'smallint' })
  accessLevel = 0;

  @Property({ type: new ArrayType(), columnType: 'text[]' })
  tagList: string[] = [];

  /** Seconds a job on this runner may run at most; null: the project's own timeout applies. */
  @Property({ type: 'integer', nullable: true })
  maximumTimeout: number | null = null;

  /** The user who created it with `runnerCreate`; null for a runner registered with a token. */
  @Property({ type: 'integer', nullable: true })
  creatorId: number | null = null;

  @Property({ type: 'datetime', nullable: true })
  contactedAt: Date | null = null;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime' })
  updatedAt: Date = new Date();
}

/** A specific runner enabled in a project. */
@Entity({ tableName: 'ci_runner_projects' })
export class RunnerProject {
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Property({ type: 'integer' })
  runnerId!: number;

  @Property({ type: 'integer' })
  projectId!: number;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();
}

import { ArrayType, Entity, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * Storage of pipelines, commits and jobs (spec 2.2). Reads go through plain rows (job.service.ts,
 * ci.loaders.ts); these entities declare the tables for the ORM model and the test reset.
 */
@Entity({ tableName: 'ci_commits' })
export class CiCommit {
  @PrimaryKey({ type: 'integer' }) id!: number;
  @Property({ type: 'integer' }) projectId!: number;
  @Property({ type: 'string', length: 40 }) sha!: string;
  @Property({ type: 'string', length: 255 }) title = '';
  @Property({ type: 'text' }) message = '';
  @Property({ type: 'string', length: 255 }) authorName = '';
  @Property({ type: 'string', length: 255 }) authorEmail = '';
  @Property({ type: 'datetime' }) authoredDate: Date = new Date();
  @Property({ type: 'string', length: 255 }) committerName = '';
  @Property({ type: 'string', length: 255 }) committerEmail = '';
  @Property({ type: 'datetime' }) committedDate: Date = new Date();
  @Property({ type: new ArrayType(), columnType: 'text[]' }) parentIds: string[] = [];
}

@Entity({ tableName: 'ci_pipelines' })
export class CiPipeline {
  @PrimaryKey({ type: 'integer' }) id!: number;
  @Property({ type: 'integer' }) projectId!: number;
  @Property({ type: 'string', length: 40 }) sha!: string;
  @Property({ type: 'string', length: 255 }) ref!: string;
  @Property({ type: 'string', length: 16 }) status!: string;
  @Property({ type: 'integer', nullable: true }) userId: number | null = null;
  /** GitLab's pipeline source enum (push 1, web 2, trigger 3, …); null: unknown. */
  @Property({ type: 'integer', nullable: true }) source: number | null = null;
  @Property({ type: 'datetime' }) createdAt: Date = new Date();
  @Property({ type: 'datetime' }) updatedAt: Date = new Date();
}

@Entity({ tableName: 'ci_builds' })
export class CiJob {
  @PrimaryKey({ type: 'integer' }) id!: number;
  @Property({ type: 'integer' }) projectId!: number;
  @Property({ type: 'integer' }) pipelineId!: number;
  @Property({ type: 'integer', nullable: true }) runnerId: number | null = null;
  @Property({ type: 'integer', nullable: true }) userId: number | null = null;
  @Property({ type: 'string', length: 16 }) status!: string;
  @Property({ type: 'string', length: 255 }) stage = 'test';
  @Property({ type: 'string', length: 255 }) name!: string;
  @Property({ type: 'string', length: 255 }) ref!: string;
  @Property({ type: 'boolean' }) tag = false;
  @Property({ type: 'boolean' }) allowFailure = false;
  /** on_success, on_failure, always, manual, delayed (GitLab's `when`); null reads as on_success. */
  @Property({ type: 'string', length: 255, nullable: true, fieldName: 'when' }) when: string | null = 'on_success';
  @Property({ type: 'boolean', nullable: true }) retried: boolean | null = false;
  @Property({ type: 'double', nullable: true }) coverage: number | null = null;
  @Property({ type: 'datetime' }) createdAt: Date = new Date();
  @Property({ type: 'datetime', nullable: true }) startedAt: Date | null = null;
  @Property({ type: 'datetime', nullable: true }) finishedAt: Date | null = null;
  @Property({ type: 'datetime' }) updatedAt: Date = new Date();
}

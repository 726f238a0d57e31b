import { ArrayType, BigIntType, Entity, PrimaryKey, Property } from '@mikro-orm/core';

/** GitLab: a project's description is at most 2,000 characters. */
export const PROJECT_DESCRIPTION_MAX = 2000;

@Entity({ tableName: 'projects' })
export class Project {
  @PrimaryKey({ type: 'integer' })
  id!: number;

  @Property({ type: 'string', length: 255 })
  name!: string;

  @Property({ type: 'string', length: 255 })
  path!: string;

  @Property({ type: 'integer' })
  namespaceId!: number;

  /** GitLab: description at most 2,000 characters (checked by checkColumnLengths). */
  @Property({ type: 'text', length: PROJECT_DESCRIPTION_MAX })
  description = '';

  @Property({ type: 'string', length: 255, nullable: true })
  defaultBranch: string | null = 'master';

  @Property({ type: new ArrayType(), columnType: 'text[]' })
  tagList: string[] = [];

  @Property({ type: 'boolean' })
  archived = false;

  @Property({ type: 'smallint' })
  visibilityLevel = 0;

  @Property({ type: 'boolean' })
  issuesEnabled = true;

  @Property({ type: 'boolean' })
  mergeRequestsEnabled = true;

  @Property({ type: 'boolean' })
  wikiEnabled = true;

  @Property({ type: 'boolean' })
  jobsEnabled = true;

  @Property({ type: 'boolean' })
  snippetsEnabled = true;

  @Property({ type: 'boolean' })
  containerRegistryEnabled = true;

  @Property({ type: 'boolean' })
  sharedRunnersEnabled = true;

  @Property({ type: 'boolean' })
  publicJobs = true;

  @Property({ type: 'boolean' })
  requestAccessEnabled = false;

  @Property({ type: 'integer', nullable: true })
  creatorId: number | null = null;

  @Property({ type: 'integer' })
  starCount = 0;

  @Property({ type: 'integer' })
  forksCount = 0;

  @Property({ type: 'integer' })
  openIssuesCount = 0;

  /** Sealed (project-runners-token.ts); null until first generated. */
  @Property({ type: 'text', nullable: true, hidden: true })
  runnersToken: string | null = null;

  @Property({ type: 'string', length: 64, nullable: true, hidden: true })
  runnersTokenDigest: string | null = null;

  @Property({ type: new BigIntType('number') })
  storageSize = 0;

  @Property({ type: new BigIntType('number') })
  repositorySize = 0;

  @Property({ type: new BigIntType('number') })
  lfsObjectsSize = 0;

  @Property({ type: new BigIntType('number') })
  jobArtifactsSize = 0;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime' })
  updatedAt: Date = new Date();

  @Property({ type: 'datetime' })
  lastActivityAt: Date = new Date();

  /** The avatar's file name (GitLab's column); its bytes are in `avatars` (modules/avatars). */
  @Property({ type: 'string', length: 255, nullable: true })
  avatar: string | null = null;

  /** The project this one is a fork of (GitLab 10.3's forked_project_links); null when the source is deleted. */
  @Property({ type: 'integer', nullable: true })
  forkedFromProjectId: number | null = null;

  /** null: the namespace's setting (GitLab's Project#lfs_enabled?). */
  @Property({ type: 'boolean', nullable: true })
  lfsEnabled: boolean | null = null;

  @Property({ type: 'boolean' })
  resolveOutdatedDiffDiscussions = false;

  @Property({ type: 'boolean' })
  onlyAllowMergeIfPipelineSucceeds = false;

  @Property({ type: 'boolean' })
  onlyAllowMergeIfAllDiscussionsAreResolved = false;

  @Property({ type: 'boolean' })
  printingMergeRequestLinkEnabled = true;

  @Property({ type: 'string', length: 255, nullable: true })
  ciConfigPath: string | null = null;
}

import { GraphQLOnly } from '../../core/graphql/graphql-only';
import { idArgOf } from '../../core/graphql/global-id';
import { ArgsType, Field, ID, InputType, Int, registerEnumType } from 'type-graphql';
import { KeysetArgs, PageArgs } from '../../core/pagination/page';
import { UploadScalar } from '../../core/graphql/upload-scalar';
import type { UploadedFile } from '../../core/http/uploaded-file';
import { AccessLevelEnum, SortDirection, Visibility, VisibilityLevelsEnum } from '../access';
import { Internal } from '../../core/graphql/internal';
import { CustomAttributeFilter } from '../custom-attributes';

/** A group's id as an argument (the same scalar as the groups module's: core/graphql/global-id.ts). */
export const GroupIdArg = idArgOf('Group');

export enum ProjectOrderBy {
  ID = 'ID',
  NAME = 'NAME',
  PATH = 'PATH',
  CREATED_AT = 'CREATED_AT',
  UPDATED_AT = 'UPDATED_AT',
  LAST_ACTIVITY_AT = 'LAST_ACTIVITY_AT',
}
registerEnumType(ProjectOrderBy, { name: 'ProjectOrderBy' });

/** GitLab's `ProjectArchived`: whether a list includes, excludes or only has archived projects. */
export enum ProjectArchived {
  EXCLUDE = 'EXCLUDE',
  INCLUDE = 'INCLUDE',
  ONLY = 'ONLY',
}
registerEnumType(ProjectArchived, {
  name: 'ProjectArchived',
  description: 'Include, exclude or only archived projects.',
  valuesConfig: {
    EXCLUDE: { description: 'Exclude archived projects.' },
    INCLUDE: { description: 'Include archived projects.' },
    ONLY: { description: 'Only archived projects.' },
  },
});

/** Filters shared by GET /projects and GET /groups/:id/projects (spec 4.12). */
@ArgsType()
export class ProjectFilterArgs extends PageArgs {
  // REST's `archived` (a boolean); GraphQL's `archived` is GitLab's ProjectArchived below.
  @Internal()
  @Field(() => Boolean, {
    nullable: true,
    description: 'Only archived (true) or only non-archived (false) projects.',
  })
  archivedOnly?: boolean;

  @GraphQLOnly()
  @Field(() => ProjectArchived, {
    nullable: true,
    description: 'Filter projects by archived status (GitLab: INCLUDE when omitted).',
  })
  archived?: ProjectArchived;

  /** GitLab's GraphQL `active`: not archived (nothing is pending deletion here). */
  @GraphQLOnly()
  @Field(() => Boolean, {
    nullable: true,
    description: 'Only active projects (true: not archived) or only inactive ones (false: archived).',
  })
  active?: boolean;

  @Field(() => Visibility, { nullable: true })
  visibility?: Visibility;

  @Field(() => ProjectOrderBy, { nullable: true, description: 'Default CREATED_AT.' })
  orderBy?: ProjectOrderBy;

  // REST's `sort` (asc or desc, with order_by); GraphQL's `sort` is GitLab's `<field>_<direction>` string below.
  @Internal()
  @Field(() => SortDirection, { nullable: true, description: 'Default DESC.' })
  sortDirection?: SortDirection;

  @GraphQLOnly()
  @Field(() => String, {
    nullable: true,
    description:
      "Sort order of results, GitLab's `<field_name>_<sort_direction>`: id, name, path, created, updated, latest_activity, stars, storage_size (`id_desc`, `name_asc`, ...). Another value orders by id, newest first, as GitLab; without it the order is `orderBy`/its default.",
  })
  sort?: string;

  @Field(() => String, { nullable: true, description: 'Substring of name, path or description (case-insensitive).' })
  search?: string;

  @GraphQLOnly()
  @Field(() => Boolean, {
    nullable: true,
    description: "Include the namespace in the search: the term may also match the project's full path or full name.",
  })
  searchNamespaces?: boolean;

  @GraphQLOnly()
  @Field(() => Boolean, { nullable: true, description: 'Return only personal projects (in a user namespace).' })
  personal?: boolean;

  @GraphQLOnly()
  @Field(() => AccessLevelEnum, {
    nullable: true,
    description: 'Return only projects where the caller has at least this access level.',
  })
  minAccessLevel?: AccessLevelEnum;

  @GraphQLOnly()
  @Field(() => String, {
    nullable: true,
    description:
      'Filter projects by programming language name. No repository is kept here, so no project has a detected language: any name matches none, as GitLab for projects without repository languages.',
  })
  programmingLanguageName?: string;

  @Field(() => Boolean, { nullable: true, description: 'Only projects owned by the caller.' })
  owned?: boolean;

  @Field(() => Boolean, { nullable: true, description: 'Only projects starred by the caller.' })
  starred?: boolean;

  @Field(() => Boolean, { nullable: true, description: 'Only projects the caller is a member of.' })
  membership?: boolean;

  @Field(() => Boolean, { nullable: true, description: 'Only projects with issues enabled (GitLab 10.3).' })
  withIssuesEnabled?: boolean;

  @Field(() => Boolean, { nullable: true, description: 'Only projects with merge requests enabled (GitLab 10.3).' })
  withMergeRequestsEnabled?: boolean;
}

/** The project lists' default direction (GitLab's projects API: `sort` default desc). */
export const PROJECT_DEFAULT_SORT = SortDirection.DESC;

/**
 * GET /projects: the shared filters, later GitLab's `id_after` / `id_before`, and keyset pagination
 * ordered by id only (GitLab's Gitlab::Pagination::Keyset for Project; rel="next" sets id_after / id_before).
 */
@ArgsType()
export class ProjectsArgs extends KeysetArgs(ProjectFilterArgs, 'ID') {
  @GraphQLOnly()
  @Field(() => [ID], { nullable: true, description: 'Filter projects by global ids (`gid://gitlab/Project/<id>`).' })
  ids?: string[];

  @GraphQLOnly()
  @Field(() => VisibilityLevelsEnum, { nullable: true, description: 'Filter projects by visibility level.' })
  visibilityLevel?: VisibilityLevelsEnum;

  @GraphQLOnly()
  @Field(() => ID, { nullable: true, description: "Filter projects by their namespace's full path (group or user)." })
  namespacePath?: string;

  @Field(() => Int, { nullable: true, description: 'Only projects with a greater id.' })
  idAfter?: number;

  @Field(() => Int, { nullable: true, description: 'Only projects with a smaller id.' })
  idBefore?: number;

  @Field(() => [CustomAttributeFilter], { nullable: true, description: 'Administrators only; ignored for others.' })
  customAttributes?: CustomAttributeFilter[];
}

@InputType('ProjectAttributesInput', { description: 'Writable project attributes (createProject, updateProject).' })
export class ProjectAttributesInput {
  @Field(() => String, { nullable: true }) name?: string;
  @Field(() => String, { nullable: true }) path?: string;
  @Field(() => String, { nullable: true }) description?: string;
  @Field(() => Visibility, { nullable: true }) visibility?: Visibility;
  @Field(() => String, { nullable: true }) defaultBranch?: string;
  @Field(() => Boolean, { nullable: true }) sharedRunnersEnabled?: boolean;
  @Field(() => Boolean, { nullable: true }) issuesEnabled?: boolean;
  @Field(() => Boolean, { nullable: true }) mergeRequestsEnabled?: boolean;
  @Field(() => Boolean, { nullable: true }) wikiEnabled?: boolean;
  @Field(() => Boolean, { nullable: true }) jobsEnabled?: boolean;
  @Field(() => Boolean, { nullable: true }) snippetsEnabled?: boolean;
  @Field(() => Boolean, { nullable: true }) containerRegistryEnabled?: boolean;
  @Field(() => Boolean, { nullable: true }) publicJobs?: boolean;
  @Field(() => Boolean, { nullable: true }) requestAccessEnabled?: boolean;
  @Field(() => [String], { nullable: true }) tagList?: string[];
  @Field(() => String, { nullable: true, description: 'Path of the CI configuration file (stored; no CI runs here).' })
  ciConfigPath?: string;
  @Field(() => Boolean, { nullable: true }) resolveOutdatedDiffDiscussions?: boolean;
  @Field(() => Boolean, { nullable: true }) lfsEnabled?: boolean;
  @Field(() => Boolean, { nullable: true }) onlyAllowMergeIfPipelineSucceeds?: boolean;
  @Field(() => Boolean, { nullable: true }) onlyAllowMergeIfAllDiscussionsAreResolved?: boolean;
  @Field(() => Boolean, { nullable: true }) printingMergeRequestLinkEnabled?: boolean;
  @Field(() => UploadScalar, {
    nullable: true,
    description: 'Avatar image: png, jpg, jpeg, gif, bmp, tiff or ico, at most 200 KB.',
  })
  avatar?: UploadedFile;
}

@InputType('CreateProjectInput')
export class CreateProjectInput extends ProjectAttributesInput {
  @Field(() => Int, { nullable: true, description: 'A group id or the caller’s own namespace id (default).' })
  namespaceId?: number;
}

@InputType('UpdateProjectInput')
export class UpdateProjectInput extends ProjectAttributesInput {}

@InputType('ShareProjectInput')
export class ShareProjectInput {
  @Field(() => GroupIdArg) groupId!: number;
  @Field(() => Int, { description: '10, 20, 30 or 40.' }) groupAccess!: number;
  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD' }) expiresAt?: string;
}

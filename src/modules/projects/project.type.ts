import { DatabaseNode, Node } from '../../core/graphql/node';
import { Field, Int, ObjectType } from 'type-graphql';
import { PageType } from '../../core/pagination/page';
import { MaxItems } from '../../core/graphql/list-bound';
import { TextCost } from '../../core/graphql/text-cost';
import { PROJECT_DESCRIPTION_MAX } from './project.entity';
import { Visibility } from '../access';
import { ProjectInterface } from './project-interface.type';

@ObjectType('SharedWithGroup')
export class SharedWithGroupType {
  @Field(() => Int) groupId!: number;
  @Field(() => String) groupName!: string;
  @Field(() => String) groupFullPath!: string;
  @Field(() => Int) groupAccessLevel!: number;
  @Field(() => String, { nullable: true }) expiresAt!: string | null;
}

/** A view over the Project entity; computed fields are resolved in project.resolver.ts. */
/** Tags a project may have (checked on every write), so `tagList` is costed at this many values. */
export const PROJECT_TAGS_MAX = 100;

/** GitLab 10.3's ProjectStatistics: the repository numbers are 0 here (no repositories). */
@ObjectType('ProjectStatistics')
export class ProjectStatisticsType {
  @Field(() => Number, { description: 'Always 0: this service keeps no repositories.' }) commitCount!: number;
  @Field(() => Number) storageSize!: number;
  @Field(() => Number) repositorySize!: number;
  @Field(() => Number) lfsObjectsSize!: number;
  @Field(() => Number) jobArtifactsSize!: number;
}

@ObjectType('Project', { implements: [Node, ProjectInterface] })
export class ProjectType extends DatabaseNode {
  @Field(() => String) name!: string;
  @Field(() => String) path!: string;
  @Field(() => String) @TextCost(PROJECT_DESCRIPTION_MAX) description!: string;
  @Field(() => String, { nullable: true }) defaultBranch!: string | null;
  @Field(() => [String]) @MaxItems(PROJECT_TAGS_MAX) tagList!: string[];
  @Field(() => Boolean) archived!: boolean;
  @Field(() => Visibility) visibility!: Visibility;
  @Field(() => Boolean) issuesEnabled!: boolean;
  @Field(() => Boolean) mergeRequestsEnabled!: boolean;
  @Field(() => Boolean) wikiEnabled!: boolean;
  @Field(() => Boolean) jobsEnabled!: boolean;
  @Field(() => Boolean) snippetsEnabled!: boolean;
  @Field(() => Boolean) containerRegistryEnabled!: boolean;
  @Field(() => Boolean) sharedRunnersEnabled!: boolean;
  @Field(() => Boolean) publicJobs!: boolean;
  @Field(() => Boolean) requestAccessEnabled!: boolean;
  @Field(() => Int, { nullable: true }) creatorId!: number | null;
  @Field(() => Int) starCount!: number;
  @Field(() => Int) forksCount!: number;
  @Field(() => Int) openIssuesCount!: number;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date) updatedAt!: Date;
  @Field(() => Date) lastActivityAt!: Date;
  @Field(() => String, { nullable: true }) avatarUrl!: string | null;
  @Field(() => Boolean) resolveOutdatedDiffDiscussions!: boolean;
  @Field(() => Boolean) onlyAllowMergeIfPipelineSucceeds!: boolean;
  @Field(() => Boolean) onlyAllowMergeIfAllDiscussionsAreResolved!: boolean;
  @Field(() => Boolean) printingMergeRequestLinkEnabled!: boolean;
  @Field(() => String, { nullable: true }) ciConfigPath!: string | null;
}

@ObjectType('ProjectLinks', { description: "API URLs of the project and its sub-resources (GitLab's `_links`)." })
export class ProjectLinksType {
  @Field(() => String) self!: string;
  @Field(() => String, { nullable: true, description: 'null when issues are disabled.' }) issues!: string | null;
  @Field(() => String, { nullable: true, description: 'null when merge requests are disabled.' }) mergeRequests!:
    string | null;
  @Field(() => String) repoBranches!: string;
  @Field(() => String) labels!: string;
  @Field(() => String) events!: string;
  @Field(() => String) members!: string;
}

@ObjectType('MemberAccess', {
  description: "The caller's own membership: its access level and notification level (3, global: none is stored).",
})
export class MemberAccessType {
  @Field(() => Int) accessLevel!: number;
  @Field(() => Int, { nullable: true }) notificationLevel!: number | null;
}

@ObjectType('ProjectPermissions', { description: "The caller's direct membership of the project and of its group." })
export class ProjectPermissionsType {
  @Field(() => MemberAccessType, { nullable: true }) projectAccess!: MemberAccessType | null;
  @Field(() => MemberAccessType, { nullable: true }) groupAccess!: MemberAccessType | null;
}

export const ProjectPage = PageType(ProjectType, 'ProjectConnection');

@ObjectType('ProjectGroupLink', { description: 'A project shared with a group.', implements: Node })
export class ProjectGroupLinkType extends DatabaseNode {
  @Field(() => Int) projectId!: number;
  @Field(() => Int) groupId!: number;
  @Field(() => Int) groupAccess!: number;
  @Field(() => String, { nullable: true }) expiresAt!: string | null;
}

@ObjectType('StarProjectPayload')
export class StarProjectPayload {
  @Field(() => ProjectType) project!: ProjectType;
  @Field(() => Boolean, { description: 'false when the project was already starred (REST answers 304).' })
  changed!: boolean;
}

import { Field, Int, ObjectType } from 'type-graphql';
import { PageType } from '../../core/pagination/page';
import { Visibility } from '../access/visibility.type';

@ObjectType('SharedWithGroup')
export class SharedWithGroupType {
  @Field(() => Int) groupId!: number;
  @Field(() => String) groupName!: string;
  @Field(() => String) groupFullPath!: string;
  @Field(() => Int) groupAccessLevel!: number;
  @Field(() => String, { nullable: true }) expiresAt!: string | null;
}

/** A view over the Project entity; computed fields are resolved in project.resolver.ts. */
@ObjectType('Project')
export class ProjectType {
  @Field(() => Int) id!: number;
  @Field(() => String) name!: string;
  @Field(() => String) path!: string;
  @Field(() => String) description!: string;
  @Field(() => String, { nullable: true }) defaultBranch!: string | null;
  @Field(() => [String]) tagList!: string[];
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
}

export const ProjectPage = PageType(ProjectType, 'ProjectPage');

@ObjectType('ProjectGroupLink', { description: 'A project shared with a group.' })
export class ProjectGroupLinkType {
  @Field(() => Int) id!: number;
  @Field(() => Int) projectId!: number;
  @Field(() => Int) groupId!: number;
  @Field(() => Int) groupAccess!: number;
  @Field(() => String, { nullable: true }) expiresAt!: string | null;
}

@ObjectType('StarProjectPayload')
export class StarProjectPayload {
  @Field(() => ProjectType) project!: ProjectType;
  @Field(() => Boolean, { description: 'false when the project was already starred (REST answers 304).' }) changed!: boolean;
}

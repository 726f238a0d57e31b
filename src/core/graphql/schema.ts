import 'reflect-metadata';
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { buildSchema } from 'type-graphql';
import { RejectInvalidToken, RejectNulBytes } from '../auth/guards';
import { GroupResolver } from '../../modules/groups/group.resolver';
import { MemberResolver } from '../../modules/members/member.resolver';
import { ProjectResolver } from '../../modules/projects/project.resolver';
import { TokenResolver } from '../../modules/tokens/token.resolver';
import { UserResolver } from '../../modules/users/user.resolver';

export const RESOLVERS = [UserResolver, TokenResolver, ProjectResolver, MemberResolver, GroupResolver] as const;

let cached: Promise<GraphQLSchema> | undefined;

/**
 * The one schema both surfaces execute. Input validation is done by the services (GitLab's exact
 * messages), so type-graphql's class-validator integration stays off.
 */
export function buildAppSchema(): Promise<GraphQLSchema> {
  cached ??= buildSchema({ resolvers: RESOLVERS, validate: false, globalMiddlewares: [RejectInvalidToken, RejectNulBytes] });
  return cached;
}

/** The committed schema.graphql text (sorted, so that diffs are stable). */
export function printAppSchema(schema: GraphQLSchema): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}

import { Field, Int, ObjectType } from 'type-graphql';
import type { RequestCtx } from '../../core/context/request-ctx';
import { ParamError } from '../../core/errors/domain-errors';
import { offsetPage, type PageInput } from '../../core/pagination/list-query';
import { PageType, type Page } from '../../core/pagination/page';
import { directMemberships } from '../access';
import { userService } from '../users';

/**
 * GET /users/:user_id/memberships (later GitLab, administrators): a user's direct memberships of groups
 * (`source_type` `Namespace`, GitLab's model name) and projects, oldest first, with the source's name
 * (docs/rest.md#memberships).
 */
@ObjectType('UserMembership')
export class UserMembershipType {
  @Field(() => Int) sourceId!: number;
  @Field(() => String, { description: "The group's or project's name." }) sourceName!: string;
  @Field(() => String, { description: 'Namespace (a group) or Project, as GitLab names them.' }) sourceType!: string;
  @Field(() => Int) accessLevel!: number;
}
export const UserMembershipPage = PageType(UserMembershipType, 'UserMembershipConnection');

const TYPES = { Namespace: 'group', Project: 'project' } as const;
type Row = { id: number; source_type: 'group' | 'project'; source_id: number; access_level: number; created_at: Date };

export async function userMemberships(
  ctx: RequestCtx,
  userId: number,
  type: string | null | undefined,
  args: PageInput,
): Promise<Page<UserMembershipType>> {
  if (type != null && !(type in TYPES)) throw ParamError.notInSet('type');
  const user = await userService.get(ctx, userId);
  const kinds = type == null ? (['group', 'project'] as const) : [TYPES[type as keyof typeof TYPES]];
  const branch = (kind: 'group' | 'project') =>
    `select m.id, m.source_type, m.source_id, m.access_level, m.created_at from ${directMemberships(kind)} m where m.user_id = ${Number(user.id)}`;
  const page = await offsetPage<Row>(
    ctx.em,
    {
      select: 'm.*',
      from: `(${kinds.map(branch).join(' union all ')}) m`,
      where: [],
      params: [],
      orderBy: 'm.created_at',
      dir: 'asc',
      id: "m.source_type || ':' || m.id",
      map: (r) => r as Row,
    },
    args,
  );
  // The sources' names through their modules' loaders: one query per kind for the page.
  const nodes = await Promise.all(
    page.nodes.map(async (r) => {
      const source =
        r.source_type === 'group'
          ? await ctx.loaders.namespace.load(Number(r.source_id))
          : await ctx.loaders.visibleProject.load(Number(r.source_id));
      return {
        sourceId: Number(r.source_id),
        sourceName: source?.name ?? '',
        sourceType: r.source_type === 'group' ? 'Namespace' : 'Project',
        accessLevel: Number(r.access_level),
      };
    }),
  );
  return { ...page, nodes };
}

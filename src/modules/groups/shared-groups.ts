import { Args, ArgsType, Ctx, Field, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestCtx } from '../../core/context/request-ctx';
import { PageArgs, type Page } from '../../core/pagination/page';
import { perParentPages } from '../../core/pagination/per-parent-pages';
import type { Namespace } from '../namespaces';
import { GroupSort } from './group-interface.type';
import { listSharedGroupsBatched, type GroupOrder } from './group-list.query';
import { GroupPage, GroupType } from './group.type';

/** `Group.sharedGroups` (GitLab's Resolvers::Namespaces::SharedGroupsResolver). */
@ArgsType()
export class SharedGroupsArgs extends PageArgs {
  @Field(() => String, {
    nullable: true,
    description: 'Name or path; substring for 3+ characters, exact otherwise (case-insensitive).',
  })
  search?: string;

  @Field(() => GroupSort, {
    nullable: true,
    defaultValue: GroupSort.NAME_ASC,
    description: 'Order by name, created at, updated at, path, id or similarity if searching.',
  })
  sort?: GroupSort;
}

const ORDERS: Record<Exclude<GroupSort, GroupSort.SIMILARITY>, GroupOrder> = {
  CREATED_AT_ASC: { column: 'created_at', dir: 'asc' },
  CREATED_AT_DESC: { column: 'created_at', dir: 'desc' },
  UPDATED_AT_ASC: { column: 'updated_at', dir: 'asc' },
  UPDATED_AT_DESC: { column: 'updated_at', dir: 'desc' },
  NAME_ASC: { column: 'name', dir: 'asc' },
  NAME_DESC: { column: 'name', dir: 'desc' },
  PATH_ASC: { column: 'path', dir: 'asc' },
  PATH_DESC: { column: 'path', dir: 'desc' },
  ID_ASC: { column: 'id', dir: 'asc' },
  ID_DESC: { column: 'id', dir: 'desc' },
};

/** GitLab's rule (Namespaces::GroupsFilter#sort): similarity needs a search and a signed-in caller, else id, newest first. */
function orderOf(ctx: RequestCtx, args: SharedGroupsArgs): GroupOrder & { search?: string } {
  const sort = args.sort ?? GroupSort.NAME_ASC;
  if (sort !== GroupSort.SIMILARITY) return ORDERS[sort];
  if (ctx.user && args.search) return { column: 'similarity', dir: 'desc', search: args.search };
  return { column: 'id', dir: 'desc' };
}

export const sharedGroupLoaders = (ctx: RequestCtx) => ({
  sharedGroups: perParentPages<SharedGroupsArgs, Namespace>((args, ids) =>
    listSharedGroupsBatched(ctx, args, orderOf(ctx, args), ids),
  ),
});
type SharedGroupLoaders = ReturnType<typeof sharedGroupLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends SharedGroupLoaders {}
}

@Resolver(() => GroupType)
export class SharedGroupsResolver {
  /** The parent is already visible; batched across the groups of a list (one count and one page statement). */
  @FieldResolver(() => GroupPage, {
    description:
      'The groups this group was invited to (shared with it, GitLab: sharedGroups) that the caller may see; by name when sort is omitted.',
  })
  sharedGroups(@Root() g: Namespace, @Args() args: SharedGroupsArgs, @Ctx() ctx: RequestCtx): Promise<Page<Namespace>> {
    return ctx.loaders.sharedGroups.load({ parentId: g.id, args: { ...args } });
  }
}

import {
  ArgsType,
  Field,
  FieldResolver,
  Int,
  ObjectType,
  registerEnumType,
  Resolver,
  Root,
  type ClassType,
} from 'type-graphql';
import { ParamError } from '../errors/domain-errors';
import { GraphQLOnly } from '../graphql/graphql-only';
import { Internal } from '../graphql/internal';
import { decodeConnectionCursor, encodeOffsetCursor, type ConnectionCursor } from './cursor';

export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;

/**
 * Offset lists count at most COUNT_LIMIT + 1 rows (GitLab's Kaminari MAX_COUNT_LIMIT, REST API docs
 * "Pagination"): above COUNT_LIMIT the total is unknown (null), REST leaves out X-Total, X-Total-Pages
 * and rel="last", and whether a next page exists is read from one row more than per_page.
 */
export const COUNT_LIMIT = 10_000;

export enum PaginationMode {
  OFFSET = 'OFFSET',
  KEYSET = 'KEYSET',
}
registerEnumType(PaginationMode, { name: 'PaginationMode' });

/**
 * A list's arguments: REST's page/per_page, and the Relay connection arguments
 * (https://relay.dev/graphql/connections.htm, docs/graphql.md#connections-relay), which are GraphQL only:
 * REST routes derive no parameter from them (rest/derive-params.ts).
 */
@ArgsType()
export class PageArgs {
  @Internal()
  @Field(() => Int, { nullable: true, description: 'Page number (default 1; values below 1 mean 1).' })
  page?: number;

  @Internal()
  @Field(() => Int, { nullable: true, description: 'Items per page (default 20, at most 100).' })
  perPage?: number;

  @GraphQLOnly()
  @Field(() => Int, {
    nullable: true,
    description: 'The first n items after `after` (0 to 100, default 20; more is served as 100); not with `last`.',
  })
  first?: number | null;

  @GraphQLOnly()
  @Field(() => String, {
    nullable: true,
    description: 'Items after this cursor (an edge `cursor` or `pageInfo.endCursor`).',
  })
  after?: string | null;

  @GraphQLOnly()
  @Field(() => Int, {
    nullable: true,
    description: 'The last n items before `before` (0 to 100; more is served as 100), in list order; not with `first`.',
  })
  last?: number | null;

  @GraphQLOnly()
  @Field(() => String, {
    nullable: true,
    description: 'Items before this cursor (an edge `cursor` or `pageInfo.startCursor`).',
  })
  before?: string | null;
}

export interface ConnectionInput {
  page?: number | null;
  perPage?: number | null;
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
  /** The keyset arguments of lists that have them (KeysetArgs); they do not mix with the connection's. */
  pagination?: PaginationMode | null;
  cursor?: string | null;
}

/** Checked connection arguments: how many items, in which direction, between which cursors. */
export interface ConnectionRequest {
  /** Items to serve, 0 to MAX_PER_PAGE. */
  size: number;
  /** `last`: the list is read in reverse order from `before` (or its end), and the rows flipped back. */
  backward: boolean;
  after?: ConnectionCursor;
  before?: ConnectionCursor;
}

const given = (v: unknown) => v !== undefined && v !== null;

/** first/last: negative is an error (Relay spec), above MAX_PER_PAGE is served as MAX_PER_PAGE, like perPage. */
function connectionSize(name: string, n: number | null | undefined): number {
  if (!given(n)) return DEFAULT_PER_PAGE;
  if ((n as number) < 0) throw new ParamError(`${name} must not be negative`);
  return Math.min(n as number, MAX_PER_PAGE);
}

/**
 * The connection arguments of a list call, or null when none is given (the list is then paged by
 * page/perPage, or keyset, as before). Mixing them with page/perPage or the keyset arguments, or
 * first with last, is a 400 (BAD_USER_INPUT); cursors are checked here.
 */
export function connectionRequest(input: ConnectionInput): ConnectionRequest | null {
  // An empty cursor is no cursor (GitLab's frontend declares `$after: String = ""`). Read in place: every
  // REST list passes through here, and a copy of its arguments cost more than these checks.
  const afterCursor = input.after || null;
  const beforeCursor = input.before || null;
  if (!given(input.first) && !afterCursor && !given(input.last) && !beforeCursor) return null;
  if (given(input.page) || given(input.perPage))
    throw new ParamError('page and perPage cannot be combined with first, after, last or before');
  if (input.pagination === PaginationMode.KEYSET || given(input.cursor))
    throw new ParamError('pagination and cursor cannot be combined with first, after, last or before');
  if (given(input.first) && given(input.last))
    throw new ParamError('Can only provide either `first` or `last`, not both');
  const backward = given(input.last);
  const size = backward ? connectionSize('last', input.last) : connectionSize('first', input.first);
  const after = afterCursor ? decodeConnectionCursor(afterCursor) : undefined;
  const before = beforeCursor ? decodeConnectionCursor(beforeCursor) : undefined;
  if (after && before && after.kind !== before.kind) throw ParamError.invalid('cursor');
  return { size, backward, after, before };
}

/** The page size a list call serves (first/last, else perPage): what the cost model multiplies its selection by. */
export function servedPageSize(args: { perPage?: number | null; first?: number | null; last?: number | null }): number {
  const n = given(args.first) ? args.first : args.last;
  if (given(n)) return Math.max(0, Math.min(n as number, MAX_PER_PAGE));
  return normalizePage({ perPage: args.perPage }).perPage;
}

/**
 * The arguments of a list that also offers keyset pagination (docs/gitlab-compatibility.md,
 * "Pagination"), mixed into its argument class: `class GroupsArgs extends KeysetArgs(PageArgs, 'NAME or ID')`.
 * `orders` names the orders that support it, which the list enforces (list-query.ts `assertKeysetOrder`).
 */
export function KeysetArgs<TBase extends ClassType<PageArgs>>(Base: TBase, orders: string) {
  @ArgsType()
  class KeysetArgsClass extends Base {
    @Internal()
    @Field(() => PaginationMode, {
      nullable: true,
      description: `KEYSET: cursor pagination, no totals; order by ${orders} only (another order is an error, REST 405).`,
    })
    pagination?: PaginationMode;

    @Internal()
    @Field(() => String, { nullable: true, description: 'Keyset cursor from the previous page (`nextCursor`).' })
    cursor?: string;
  }
  return KeysetArgsClass;
}

export interface PageRequest {
  page: number;
  perPage: number;
  offset: number;
}

/** page < 1 → 1; per_page < 1 → 20; per_page > 100 → 100, silently (docs/gitlab-compatibility.md, "Pagination"). */
export function normalizePage(args: { page?: number | null; perPage?: number | null }): PageRequest {
  const page = args.page && args.page >= 1 ? Math.min(args.page, 1_000_000_000) : 1;
  const raw = args.perPage ?? DEFAULT_PER_PAGE;
  const perPage = raw < 1 ? DEFAULT_PER_PAGE : Math.min(raw, MAX_PER_PAGE);
  return { page, perPage, offset: (page - 1) * perPage };
}

export interface Page<T> {
  nodes: T[];
  /** null in keyset mode, where counting would defeat the purpose, and above COUNT_LIMIT rows. */
  total: number | null;
  page: number;
  perPage: number;
  totalPages: number | null;
  /** Whether a next page exists: from the count when it is exact, else from one row more than perPage. */
  hasNextPage: boolean;
  pagination: PaginationMode;
  /** Keyset mode: cursor of the next page, null on the last one. */
  nextCursor?: string | null;
  /**
   * The connection view of a page cut by cursor (first/after/last/before) or by keyset; absent on
   * offset pages, whose cursors are positions (`connectionOf`). Read only by the page type's field
   * resolvers, so REST and GraphQL queries that do not select edges/pageInfo/count never build it out.
   */
  connection?: ConnectionInfo;
}

export interface ConnectionInfo {
  /** The cursor of `nodes[i]`. */
  cursorAt(i: number): string;
  hasPreviousPage: boolean;
  hasNextPage: boolean;
  /** The bounded count of the whole filtered list (null above COUNT_LIMIT); queried on first use. */
  count(): Promise<number | null> | number | null;
}

/** An offset page's connection view: cursors are positions, the count is its bounded total. */
function connectionOf(page: Page<unknown>): ConnectionInfo {
  if (page.connection) return page.connection;
  const first = (page.page - 1) * page.perPage;
  return {
    cursorAt: (i) => encodeOffsetCursor(first + i),
    hasPreviousPage: page.page > 1,
    hasNextPage: page.hasNextPage,
    count: () => page.total,
  };
}

/**
 * An offset page from a bounded count (`counted` ≤ COUNT_LIMIT + 1) and up to perPage + 1 rows
 * (the extra row only says that a next page exists). At most COUNT_LIMIT rows: exact total and pages.
 */
export function makePage<T>(rows: T[], counted: number, req: PageRequest): Page<T> {
  const nodes = rows.length > req.perPage ? rows.slice(0, req.perPage) : rows;
  const base = { nodes, page: req.page, perPage: req.perPage, pagination: PaginationMode.OFFSET };
  if (counted > COUNT_LIMIT) return { ...base, total: null, totalPages: null, hasNextPage: rows.length > req.perPage };
  const totalPages = Math.max(1, Math.ceil(counted / req.perPage));
  return { ...base, total: counted, totalPages, hasNextPage: req.page < totalPages };
}

/**
 * A page of a list the service holds whole (a few hundred items at most, such as the feature flags):
 * the same arguments and position cursors as a list read from SQL (list-query.ts `positionPage`).
 */
export function pageOfList<T>(all: readonly T[], args: ConnectionInput): Page<T> {
  const conn = connectionRequest(args);
  if (!conn) {
    const req = normalizePage(args);
    return makePage(all.slice(req.offset, req.offset + req.perPage + 1), all.length, req);
  }
  if (conn.after?.kind === 'keyset' || conn.before?.kind === 'keyset') throw ParamError.invalid('cursor');
  const start = Math.min(conn.after ? conn.after.position + 1 : 0, all.length);
  const end = Math.min(conn.before ? conn.before.position : all.length, all.length);
  const from = conn.backward ? Math.max(start, end - conn.size) : start;
  const to = conn.backward ? end : Math.min(end, from + conn.size);
  const nodes = all.slice(from, Math.max(from, to));
  const connection: ConnectionInfo = {
    cursorAt: (i) => encodeOffsetCursor(from + i),
    hasNextPage: to < all.length,
    hasPreviousPage: from > 0,
    count: () => all.length,
  };
  return {
    nodes,
    total: null,
    page: 1,
    perPage: conn.size,
    totalPages: null,
    hasNextPage: connection.hasNextPage,
    pagination: PaginationMode.OFFSET,
    nextCursor: null,
    connection,
  };
}

const LIMIT_TEXT = COUNT_LIMIT.toLocaleString('en-US');

/** Relay's PageInfo (https://relay.dev/graphql/connections.htm#sec-undefined.PageInfo), shared by every list. */
@ObjectType('PageInfo', { description: 'Where a page of a list stands (Relay cursor connections).' })
export class PageInfoType {
  @Field(() => Boolean, {
    description: 'Whether items follow this page: from one row read beyond it; with `before`, true.',
  })
  hasNextPage!: boolean;

  @Field(() => Boolean, {
    description:
      'Whether items precede this page: from one row read beyond it with `last`; with `after`, true (as GitLab); page > 1 in page mode.',
  })
  hasPreviousPage!: boolean;

  @Field(() => String, { nullable: true, description: 'Cursor of the first item; null on an empty page.' })
  startCursor!: string | null;

  @Field(() => String, { nullable: true, description: 'Cursor of the last item; null on an empty page.' })
  endCursor!: string | null;
}

export interface Edge<T> {
  cursor: string;
  node: T;
  /** The page the edge belongs to: an edge field that depends on the list's parent reads it (`CiRunnerEdge.webUrl`). */
  page: Page<T>;
}

/** The page types' connection field resolvers, registered with the schema (core/graphql/schema.ts). */
const connectionResolvers: Function[] = [];
export const pageConnectionResolvers = (): readonly Function[] => connectionResolvers;

/** A list's page type `XConnection`: Relay's `nodes`, `edges`, `pageInfo`, `count` and, in the internal view, REST's page fields (total, page, perPage, totalPages, hasNextPage, pagination, nextCursor). */
export function PageType<T extends object>(item: ClassType<T>, name: string) {
  @ObjectType(name)
  class PageClass implements Page<T> {
    @Field(() => [item])
    nodes!: T[];

    @Internal()
    @Field(() => Int, {
      nullable: true,
      description: `Number of matching rows, counted up to ${LIMIT_TEXT} as GitLab's REST API does: null when more match (REST then omits X-Total), in keyset mode and with first/last (see count).`,
    })
    total!: number | null;

    @Internal()
    @Field(() => Int, { description: 'Page number served (1 in keyset mode).' })
    page!: number;

    @Internal()
    @Field(() => Int)
    perPage!: number;

    @Internal()
    @Field(() => Int, { nullable: true, description: 'Number of pages (at least 1); null when total is null.' })
    totalPages!: number | null;

    @Internal()
    @Field(() => Boolean, {
      description: 'Whether a next page exists (page + 1, or nextCursor in keyset mode), also when total is null.',
    })
    hasNextPage!: boolean;

    @Internal()
    @Field(() => PaginationMode, { description: 'How this page was cut: OFFSET (page numbers) or KEYSET (cursor).' })
    pagination!: PaginationMode;

    @Internal()
    @Field(() => String, { nullable: true, description: 'Keyset mode: pass as `cursor` for the next page.' })
    nextCursor?: string | null;
  }

  @ObjectType(`${name.replace(/Connection$/, '')}Edge`, {
    description: 'An item of a list with its cursor (Relay cursor connections).',
  })
  class EdgeClass implements Edge<T> {
    @Field(() => String, { description: 'Pass as `after` (or `before`) to continue from this item; opaque.' })
    cursor!: string;

    @Field(() => item)
    node!: T;

    page!: Page<T>;
  }

  // Built only when selected: REST documents select nodes and the page fields, never these.
  @Resolver(() => PageClass)
  class PageConnectionResolver {
    @FieldResolver(() => [EdgeClass], { description: 'The items with their cursors (Relay); as many as nodes.' })
    edges(@Root() page: Page<T>): Edge<T>[] {
      const c = connectionOf(page);
      return page.nodes.map((node, i) => ({ cursor: c.cursorAt(i), node, page }));
    }

    @FieldResolver(() => PageInfoType, { description: 'Cursors and neighbours of this page (Relay).' })
    pageInfo(@Root() page: Page<T>): PageInfoType {
      const c = connectionOf(page);
      const n = page.nodes.length;
      return {
        hasNextPage: c.hasNextPage,
        hasPreviousPage: c.hasPreviousPage,
        startCursor: n ? c.cursorAt(0) : null,
        endCursor: n ? c.cursorAt(n - 1) : null,
      };
    }

    @FieldResolver(() => Int, {
      nullable: true,
      description: `Number of items in the whole list with its filters (not only this page), counted up to ${LIMIT_TEXT}: null when more match, as the totals of GitLab's REST API.`,
    })
    count(@Root() page: Page<T>): Promise<number | null> | number | null {
      return connectionOf(page).count();
    }
  }
  connectionResolvers.push(PageConnectionResolver);
  edgeTypes.set(PageClass, EdgeClass);
  return PageClass;
}

const edgeTypes = new WeakMap<object, ClassType<object>>();

/** The edge type of a page type (`CiRunnerConnection` → `CiRunnerEdge`), for a module's edge fields. */
export function edgeTypeOf(pageType: object): ClassType<object> {
  const edge = edgeTypes.get(pageType);
  if (!edge) throw new Error('not a page type built by PageType');
  return edge;
}

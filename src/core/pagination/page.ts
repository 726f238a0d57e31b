import { ArgsType, Field, Int, ObjectType, registerEnumType, type ClassType } from 'type-graphql';

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

@ArgsType()
export class PageArgs {
  @Field(() => Int, { nullable: true, description: 'Page number (default 1; values below 1 mean 1).' })
  page?: number;

  @Field(() => Int, { nullable: true, description: 'Items per page (default 20, at most 100).' })
  perPage?: number;
}

/**
 * The arguments of a list that also offers keyset pagination (docs/gitlab-compatibility.md,
 * "Pagination"), mixed into its argument class: `class GroupsArgs extends KeysetArgs(PageArgs, 'NAME or ID')`.
 * `orders` names the orders that support it, which the list enforces (list-query.ts `assertKeysetOrder`).
 */
export function KeysetArgs<TBase extends ClassType<PageArgs>>(Base: TBase, orders: string) {
  @ArgsType()
  class KeysetArgsClass extends Base {
    @Field(() => PaginationMode, {
      nullable: true,
      description: `KEYSET: cursor pagination, no totals; order by ${orders} only (another order is an error, REST 405).`,
    })
    pagination?: PaginationMode;

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

const LIMIT_TEXT = COUNT_LIMIT.toLocaleString('en-US');

/** Generic GraphQL page type: `XPage { nodes, total, page, perPage, totalPages, hasNextPage, pagination, nextCursor }`. */
export function PageType<T extends object>(item: ClassType<T>, name: string) {
  @ObjectType(name)
  class PageClass implements Page<T> {
    @Field(() => [item])
    nodes!: T[];

    @Field(() => Int, {
      nullable: true,
      description: `Number of matching rows, counted up to ${LIMIT_TEXT} as GitLab's REST API does: null when more match (REST then omits X-Total) and in keyset mode.`,
    })
    total!: number | null;

    @Field(() => Int, { description: 'Page number served (1 in keyset mode).' })
    page!: number;

    @Field(() => Int)
    perPage!: number;

    @Field(() => Int, { nullable: true, description: 'Number of pages (at least 1); null when total is null.' })
    totalPages!: number | null;

    @Field(() => Boolean, { description: 'Whether a next page exists (page + 1, or nextCursor in keyset mode), also when total is null.' })
    hasNextPage!: boolean;

    @Field(() => PaginationMode, { description: 'How this page was cut: OFFSET (page numbers) or KEYSET (cursor).' })
    pagination!: PaginationMode;

    @Field(() => String, { nullable: true, description: 'Keyset mode: pass as `cursor` for the next page.' })
    nextCursor?: string | null;
  }
  return PageClass;
}

import { ArgsType, Field, Int, ObjectType, type ClassType } from 'type-graphql';

export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;

@ArgsType()
export class PageArgs {
  @Field(() => Int, { nullable: true, description: 'Page number (default 1; values below 1 mean 1).' })
  page?: number;

  @Field(() => Int, { nullable: true, description: 'Items per page (default 20, at most 100).' })
  perPage?: number;
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
  /** null in keyset mode, where counting would defeat the purpose. */
  total: number | null;
  page: number;
  perPage: number;
  totalPages: number | null;
  /** Keyset mode: cursor of the next page, null on the last one. */
  nextCursor?: string | null;
}

export function makePage<T>(nodes: T[], total: number, req: PageRequest): Page<T> {
  return { nodes, total, page: req.page, perPage: req.perPage, totalPages: Math.max(1, Math.ceil(total / req.perPage)) };
}

/** Generic GraphQL page type: `XPage { nodes, total, page, perPage, totalPages }`. */
export function PageType<T extends object>(item: ClassType<T>, name: string) {
  @ObjectType(name)
  class PageClass implements Page<T> {
    @Field(() => [item])
    nodes!: T[];

    @Field(() => Int, { nullable: true, description: 'null in keyset pagination mode.' })
    total!: number | null;

    @Field(() => Int)
    page!: number;

    @Field(() => Int)
    perPage!: number;

    @Field(() => Int, { nullable: true })
    totalPages!: number | null;

    @Field(() => String, { nullable: true, description: 'Keyset mode: pass as `cursor` for the next page.' })
    nextCursor?: string | null;
  }
  return PageClass;
}

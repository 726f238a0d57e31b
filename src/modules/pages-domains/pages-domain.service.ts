import { byId, claimForDelete } from '../../core/db/delete-claim';
import type { RequestCtx } from '../../core/context/request-ctx';
import { changedActions, recordAudit, type AuditAction } from '../../core/events/audit';
import { projectAuditEntity, projectVisibility } from '../projects';
import { requireUser } from '../../core/auth/guards';
import { onUniqueViolation } from '../../core/db/unique-violation';
import { lightEntity, pgArray, sqlRows } from '../../core/db/sql';
import { policy } from '../access';
import { ForbiddenError, NotFoundError, ParamError, ValidationError } from '../../core/errors/domain-errors';
import { MSG } from '../../core/errors/messages';
import { offsetPage, offsetPagesByKey, type ListQuery } from '../../core/pagination/list-query';
import type { Page, PageArgs } from '../../core/pagination/page';
import type { Project } from '../projects';
import { joinProject, projectService } from '../projects';
import { certificateSubject, certificateText } from './pages-certificate-text';
import { pagesConfig } from './pages-config';
import { PagesDomain } from './pages-domain.entity';
import type { CreatePagesDomainInput, ProjectPagesDomainsArgs, UpdatePagesDomainInput } from './pages-domain.type';
import { validatePagesDomain, type DomainDraft } from './pages-domain.validation';
import { projectPolicy } from '../projects';

/** "Pages feature must be enabled" (spec 4.24): 404 "404 Not Found" for everyone, admins included. */
function requireEnabled(ctx: RequestCtx): void {
  if (!pagesConfig(ctx.env).enabled) throw NotFoundError.bare();
}

/** GitLab's route-level checks for GET /pages/domains: 401, pages switch (404), then admin (403). */
export async function instanceFilter(ctx: RequestCtx): Promise<void> {
  requireUser(ctx);
  requireEnabled(ctx);
  if (!policy.isAdmin(ctx.user)) throw new ForbiddenError();
}

/** GitLab's route-level checks for project routes: the project (404 Project Not Found), then the pages switch. */
export async function projectFilter(ctx: RequestCtx, idOrPath: string): Promise<Project> {
  requireUser(ctx);
  const key = `pages:project:${idOrPath}`;
  let hit = ctx.memo.get(key) as Promise<Project> | undefined;
  if (!hit) {
    hit = projectService.findVisible(ctx, idOrPath);
    ctx.memo.set(key, hit);
  }
  const project = await hit;
  requireEnabled(ctx);
  return project;
}

/** read_pages / update_pages: Master or Owner on the project, or an admin (spec 4.25-4.29). */
async function authorizePages(ctx: RequestCtx, project: Project): Promise<void> {
  if (!projectPolicy.canAdminProject(ctx.user, await projectService.accessLevel(ctx, project)))
    throw new ForbiddenError();
}

/** Grape's rules for certificate/key: allow_blank false, and on create all_or_none_of (spec 4.27). */
function checkParams(input: UpdatePagesDomainInput, create: boolean): void {
  const problems: string[] = [];
  for (const name of ['certificate', 'key'] as const) {
    const v = input[name];
    if (v !== undefined && v !== null && v.trim() === '') problems.push(`${name} is empty`);
  }
  const given = [input.certificate, input.key].filter((v) => v !== undefined && v !== null).length;
  if (create && given === 1) problems.push('certificate, key provide all or none of parameters');
  if (problems.length) throw new ParamError(problems.join(', '));
}

/** Domains are stored in lower case (ASCII: the hostname rules allow nothing else). */
const lowerDomain = (domain: string): string => domain.replace(/[A-Z]+/g, (s) => s.toLowerCase());

/**
 * Found whatever the case of `domain` (GitLab 10.3's `find_by!(domain:)` is exact, but it stores what
 * it was given; we store lower case, so `WWW.Example.org` and `www.example.org` name the same row).
 */
async function find(ctx: RequestCtx, project: Project, domain: string): Promise<PagesDomain> {
  const row = await ctx.em.findOne(PagesDomain, { projectId: project.id, domain: lowerDomain(domain) });
  if (!row) throw new NotFoundError('PagesDomain');
  return row;
}

/** What a list reads; the certificate columns (up to about 400,000 characters a row) only when asked for. */
export interface PagesDomainListOpts {
  certificates: boolean;
}

/**
 * A list that does not show certificates reads none: `certificate` is then '' for a domain that has one
 * (enough for `url`), null otherwise, and the rows are detached (lightEntity), never flushed.
 */
const LIGHT_COLUMNS = `d.id, d.project_id, d.domain, case when d.certificate is null then null else '' end as certificate,
  d.certificate_not_before, d.certificate_not_after, d.created_at, d.updated_at`;

/** The pages_domains rows of a list (the caller adds which domains), through the one list builder. */
function domainQuery(ctx: RequestCtx, orderBy: string, opts: PagesDomainListOpts): ListQuery<PagesDomain> {
  const map = opts.certificates
    ? (row: Record<string, unknown>) => ctx.em.map(PagesDomain, row as never)
    : (row: Record<string, unknown>) => lightEntity(ctx.em, PagesDomain, row);
  return {
    select: opts.certificates ? 'd.*' : LIGHT_COLUMNS,
    from: 'pages_domains d',
    where: [],
    params: [],
    orderBy,
    dir: 'asc',
    id: 'd.id',
    map,
  };
}

/** The pages_domains rows of a list, through the one list builder (count + page + id tie-break). */
function listOf(
  ctx: RequestCtx,
  where: string[],
  params: unknown[],
  orderBy: string,
  args: PageArgs,
  opts: PagesDomainListOpts,
): Promise<Page<PagesDomain>> {
  return offsetPage(ctx.em, { ...domainQuery(ctx, orderBy, opts), where, params }, args);
}

/**
 * `Project.pagesDomains` of many projects: null while pages are disabled (REST answers 404); the resolver
 * checked the caller's level. One bounded count and one page statement per argument set, by domain.
 */
function listForProjects(
  ctx: RequestCtx,
  ids: number[],
  args: PageArgs,
  opts: PagesDomainListOpts,
): Promise<Map<number, Page<PagesDomain>>> {
  return offsetPagesByKey(ctx.em, domainQuery(ctx, 'd.domain', opts), 'd.project_id', ids, args);
}

/** Whether pages are served (GitLab's `pages` switch): the nested list is null without them. */
const pagesEnabled = (ctx: RequestCtx): boolean => pagesConfig(ctx.env).enabled;

async function listAll(ctx: RequestCtx, args: PageArgs, opts: PagesDomainListOpts): Promise<Page<PagesDomain>> {
  await instanceFilter(ctx);
  return listOf(ctx, [], [], 'd.id', args, opts);
}

/** Ordered by domain (index pages_domains (project_id, domain)). */
async function listProject(
  ctx: RequestCtx,
  args: ProjectPagesDomainsArgs,
  opts: PagesDomainListOpts,
): Promise<Page<PagesDomain>> {
  const project = await projectFilter(ctx, args.projectId);
  await authorizePages(ctx, project);
  return listOf(ctx, ['d.project_id = ?'], [project.id], 'd.domain', args, opts);
}

async function get(ctx: RequestCtx, projectId: string, domain: string): Promise<PagesDomain> {
  const project = await projectFilter(ctx, projectId);
  await authorizePages(ctx, project);
  return find(ctx, project, domain);
}

/**
 * Validates the draft, then stores it: key sealed; the leaf's validity, subject and text dump computed
 * here, once, so that reads never parse a certificate. A lost race is "has already been taken".
 */
async function save(ctx: RequestCtx, row: PagesDomain, draft: DomainDraft): Promise<PagesDomain> {
  const { bag, parsed } = await validatePagesDomain(ctx, draft);
  if (!bag.empty) throw new ValidationError(bag.errors);
  const subjectBefore = draft.id === undefined ? undefined : row.certificateSubject;
  row.domain = draft.domain;
  row.certificate = draft.certificate;
  row.sealedKey =
    draft.key === null
      ? null
      : ctx.secrets.seal(draft.key, {
          table: 'pages_domains',
          column: 'sealed_key',
          row: `${row.projectId}:${row.domain.toLowerCase()}`,
        });
  row.certificateNotBefore = parsed.leaf?.notBefore ?? null;
  row.certificateNotAfter = parsed.leaf?.notAfter ?? null;
  row.certificateSubject = parsed.leaf ? certificateSubject(parsed.leaf) : null;
  row.certificateText = parsed.leaf ? certificateText(parsed.leaf) : null;
  row.updatedAt = ctx.clock.now();
  const entity = await projectAuditEntity(ctx, row.projectId);
  // Audited: the domain added, or its certificate (by subject and expiry; never the key) changed.
  const actions: AuditAction[] =
    subjectBefore === undefined
      ? [{ add: 'pages_domain' }]
      : changedActions([
          {
            name: 'certificate',
            from: subjectBefore ?? 'none',
            to: row.certificateSubject
              ? `${row.certificateSubject} (expires ${row.certificateNotAfter?.toISOString()})`
              : 'none',
          },
        ]);
  await onUniqueViolation(
    () =>
      ctx.em.transactional(async (em) => {
        em.persist(row);
        await em.flush();
        await recordAudit(
          ctx,
          em,
          actions.map((action) => ({
            ...entity,
            targetType: 'PagesDomain',
            targetId: row.id,
            targetDetails: row.domain,
            action,
          })),
        );
      }),
    () => new ValidationError({ domain: [MSG.taken] }),
  );
  return row;
}

async function create(ctx: RequestCtx, projectId: string, input: CreatePagesDomainInput): Promise<PagesDomain> {
  const project = await projectFilter(ctx, projectId);
  checkParams(input, true);
  await authorizePages(ctx, project);
  const domain = lowerDomain(input.domain);
  const row = ctx.em.create(PagesDomain, {
    projectId: project.id,
    domain,
    createdAt: ctx.clock.now(),
    updatedAt: ctx.clock.now(),
  });
  return save(ctx, row, { id: undefined, domain, certificate: input.certificate ?? null, key: input.key ?? null });
}

/**
 * GitLab's update semantics (spec 4.28): neither given clears both; a certificate alone keeps the
 * stored key (and must match it); a key alone clears the certificate (and so fails the match rule).
 */
async function update(
  ctx: RequestCtx,
  projectId: string,
  domain: string,
  input: UpdatePagesDomainInput,
): Promise<PagesDomain> {
  const project = await projectFilter(ctx, projectId);
  checkParams(input, false);
  await authorizePages(ctx, project);
  const row = await find(ctx, project, domain);
  const certificate = input.certificate ?? null;
  const storedKey =
    row.sealedKey === null
      ? null
      : ctx.secrets.openOrNull(row.sealedKey, {
          table: 'pages_domains',
          column: 'sealed_key',
          row: `${row.projectId}:${row.domain.toLowerCase()}`,
        });
  const key = input.key ?? (certificate !== null ? storedKey : null);
  return save(ctx, row, { id: row.id, domain: row.domain, certificate, key });
}

async function remove(ctx: RequestCtx, projectId: string, domain: string): Promise<boolean> {
  const project = await projectFilter(ctx, projectId);
  await authorizePages(ctx, project);
  const row = await find(ctx, project, domain);
  const entity = await projectAuditEntity(ctx, row.projectId);
  await ctx.em.transactional(async (em) => {
    await claimForDelete(ctx, em, byId('pages_domains', row.id, 'PagesDomain'));
    await em.nativeDelete(PagesDomain, { id: row.id });
    await recordAudit(ctx, em, [
      {
        ...entity,
        targetType: 'PagesDomain',
        targetId: row.id,
        targetDetails: row.domain,
        action: { remove: 'pages_domain' },
      },
    ]);
  });
  return true;
}

/**
 * node(id)/nodes(ids): the domains among these ids the caller may read, as `pagesDomain(...)` checks
 * them (pages enabled, visible project, Master or above): one statement, levels batched.
 */
async function visibleByIds(ctx: RequestCtx, ids: readonly (number | string)[]): Promise<PagesDomain[]> {
  if (!ctx.user || !pagesConfig(ctx.env).enabled) return [];
  // Light rows: the certificate resolver reads the long columns of the domains it is asked for (pagesCertificate).
  const rows = await sqlRows(
    ctx.em,
    `select ${LIGHT_COLUMNS} from pages_domains d ${joinProject('d.project_id')}
    where d.id = any(?::int[]) and ${await projectVisibility(ctx, 'p')}`,
    [pgArray(ids.map(Number))],
  );
  const levels = await Promise.all(rows.map((r) => ctx.loaders.projectLevel.load(Number(r.project_id))));
  return rows
    .filter((_, i) => projectPolicy.canAdminProject(ctx.user, levels[i]))
    .map((r) => lightEntity(ctx.em, PagesDomain, r));
}

export const pagesDomainService = {
  listAll,
  listProject,
  listForProjects,
  pagesEnabled,
  get,
  create,
  update,
  remove,
  visibleByIds,
};

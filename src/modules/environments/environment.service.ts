import { byId, claimForDelete } from '../../core/db/delete-claim';
import type { RequestCtx } from '../../core/context/request-ctx';
import { changedActions, recordAudit, type AuditAction } from '../../core/events/audit';
import { projectAuditEntity, projectVisibility } from '../projects';
import { requireUser } from '../../core/auth/guards';
import { onUniqueViolation } from '../../core/db/unique-violation';
import { lightEntity, pgArray, sqlRows } from '../../core/db/sql';
import { ForbiddenError, NotFoundError, ParamError, ValidationError } from '../../core/errors/domain-errors';
import { MSG } from '../../core/errors/messages';
import { offsetPage, offsetPagesByKey, type ListQuery, type PageInput } from '../../core/pagination/list-query';
import type { Page } from '../../core/pagination/page';
import { patchEntity } from '../../core/patch/patch-entity';
import type { Project } from '../projects';
import { joinProject, projectService } from '../projects';
import { Environment } from './environment.entity';
import { generateSlug } from './environment-slug';
import type { EnvironmentsArgs } from './environment.type';
import {
  UpdateEnvironmentInput,
  type CreateEnvironmentArgs,
  type CreateEnvironmentInput,
  type EnvironmentAttributesInput,
  type EnvironmentTargetArgs,
  type UpdateEnvironmentArgs,
} from './environment.inputs';
import { blankToNull, validateEnvironment } from './environment.validation';
import { idOrFullPath, type IdOrPath } from '../../core/params/parse-id-or-path';
import { environmentPolicy, type EnvironmentAction } from './environment.policy';

/** The project (404 when invisible) if the caller may do `action` on its environments (else 403). */
export async function projectFor(
  ctx: RequestCtx,
  idOrPath: string | IdOrPath,
  action: EnvironmentAction,
): Promise<Project> {
  const user = requireUser(ctx);
  const project = await projectService.findVisible(ctx, idOrPath);
  if (
    !environmentPolicy.canEnvironment(user, await projectService.accessLevel(ctx, project), project.jobsEnabled, action)
  )
    throw new ForbiddenError();
  ctx.loaders.environmentProject.prime(project.id, project);
  return project;
}

/** GitLab's generic record lookup: an unknown id or another project's environment is "404 Not found". */
async function find(ctx: RequestCtx, project: Project, environmentId: number): Promise<Environment> {
  const env = await ctx.em.findOne(Environment, { id: environmentId, projectId: project.id });
  if (!env) throw new NotFoundError();
  return env;
}

/** Environments by id; the caller adds which project(s). Index environments (project_id, id) serves the filter and the order. */
function environmentQuery(ctx: RequestCtx): ListQuery<Environment> {
  return {
    select: 'e.*',
    from: 'environments e',
    where: [],
    params: [],
    orderBy: 'e.id',
    dir: 'asc',
    id: 'e.id',
    map: (row) => ctx.em.map(Environment, row as never),
  };
}

async function list(ctx: RequestCtx, args: EnvironmentsArgs): Promise<Page<Environment>> {
  const project = await projectFor(ctx, args.projectId, 'read');
  const query = environmentQuery(ctx);
  query.where.push('e.project_id = ?');
  query.params.push(project.id);
  return offsetPage(ctx.em, query, args);
}

/**
 * The same list for several projects at once (`Project.environments` across a project list; the caller
 * checked who may read each): one round trip.
 */
async function listForProjects(
  ctx: RequestCtx,
  projectIds: readonly number[],
  args: PageInput,
): Promise<Map<number, Page<Environment>>> {
  return offsetPagesByKey(ctx.em, environmentQuery(ctx), 'e.project_id', projectIds, args);
}

async function get(ctx: RequestCtx, projectId: string, environmentId: number): Promise<Environment> {
  return find(ctx, await projectFor(ctx, projectId, 'read'), environmentId);
}

/** Validates, then flushes; a lost race on a unique index ends as the same 400 as a detected duplicate. */
async function save(
  ctx: RequestCtx,
  env: Environment,
  input: EnvironmentAttributesInput,
  audit: (e: Environment) => AuditAction[],
): Promise<Environment> {
  const bag = await validateEnvironment(ctx, env, input);
  if (!bag.empty) throw new ValidationError(bag.errors);
  env.updatedAt = ctx.clock.now();
  const entity = await projectAuditEntity(ctx, env.projectId);
  await onUniqueViolation(
    () =>
      ctx.em.transactional(async (em) => {
        em.persist(env);
        await em.flush();
        await recordAudit(
          ctx,
          em,
          audit(env).map((action) => ({
            ...entity,
            targetType: 'Environment',
            targetId: env.id,
            targetDetails: env.name,
            action,
          })),
        );
      }),
    (e) => {
      const field = String((e as { constraint?: string }).constraint).includes('slug') ? 'slug' : 'name';
      return new ValidationError({ [field]: [MSG.taken] });
    },
  );
  return env;
}

/** The project a create names: GitLab's `projectPath` (GraphQL), or REST's `projectId` (id or full path). */
function projectToCreateIn(args: Pick<CreateEnvironmentArgs, 'projectId' | 'projectPath'>): string | IdOrPath {
  if (args.projectPath !== undefined && args.projectPath !== null)
    return idOrFullPath(null, args.projectPath, ['Project']);
  if (args.projectId !== undefined && args.projectId !== null) return args.projectId;
  throw ParamError.missing('projectPath');
}

/** The input fields not stored as they are: the cluster fields are checked (validation.ts), never copied. */
const UNSTORED = {
  externalUrl: 'skip',
  clusterAgentId: 'skip',
  kubernetesNamespace: 'skip',
  fluxResourcePath: 'skip',
} as const;

async function create(ctx: RequestCtx, args: CreateEnvironmentArgs): Promise<Environment> {
  const input: CreateEnvironmentInput = args.input;
  const project = await projectFor(ctx, projectToCreateIn(args), 'create');
  const env = ctx.em.create(Environment, {
    projectId: project.id,
    name: input.name,
    slug: generateSlug(input.name, ctx.random),
    externalUrl: blankToNull(input.externalUrl),
    description: input.description ?? null,
    state: 'available',
    createdAt: ctx.clock.now(),
    updatedAt: ctx.clock.now(),
  });
  return save(ctx, env, input, () => [{ add: 'environment' }]);
}

/**
 * The environment a write names: GitLab's global `id` (GraphQL; its project is the environment's), or
 * REST's project and environment ids. An environment that does not exist is GitLab's "404 Not found".
 */
async function environmentTarget(
  ctx: RequestCtx,
  args: EnvironmentTargetArgs,
): Promise<{ project: string | IdOrPath; environmentId: number }> {
  if (args.id !== undefined && args.id !== null) {
    const [row] = await sqlRows<{ project_id: number }>(ctx.em, 'select project_id from environments where id = ?', [
      args.id,
    ]);
    if (!row) throw new NotFoundError();
    return { project: { id: Number(row.project_id) }, environmentId: args.id };
  }
  if (args.projectId === undefined || args.projectId === null) throw ParamError.missing('id');
  if (args.environmentId === undefined || args.environmentId === null) throw ParamError.missing('environment_id');
  return { project: args.projectId, environmentId: args.environmentId };
}

/** Name (REST), external_url and description; the slug stays what it was (spec 4.32). */
async function update(ctx: RequestCtx, args: UpdateEnvironmentArgs): Promise<Environment> {
  const input = args.input;
  const target = await environmentTarget(ctx, args);
  const env = await find(ctx, await projectFor(ctx, target.project, 'update'), target.environmentId);
  const before = { name: env.name, external_url: env.externalUrl };
  patchEntity(env, input, UpdateEnvironmentInput, UNSTORED);
  // An empty external_url is "sent" (null/undefined mean unchanged) and clears the URL.
  if (input.externalUrl !== undefined && input.externalUrl !== null) env.externalUrl = blankToNull(input.externalUrl);
  return save(ctx, env, input, (e) =>
    changedActions([
      { name: 'name', from: before.name, to: e.name },
      { name: 'external_url', from: before.external_url, to: e.externalUrl },
    ]),
  );
}

/** GitLab 10.3 deletes an environment in any state. */
async function remove(ctx: RequestCtx, args: EnvironmentTargetArgs): Promise<boolean> {
  const target = await environmentTarget(ctx, args);
  const env = await find(ctx, await projectFor(ctx, target.project, 'destroy'), target.environmentId);
  const entity = await projectAuditEntity(ctx, env.projectId);
  await ctx.em.transactional(async (em) => {
    await claimForDelete(ctx, em, byId('environments', env.id));
    await em.nativeDelete(Environment, { id: env.id });
    await recordAudit(ctx, em, [
      {
        ...entity,
        targetType: 'Environment',
        targetId: env.id,
        targetDetails: env.name,
        action: { remove: 'environment' },
      },
    ]);
  });
  return true;
}

/**
 * available → stopped; stopping a stopped environment changes nothing (both 200). The change is one
 * conditional UPDATE, so of concurrent stops exactly one records the state change (audit event).
 */
async function stop(ctx: RequestCtx, args: EnvironmentTargetArgs): Promise<Environment> {
  const target = await environmentTarget(ctx, args);
  const env = await find(ctx, await projectFor(ctx, target.project, 'stop'), target.environmentId);
  if (env.state === 'available') {
    const now = ctx.clock.now();
    const entity = await projectAuditEntity(ctx, env.projectId);
    await ctx.em.transactional(async (em) => {
      const changed = await sqlRows(
        em,
        "update environments set state = 'stopped', updated_at = ? where id = ? and state = 'available' returning id",
        [now, env.id],
      );
      if (changed.length > 0) {
        await recordAudit(ctx, em, [
          {
            ...entity,
            targetType: 'Environment',
            targetId: env.id,
            targetDetails: env.name,
            action: { change: 'state', from: 'available', to: 'stopped' },
          },
        ]);
      }
    });
    // The answer shows the row as it is now (stopped by this request or by a concurrent one).
    await ctx.em.refresh(env);
  }
  return env;
}

/**
 * node(id)/nodes(ids): the environments among these ids the caller may read, as `environment(...)`
 * checks them (visible project, then the environment policy at the caller's level): one statement,
 * the levels batched by the projectLevel loader.
 */
async function visibleByIds(ctx: RequestCtx, ids: readonly (number | string)[]): Promise<Environment[]> {
  const user = ctx.user;
  if (!user) return [];
  const rows = await sqlRows<Record<string, unknown> & { jobs_enabled: boolean }>(
    ctx.em,
    `select e.*, p.jobs_enabled from environments e
    ${joinProject('e.project_id')} where e.id = any(?::int[]) and ${await projectVisibility(ctx, 'p')}`,
    [pgArray(ids.map(Number))],
  );
  const levels = await Promise.all(rows.map((r) => ctx.loaders.projectLevel.load(Number(r.project_id))));
  return rows
    .filter((r, i) => environmentPolicy.canEnvironment(user, levels[i], r.jobs_enabled, 'read'))
    .map((r) => lightEntity(ctx.em, Environment, r));
}

export const environmentService = { list, listForProjects, get, create, update, remove, stop, visibleByIds };

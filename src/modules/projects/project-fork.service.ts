import { checkUnmodifiedSince } from '../../core/db/delete-claim';
import type { RequestCtx } from '../../core/context/request-ctx';
import { requireUser } from '../../core/auth/guards';
import { sqlRows } from '../../core/db/sql';
import {
  ConflictError,
  ForbiddenError,
  LimitReachedError,
  NotFoundError,
  ValidationError,
} from '../../core/errors/domain-errors';
import { UploadedFile } from '../../core/http/uploaded-file';
import type { Page } from '../../core/pagination/page';
import { policy, VISIBILITY_LEVEL, toVisibility } from '../access';
import { visibilityRestriction } from '../application-settings';
import { avatarFileOf } from '../avatars';
import { findNamespaceByPathOrName, type Namespace } from '../namespaces';
import { findUser } from '../users';
import { countForkChange } from './forks-count';
import { Project } from './project.entity';
import type { CreateProjectInput, ProjectFilterArgs } from './project.inputs';
import { projectService } from './project.service';
import { projectPolicy } from './project.policy';

/**
 * Forks without repositories (GitLab 10.3's Projects::ForkService, lib/api/projects.rb): a fork is a
 * new project with the source's name, path, description, visibility, shared runners, jobs setting and
 * avatar, linked by `forked_from_project_id`; there is no repository to copy. Creating one for another
 * user (POST /projects/user/:user_id) runs the same create as POST /projects, as that user.
 */

/** `can?(user, :create_projects, namespace)`: the owner of a personal namespace, Master of a group, or an admin. */
async function canCreateIn(ctx: RequestCtx, ns: Namespace): Promise<boolean> {
  const user = requireUser(ctx);
  if (ns.kind === 'user') return projectPolicy.canCreateProjectInUserNamespace(user, ns.ownerId);
  return projectPolicy.canCreateProjectInGroup(user, await ctx.loaders.groupLevel.load(ns.id));
}

/** ForkService#allowed_visibility_level: the source's level unless restricted, else the highest unrestricted one. */
async function forkVisibility(ctx: RequestCtx, level: number): Promise<number> {
  if (!(await visibilityRestriction(ctx, level))) return level;
  for (const l of [VISIBILITY_LEVEL.PUBLIC, VISIBILITY_LEVEL.INTERNAL])
    if (!(await visibilityRestriction(ctx, l))) return l;
  return VISIBILITY_LEVEL.PRIVATE;
}

/** The fork's errors as 10.3's `conflict!(forked_project.errors.messages)`: 409 {"message": {"field": [...]}}. */
function asConflict(e: unknown): never {
  if (e instanceof ValidationError) throw new ConflictError(e.message, e.fields);
  if (e instanceof LimitReachedError) throw new ConflictError(e.message, { limit_reached: e.messages });
  throw e;
}

/** The source's avatar as a file to store for the fork (ForkService copies an image avatar). */
async function avatarOf(ctx: RequestCtx, source: Project): Promise<UploadedFile | undefined> {
  if (!source.avatar) return undefined;
  return avatarFileOf(ctx.em, 'project', source.id);
}

/** POST /projects/:id/fork: into the caller's namespace, or `namespace` (id, path or name; 404 Target Namespace). */
async function fork(ctx: RequestCtx, idOrPath: string, namespaceRef?: string | null): Promise<Project> {
  const user = requireUser(ctx);
  const source = await projectService.findVisible(ctx, idOrPath);
  let namespaceId = user.namespaceId ?? undefined;
  if (namespaceRef) {
    const ns = await findNamespaceByPathOrName(ctx.em, namespaceRef);
    if (!ns || !(await canCreateIn(ctx, ns))) throw new NotFoundError('Target Namespace');
    namespaceId = ns.id;
  }
  // :fork_project: Reporter or above, or a project public (internal: for non-external users) to the caller.
  const level = await projectService.accessLevel(ctx, source);
  const open =
    source.visibilityLevel === VISIBILITY_LEVEL.PUBLIC ||
    (source.visibilityLevel === VISIBILITY_LEVEL.INTERNAL && !user.external);
  if (!projectPolicy.canForkProject(user, level, open))
    throw new ConflictError('forked_from_project_id is forbidden', { forked_from_project_id: ['is forbidden'] });
  const visibility = await forkVisibility(ctx, source.visibilityLevel);
  if (visibility > source.visibilityLevel) {
    const name = toVisibility(visibility).toLowerCase();
    throw new ConflictError(`visibility_level ${name}`, {
      visibility_level: [`${name} is not allowed since the fork source project has lower visibility.`],
    });
  }
  const input: CreateProjectInput = {
    name: source.name,
    path: source.path,
    description: source.description,
    visibility: toVisibility(visibility),
    sharedRunnersEnabled: source.sharedRunnersEnabled,
    jobsEnabled: source.jobsEnabled,
    namespaceId,
    avatar: await avatarOf(ctx, source),
  };
  return projectService.create(ctx, input, { forkOf: source }).catch(asConflict);
}

/** POST /projects/:id/fork/:forked_from_id (admin): links an existing project as a fork; 409 when it already is one. */
async function link(ctx: RequestCtx, idOrPath: string, forkedFromId: string): Promise<Project> {
  if (!policy.isAdmin(requireUser(ctx))) throw new ForbiddenError();
  const source = await projectService.findVisible(ctx, forkedFromId);
  const project = await projectService.findVisible(ctx, idOrPath);
  const linked = await ctx.em.transactional(async (em) => {
    const rows = await sqlRows(
      em,
      'update projects set forked_from_project_id = ? where id = ? and forked_from_project_id is null returning id',
      [source.id, project.id],
    );
    if (rows.length > 0) await countForkChange(em, source.id, 1);
    return rows.length > 0;
  });
  if (!linked) throw new ConflictError('Project already forked');
  return projectService.findVisible(ctx, String(project.id));
}

/** DELETE /projects/:id/fork (Owner or admin): true when the link was removed (204), false when it was no fork (304). */
async function unlink(ctx: RequestCtx, idOrPath: string): Promise<boolean> {
  const user = requireUser(ctx);
  const project = await projectService.findVisible(ctx, idOrPath);
  if (!projectPolicy.canDeleteProject(user, await projectService.accessLevel(ctx, project))) throw new ForbiddenError();
  return ctx.em.transactional(async (em) => {
    // The link read under the row's lock: of two parallel unlinks the second waits, then finds none (304).
    // GitLab's destroy_conditionally!(user_project): If-Unmodified-Since against the project, before the 304.
    const [row] = await sqlRows<{ source: number | null; updated_at: Date }>(
      em,
      'select forked_from_project_id as source, updated_at from projects where id = ? for update',
      [project.id],
    );
    if (!row) throw new NotFoundError('Project');
    checkUnmodifiedSince(ctx, new Date(row.updated_at));
    if (row.source === null) return false;
    await sqlRows(em, 'update projects set forked_from_project_id = null where id = ?', [project.id]);
    await countForkChange(em, Number(row.source), -1);
    return true;
  });
}

/** GET /projects/:id/forks: the forks the caller may see, with the projects list's filters, order and pages. */
async function forks(ctx: RequestCtx, idOrPath: string, args: ProjectFilterArgs): Promise<Page<Project>> {
  const source = await projectService.findVisible(ctx, idOrPath);
  return projectService.list(ctx, args, { forkedFrom: source.id });
}

/** POST /projects/user/:user_id (admin): POST /projects as that user (their namespace, permissions and projects_limit). */
async function createForUser(ctx: RequestCtx, userId: number, input: CreateProjectInput): Promise<Project> {
  if (!policy.isAdmin(requireUser(ctx))) throw new ForbiddenError();
  const creator = userId > 2147483647 ? null : await findUser(ctx.em, userId);
  if (!creator) throw new NotFoundError('User');
  // 10.3 renders this route's failures with render_validation_error!: a reached limit is a 400 here, not POST /projects' 403.
  return projectService.create(ctx, input, { creator }).catch((e: unknown) => {
    throw e instanceof LimitReachedError ? new ValidationError({ limit_reached: e.messages }) : e;
  });
}

export const projectForkService = { fork, link, unlink, forks, createForUser };

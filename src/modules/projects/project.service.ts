import { assertOptionalDate } from '../../core/params/coerce';
import { changes, recordAudit } from '../../core/events/audit';
import { emitSystemEvents } from '../../core/events/system-events';
import {
  forgetAccess,
  groupVisibility,
  memberProjects,
  projectVisibility,
  projectVisibilitySplit,
} from './project-visibility';
import { AccessLevel, SHARE_ACCESS_LEVELS, policy, VISIBILITY_LEVEL, toVisibility, addProjectMember } from '../access';
import { byId, claimForDelete } from '../../core/db/delete-claim';
import type { CurrentUser, RequestCtx } from '../../core/context/request-ctx';
import { lightEntity, pgArray, sqlEntities, sqlRows, takenField } from '../../core/db/sql';
import { projectNamespaceSearch, projectSearch } from './project-search';
import { archivedFilter, gitlabFilters, listOrder } from './project-list-filters';
import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  LimitReachedError,
  NotFoundError,
  ParamError,
  ValidationError,
} from '../../core/errors/domain-errors';
import { assertKeysetOrder, keysetPage, offsetPage, type ListQuery } from '../../core/pagination/list-query';
import { PaginationMode, type Page } from '../../core/pagination/page';
import { parseIdOrPath, type IdOrPath } from '../../core/params/parse-id-or-path';
import { requireUser } from '../../core/auth/guards';
import { groupLevelOf, type CreateOptions } from './project-creator';
import { countForkChange } from './forks-count';
import { PROJECT_TAGS_MAX } from './project.type';
import {
  findGroup,
  findNamespace,
  getNamespace,
  joinNamespace,
  lockNamespace,
  namespaceSatisfies,
  ownedNamespaceIds,
} from '../namespaces';
import { FieldErrorBag } from '../../core/errors/field-error-bag';
import { MSG } from '../../core/errors/messages';
import {
  checkNameOrPath,
  isValidProjectName,
  isValidProjectPath,
  parameterize,
} from '../../core/validation/path-rules';
import { onUniqueViolation } from '../../core/db/unique-violation';
import { checkColumnLengths } from '../../core/validation/column-length';
import { ProjectGroupLink } from './project-group-link.entity';
import { Project } from './project.entity';
import { newRunnersToken } from './project-runners-token';
import { reserveRowId } from '../../core/crypto/reserve-row-id';
import { patchEntity, type PatchMapping } from '../../core/patch/patch-entity';
import type { UploadedFile } from '../../core/http/uploaded-file';
import { avatarProblems, saveAvatar } from '../avatars';
import { customAttributeFilter } from '../custom-attributes';
import { defaultVisibilityLevel, sharedRunnersDefault, visibilityRestriction } from '../application-settings';
import { CreateProjectInput, UpdateProjectInput, type ProjectsArgs, type ShareProjectInput } from './project.inputs';
import { longerThan } from '../../core/validation/char-length';
import { projectPolicy } from './project.policy';
import { membershipEvents } from '../../core/events/system-event-catalogue';
import { projectEvents } from './project.events';

/** Input fields stored differently from how they are written (the rest is copied by patchEntity). */
const STORED: PatchMapping<CreateProjectInput> = {
  visibility: (v) => ({ visibilityLevel: VISIBILITY_LEVEL[v] }),
  namespaceId: 'skip',
  avatar: 'skip',
};

export interface ProjectScope {
  /** GET /groups/:id/projects: projects in the group's namespace plus projects shared with it (docs/gitlab-compatibility.md, "Projects and members"). */
  groupId?: number;
  /** GET /users/:user_id/projects: the projects in the user's personal namespace. */
  namespaceId?: number;
  /** GET /projects/:id/forks: the forks of that project (partial index projects_forked_from_idx). */
  forkedFrom?: number;
  /** GET /users/:user_id/starred_projects: the projects that user starred (its stars by user). */
  starredBy?: number;
  /** GET /groups/:id/projects/shared: only the projects shared with this group (its links by group). */
  sharedWithGroup?: number;
}

async function findVisible(ctx: RequestCtx, idOrPath: string | number | IdOrPath): Promise<Project> {
  const ref = parseIdOrPath(idOrPath, ['Project']);
  if ('none' in ref) throw new NotFoundError('Project');
  const visible = await projectVisibility(ctx, 'p');
  let rows: Project[];
  if ('id' in ref) {
    rows = await sqlEntities(ctx.em, Project, `select p.* from projects p where p.id = ? and ${visible}`, [ref.id]);
  } else {
    const cut = ref.path.lastIndexOf('/');
    if (cut < 1) throw new NotFoundError('Project');
    rows = await sqlEntities(
      ctx.em,
      Project,
      `select p.* from projects p ${joinNamespace('p.namespace_id')}
        where lower(n.full_path) = lower(?) and lower(p.path) = lower(?) and ${visible}`,
      [ref.path.slice(0, cut), ref.path.slice(cut + 1)],
    );
  }
  if (!rows[0]) throw new NotFoundError('Project');
  return rows[0];
}

async function accessLevel(ctx: RequestCtx, project: Project): Promise<number> {
  return ctx.user ? ctx.loaders.projectLevel.load(project.id) : 0;
}

async function findAdministrable(ctx: RequestCtx, idOrPath: string | number): Promise<Project> {
  const user = requireUser(ctx);
  const project = await findVisible(ctx, idOrPath);
  if (!projectPolicy.canAdminProject(user, await accessLevel(ctx, project))) throw new ForbiddenError();
  return project;
}

/** The list query of GET /projects, GET /groups/:id/projects and GraphQL's project lists. */
async function listQuery(ctx: RequestCtx, args: ProjectsArgs, scope: ProjectScope = {}): Promise<ListQuery<Project>> {
  // membership=true for a signed-in non-admin: their member projects are visible by definition (visibility
  // is `level or member`), so the member predicate alone, unsplit.
  const memberOnly = !!args.membership && !!ctx.user && !policy.isAdmin(ctx.user);
  const visible = memberOnly ? await memberProjects(ctx, 'p') : await projectVisibility(ctx, 'p');
  const where: string[] = [visible];
  const params: unknown[] = [];
  // filters whose matches may be few and anywhere along the order (docs/growth.md#far-end-matches)
  const selective: string[] = [];
  const narrow = (sql: string) => (selective.push(sql), sql);
  if (scope.groupId !== undefined) {
    // `= any(array(…))`, not `in (subquery)`: both sides are index scans ORed in one bitmap.
    where.push(
      `(p.namespace_id = ? or p.id = any(array(select project_id from project_group_links where group_id = ?)))`,
    );
    params.push(scope.groupId, scope.groupId);
  }
  if (scope.namespaceId !== undefined) {
    where.push('p.namespace_id = ?');
    params.push(scope.namespaceId);
  }
  if (scope.sharedWithGroup !== undefined) {
    where.push(narrow('p.id = any(array(select project_id from project_group_links where group_id = ?))'));
    params.push(scope.sharedWithGroup);
  }
  if (scope.starredBy !== undefined) {
    where.push(narrow('p.id = any(array(select project_id from users_star_projects where user_id = ?))'));
    params.push(scope.starredBy);
  }
  if (scope.forkedFrom !== undefined) {
    where.push('p.forked_from_project_id = ?');
    params.push(scope.forkedFrom);
  }
  const attributesAt = where.length;
  customAttributeFilter(ctx, 'Project', 'p.id', args.customAttributes, where, params);
  selective.push(...where.slice(attributesAt));
  // GitLab's ProjectArchived (GraphQL) decides when given; else REST's boolean.
  const archivedFlag = archivedFilter(args);
  for (const archived of [archivedFlag, args.active === undefined || args.active === null ? null : !args.active]) {
    if (archived === undefined || archived === null) continue;
    where.push(archived ? narrow('p.archived = ?') : 'p.archived = ?');
    params.push(archived);
  }
  if (args.visibility) {
    where.push(narrow('p.visibility_level = ?'));
    params.push(VISIBILITY_LEVEL[args.visibility]);
  }
  // GitLab 10.3's with_issues_enabled / with_merge_requests_enabled (true filters; false is no filter).
  // No index of their own: nearly every project has both on, so the list's order index serves them.
  if (args.withIssuesEnabled) where.push('p.issues_enabled');
  if (args.withMergeRequestsEnabled) where.push('p.merge_requests_enabled');
  if (args.search) {
    const search = args.searchNamespaces ? projectNamespaceSearch('p', args.search) : projectSearch('p', args.search);
    where.push(narrow(search.sql));
    params.push(...search.params);
  }
  const user = ctx.user;
  gitlabFilters(args, user, where, params, narrow);
  if (args.owned) {
    where.push(narrow(user ? `p.namespace_id in (${ownedNamespaceIds(String(Number(user.id)))})` : 'false'));
  }
  if (args.starred) {
    where.push(
      narrow(
        user ? `p.id in (select project_id from users_star_projects where user_id = ${Number(user.id)})` : 'false',
      ),
    );
  }
  if (args.membership && !memberOnly) {
    where.push(await memberProjects(ctx, 'p'));
  }
  if (args.idAfter !== undefined && args.idAfter !== null) {
    where.push('p.id > ?');
    params.push(args.idAfter);
  }
  if (args.idBefore !== undefined && args.idBefore !== null) {
    where.push('p.id < ?');
    params.push(args.idBefore);
  }
  const { column, dir } = listOrder(args);
  const split = memberOnly ? undefined : await projectVisibilitySplit(ctx, 'p');
  const query: ListQuery<Project> = {
    select: 'p.*',
    from: 'projects p',
    where,
    params,
    orderBy: `p.${column}`,
    dir,
    id: 'p.id',
    split,
    splitOf: visible,
    deferRows: memberOnly,
    selective,
    map: (r) => lightEntity(ctx.em, Project, r),
  };
  return query;
}

/** GET /projects and GET /groups/:id/projects (whose arguments have no id_after, id_before nor keyset). */
async function list(ctx: RequestCtx, args: ProjectsArgs, scope: ProjectScope = {}): Promise<Page<Project>> {
  const query = await listQuery(ctx, args, scope);
  if (args.pagination !== PaginationMode.KEYSET) return offsetPage(ctx.em, query, args);
  // GitLab's Gitlab::Pagination::Keyset: projects by id only (order_by=id, either direction).
  assertKeysetOrder(query.orderBy, ['p.id']);
  return keysetPage(ctx.em, query, args, (p) => p.id);
}

/** Tags: at most MAX_TAGS, each at most 255 characters (GitLab's tag name column). */
const MAX_TAGS = PROJECT_TAGS_MAX;

function validateAttributes(ctx: RequestCtx, project: Project, bag: FieldErrorBag): void {
  checkNameOrPath(bag, 'name', project.name, [isValidProjectName, MSG.projectName]);
  checkNameOrPath(bag, 'path', project.path, [isValidProjectPath, MSG.projectPath]);
  checkColumnLengths(bag, ctx.em.getMetadata().get(Project.name), project, ['name', 'path']);
  if (project.tagList.length > MAX_TAGS) bag.add('tag_list', `is too long (maximum is ${MAX_TAGS} tags)`);
  if (project.tagList.some((t) => longerThan(t, 255)))
    bag.add('tag_list', 'is too long (maximum is 255 characters per tag)');
  // GitLab 10.3's Project validation of ci_config_path (its setter drops NUL characters first).
  if (project.ciConfigPath) project.ciConfigPath = project.ciConfigPath.replace(/\0/g, '');
  if (project.ciConfigPath && /(\.{2}|^\/)/.test(project.ciConfigPath))
    bag.add('ci_config_path', 'cannot include leading slash or directory traversal.');
  else if (project.ciConfigPath && longerThan(project.ciConfigPath, 255)) bag.add('ci_config_path', MSG.tooLong);
}

async function checkVisibilityAgainstNamespace(ctx: RequestCtx, project: Project, bag: FieldErrorBag): Promise<void> {
  const ns = await getNamespace(ctx.em, project.namespaceId);
  if (ns.kind === 'group' && project.visibilityLevel > ns.visibilityLevel) {
    const name = (l: number) => toVisibility(l).toLowerCase();
    bag.add(
      'visibility_level',
      `${name(project.visibilityLevel)} is not allowed in a ${name(ns.visibilityLevel)} group.`,
    );
  }
}

async function checkUniqueness(ctx: RequestCtx, project: Project, bag: FieldErrorBag): Promise<void> {
  const rows = await sqlRows<{ name_taken: boolean; path_taken: boolean }>(
    ctx.em,
    `select bool_or(lower(name) = lower(?)) as name_taken, bool_or(lower(path) = lower(?)) as path_taken
       from projects where namespace_id = ? and id <> ?`,
    [project.name, project.path, project.namespaceId, project.id ?? 0],
  );
  if (rows[0]?.name_taken) bag.add('name', MSG.taken);
  if (rows[0]?.path_taken) bag.add('path', MSG.taken);
}

type WriteStep = (em: RequestCtx['em']) => Promise<void>;
const noStep: WriteStep = async () => undefined;

/** Stores the avatar (checked with the other attributes) in the write's transaction; the project's row keeps its file name. */
async function storeAvatar(em: RequestCtx['em'], project: Project, file: UploadedFile): Promise<void> {
  project.avatar = await saveAvatar(em, 'project', project.id, file);
  await em.flush();
}

/**
 * projects_limit for personal namespaces. Checked once early (a clear 400 before other work) and again
 * inside the insert's transaction with the namespace row locked, so parallel creates are serialized and
 * the limit holds under a race.
 */
async function checkProjectLimit(
  em: RequestCtx['em'],
  user: CurrentUser,
  namespaceId: number,
  lock = false,
): Promise<void> {
  if (lock) await lockNamespace(em, namespaceId);
  const limit = projectPolicy.projectsLimit(user);
  const [c] = await sqlRows<{ n: string }>(em, 'select count(*) as n from projects where namespace_id = ?', [
    namespaceId,
  ]);
  if (Number(c.n) >= limit) {
    // GitLab 10.3 (Project#check_limit, then POST /projects' `error!(errors[:limit_reached], 403)`).
    throw new LimitReachedError([
      limit === 0
        ? 'Personal project creation is not allowed. Please contact your administrator with questions'
        : `Your project limit is ${limit} projects! Please contact your administrator to increase it`,
    ]);
  }
}

/** Persists after validation; a unique-index race still ends as the same 400, never a 500. */
async function save(
  ctx: RequestCtx,
  project: Project,
  before: WriteStep = noStep,
  extra: WriteStep = noStep,
): Promise<void> {
  const write = () =>
    ctx.em.transactional(async (em) => {
      await before(em);
      em.persist(project);
      await em.flush();
      await extra(em);
    });
  await onUniqueViolation(write, (e) => new ValidationError({ [takenField(e)!]: [MSG.taken] }));
}

async function create(ctx: RequestCtx, input: CreateProjectInput, opts: CreateOptions = {}): Promise<Project> {
  const user = opts.creator ?? requireUser(ctx);
  const bag = new FieldErrorBag();
  const namespaceId = input.namespaceId ?? user.namespaceId;
  const ns = namespaceId ? await findNamespace(ctx.em, namespaceId) : null;
  let allowed = false;
  if (ns?.kind === 'user') allowed = projectPolicy.canCreateProjectInUserNamespace(user, ns.ownerId);
  else if (ns) allowed = projectPolicy.canCreateProjectInGroup(user, await groupLevelOf(ctx, user, ns.id));
  if (!ns || !allowed) throw new ValidationError({ namespace: ['is not valid'] });
  const limited = ns.kind === 'user' && projectPolicy.hasProjectLimit(user);
  if (limited) await checkProjectLimit(ctx.em, user, ns.id);
  const project = new Project();
  project.namespaceId = ns.id;
  project.creatorId = user.id;
  project.forkedFromProjectId = opts.forkOf?.id ?? null;
  // The token is sealed for its row (secret-box slots): the id is taken before the insert.
  project.id = await reserveRowId(ctx.em, 'projects');
  const token = newRunnersToken(ctx.secrets, project.id);
  project.runnersToken = token.sealed;
  project.runnersTokenDigest = token.digest;
  project.createdAt = project.updatedAt = project.lastActivityAt = ctx.clock.now();
  patchEntity(project, input, CreateProjectInput, STORED);
  if (input.visibility == null) project.visibilityLevel = await defaultVisibilityLevel(ctx, 'project');
  if (input.sharedRunnersEnabled == null) project.sharedRunnersEnabled = await sharedRunnersDefault(ctx);
  const restricted = await visibilityRestriction(ctx, project.visibilityLevel);
  if (restricted) throw new ValidationError({ visibility_level: [restricted] });
  if (!project.path && project.name) project.path = parameterize(project.name);
  if (!project.name && project.path) project.name = project.path;
  validateAttributes(ctx, project, bag);
  for (const problem of input.avatar ? avatarProblems(input.avatar.filename, input.avatar.data) : [])
    bag.add('avatar', problem);
  await checkVisibilityAgainstNamespace(ctx, project, bag);
  await checkUniqueness(ctx, project, bag);
  if (!bag.empty) throw new ValidationError(bag.errors);
  await save(
    ctx,
    project,
    async (em) => {
      if (limited) await checkProjectLimit(em, user, ns.id, true);
    },
    async (em) => {
      if (input.avatar) await storeAvatar(em, project, input.avatar);
      // GitLab 10.x adds the owner of a personal namespace as Master of the new project.
      if (ns.kind === 'user' && ns.ownerId !== null) {
        addProjectMember(em, project.id, {
          userId: ns.ownerId,
          accessLevel: AccessLevel.MASTER,
          expiresAt: null,
          now: ctx.clock.now(),
        });
        await em.flush();
      }
      await recordAudit(ctx, em, [{ ...projectAudit(project, ns.fullPath), action: { add: 'project' } }]);
      // GitLab 10.3: project_create, then user_add_to_team for the personal namespace's owner.
      await emitSystemEvents(ctx, em, async () => [
        ...(await projectEvents(em, [project.id], 'create')),
        ...(ns.kind === 'user' && ns.ownerId !== null
          ? await membershipEvents.build(em, 'project', project.id, ns.ownerId, 'create')
          : []),
      ]);
      // Last: parallel forks of one source queue on its row from here to their commit.
      if (opts.forkOf) await countForkChange(em, opts.forkOf.id, 1);
    },
  );
  forgetAccess(ctx);
  return project;
}

/** The audit entity of a change inside a project (its environments, pages domains): the project with its full path. */
export async function projectAuditEntity(
  ctx: RequestCtx,
  projectId: number,
): Promise<{ entityType: string; entityId: number; entityPath: string }> {
  const [row] = await sqlRows<{ path: string }>(
    ctx.em,
    `select n.full_path || '/' || p.path as path from projects p ${joinNamespace('p.namespace_id')} where p.id = ?`,
    [projectId],
  );
  return { entityType: 'Project', entityId: projectId, entityPath: row?.path ?? '' };
}

/** Audit events of a project: the project is the entity (GitLab's project audit events) and the target. */
const projectAudit = (p: Project, namespacePath: string) => {
  const path = namespacePath ? `${namespacePath}/${p.path}` : p.path;
  return {
    entityType: 'Project',
    entityId: p.id,
    entityPath: path,
    targetType: 'Project',
    targetId: p.id,
    targetDetails: path,
  };
};
const auditedProjectFields = (p: Project): Record<string, unknown> => ({
  name: p.name,
  path: p.path,
  description: p.description,
  visibility_level: toVisibility(p.visibilityLevel).toLowerCase(),
  default_branch: p.defaultBranch,
  shared_runners_enabled: p.sharedRunnersEnabled,
  request_access_enabled: p.requestAccessEnabled,
});

async function update(ctx: RequestCtx, idOrPath: string, input: UpdateProjectInput): Promise<Project> {
  const project = await findAdministrable(ctx, idOrPath);
  const oldLevel = project.visibilityLevel;
  const before = auditedProjectFields(project);
  patchEntity(project, input, UpdateProjectInput, STORED);
  const restricted =
    project.visibilityLevel === oldLevel ? undefined : await visibilityRestriction(ctx, project.visibilityLevel);
  if (restricted) throw new ValidationError({ visibility_level: [restricted] });
  project.updatedAt = ctx.clock.now();
  const bag = new FieldErrorBag();
  validateAttributes(ctx, project, bag);
  for (const problem of input.avatar ? avatarProblems(input.avatar.filename, input.avatar.data) : [])
    bag.add('avatar', problem);
  await checkVisibilityAgainstNamespace(ctx, project, bag);
  await checkUniqueness(ctx, project, bag);
  if (!bag.empty) throw new ValidationError(bag.errors);
  const after = auditedProjectFields(project);
  const nsPath = (await ctx.loaders.namespace.load(project.namespaceId))?.fullPath ?? '';
  await save(
    ctx,
    project,
    (em) => (input.avatar ? storeAvatar(em, project, input.avatar) : noStep(em)),
    async (em) => {
      await recordAudit(
        ctx,
        em,
        changes(
          projectAudit(project, nsPath),
          Object.keys(after).map((k) => ({ name: k, from: before[k], to: after[k] })),
        ),
      );
      // A new path renames the project (GitLab's project_rename; a new name alone sends nothing).
      if (after.path !== before.path)
        await emitSystemEvents(ctx, em, () =>
          projectEvents(em, [project.id], 'rename', `${nsPath}/${String(before.path)}`),
        );
    },
  );
  return project;
}

async function remove(ctx: RequestCtx, idOrPath: string): Promise<boolean> {
  const user = requireUser(ctx);
  const project = await findVisible(ctx, idOrPath);
  if (!projectPolicy.canDeleteProject(user, await accessLevel(ctx, project))) throw new ForbiddenError();
  const nsPath = (await ctx.loaders.namespace.load(project.namespaceId))?.fullPath ?? '';
  await ctx.em.transactional(async (em) => {
    await claimForDelete(ctx, em, byId('projects', project.id, 'Project'));
    await emitSystemEvents(ctx, em, () => projectEvents(em, [project.id], 'destroy'));
    // The link as the deleted row had it (a concurrent unlink may have removed it since the project was read).
    const [gone] = await sqlRows<{ source: number | null }>(
      em,
      'delete from projects where id = ? returning forked_from_project_id as source',
      [project.id],
    );
    if (gone?.source) await countForkChange(em, Number(gone.source), -1);
    await recordAudit(ctx, em, [{ ...projectAudit(project, nsPath), action: { remove: 'project' } }]);
  });
  return true;
}

async function setArchived(ctx: RequestCtx, idOrPath: string, archived: boolean): Promise<Project> {
  const project = await findAdministrable(ctx, idOrPath);
  const was = project.archived;
  project.archived = archived;
  project.updatedAt = ctx.clock.now();
  const nsPath = (await ctx.loaders.namespace.load(project.namespaceId))?.fullPath ?? '';
  await ctx.em.transactional(async (em) => {
    await em.flush();
    await recordAudit(ctx, em, changes(projectAudit(project, nsPath), [{ name: 'archived', from: was, to: archived }]));
  });
  return project;
}

/** POST /projects/:id/star: 201 when starred now, 304 when it already was. */
async function star(ctx: RequestCtx, idOrPath: string): Promise<{ project: Project; changed: boolean }> {
  const user = requireUser(ctx);
  const project = await findVisible(ctx, idOrPath);
  const inserted = await sqlRows(
    ctx.em,
    `insert into users_star_projects (user_id, project_id, created_at) values (?, ?, now()) on conflict do nothing returning id`,
    [user.id, project.id],
  );
  if (inserted.length > 0) {
    await sqlRows(ctx.em, 'update projects set star_count = star_count + 1 where id = ?', [project.id]);
    project.starCount += 1;
  }
  return { project, changed: inserted.length > 0 };
}

/** POST /projects/:id/unstar (GitLab 10.3): 201 with the project, star_count decremented; 304 when not starred. */
async function unstar(ctx: RequestCtx, idOrPath: string): Promise<{ project: Project; changed: boolean }> {
  const user = requireUser(ctx);
  const project = await findVisible(ctx, idOrPath);
  const deleted = await sqlRows(
    ctx.em,
    'delete from users_star_projects where user_id = ? and project_id = ? returning id',
    [user.id, project.id],
  );
  if (deleted.length > 0) {
    await sqlRows(ctx.em, 'update projects set star_count = greatest(star_count - 1, 0) where id = ?', [project.id]);
    project.starCount = Math.max(0, project.starCount - 1);
  }
  return { project, changed: deleted.length > 0 };
}

async function share(ctx: RequestCtx, idOrPath: string, input: ShareProjectInput): Promise<ProjectGroupLink> {
  // Parameter checks come before lookups (docs/gitlab-compatibility.md, "Order of checks"), on both surfaces.
  if (!(SHARE_ACCESS_LEVELS as readonly number[]).includes(input.groupAccess))
    throw ParamError.notInSet('group_access');
  assertOptionalDate('expires_at', input.expiresAt);
  const project = await findAdministrable(ctx, idOrPath);
  // GitLab 10.3: a project of a group with share_with_group_lock (set on it or inherited) is not shared.
  if ((await ctx.loaders.namespace.load(project.namespaceId))?.shareWithGroupLock)
    throw new BadRequestError('The project sharing with group is disabled');
  const group = await findGroup(ctx.em, input.groupId);
  if (!group) throw new NotFoundError('Group');
  // A project can be shared with any group the caller can see.
  if (!(await namespaceSatisfies(ctx.em, group.id, await groupVisibility(ctx, 'n')))) throw new NotFoundError('Group');
  const link = ctx.em.create(ProjectGroupLink, {
    projectId: project.id,
    groupId: group.id,
    groupAccess: input.groupAccess,
    expiresAt: input.expiresAt ?? null,
    createdAt: ctx.clock.now(),
  });
  await onUniqueViolation(
    () => ctx.em.persistAndFlush(link),
    () => new ConflictError('Group already shared with this group'),
  );
  forgetAccess(ctx);
  return link;
}

async function unshare(ctx: RequestCtx, idOrPath: string, groupId: number): Promise<boolean> {
  const project = await findAdministrable(ctx, idOrPath);
  await ctx.em.transactional(async (em) => {
    // GitLab's destroy_conditionally!(link): a share is never changed after it is made, so its creation is its last change.
    await claimForDelete(ctx, em, {
      table: 'project_group_links',
      where: 'project_id = ? and group_id = ?',
      params: [project.id, groupId],
      missing: () => new NotFoundError('Group Link'),
      modifiedColumn: 'created_at',
    });
    await em.nativeDelete(ProjectGroupLink, { projectId: project.id, groupId });
  });
  forgetAccess(ctx);
  return true;
}

/** node(id)/nodes(ids): the projects among these ids the caller may read, through the links' `visibleProject` loader. */
async function visibleByIds(ctx: RequestCtx, ids: readonly (number | string)[]): Promise<Project[]> {
  return ctx.loaders.visibleProject.loadPresent(ids.map(Number));
}

/**
 * node(id)/nodes(ids) of project shares (one statement): a share is shown to who may read both its project and its group, as
 * the project's own `sharedWithGroups` lists only groups the caller may read (a private group's id and
 * access level stay hidden).
 */
async function visibleGroupLinks(ctx: RequestCtx, ids: readonly (number | string)[]): Promise<ProjectGroupLink[]> {
  return sqlEntities(
    ctx.em,
    ProjectGroupLink,
    `select l.* from project_group_links l join projects p on p.id = l.project_id
    ${joinNamespace('l.group_id', 'g')}
    where l.id = any(?::int[]) and ${await projectVisibility(ctx, 'p')} and ${await groupVisibility(ctx, 'g')}`,
    [pgArray(ids.map(Number))],
  );
}

export const projectService = {
  findVisible,
  visibleByIds,
  visibleGroupLinks,
  findAdministrable,
  accessLevel,
  list,
  listQuery,
  create,
  update,
  remove,
  setArchived,
  star,
  unstar,
  share,
  unshare,
};

import type { EntityManager } from '@mikro-orm/postgresql';
import { Arg, Ctx, ID, Mutation, Resolver } from 'type-graphql';
import { Allow } from '../../core/auth/allow';
import { requireUser } from '../../core/auth/guards';
import type { CurrentUser, RequestCtx } from '../../core/context/request-ctx';
import { sqlRows } from '../../core/db/sql';
import { onUniqueViolation } from '../../core/db/unique-violation';
import { changes, recordAudit } from '../../core/events/audit';
import { emitSystemEvents } from '../../core/events/system-events';
import { membershipEvents } from '../../core/events/system-event-catalogue';
import { ForbiddenError, NotFoundError, SaveFailedError } from '../../core/errors/domain-errors';
import { AccessLevel, ensureProjectMember } from '../access';
import { lockAncestry, namespaceService, type Namespace } from '../namespaces';
import { groupLevelOf } from './project-creator';
import { projectPathOrNameTakenIn } from './project-sql';
import { forgetAccess } from './project-visibility';
import type { Project } from './project.entity';
import { projectEvents } from './project.events';
import { projectPolicy } from './project.policy';
import { projectService } from './project.service';
import { ProjectType } from './project.type';

// PUT /projects/:id/transfer (later GitLab; doc/api/projects.md "Transfer a project to a new namespace",
// app/services/projects/transfer_service.rb): its refusals are 400 "Failed to transfer project {…}".
const FAILED = 'Failed to transfer project';
export const TRANSFER_MESSAGES = {
  sameNamespace: 'Project is already in this namespace.',
  targetNotAllowed: "You don't have permission to transfer projects into that namespace.",
  clash: 'Project with same name or path in target namespace already exists',
} as const;
const refused = (message: string) => new SaveFailedError(FAILED, { new_namespace: [message] });

/**
 * GitLab's `transfer_projects` on the target: a group where the caller may create projects (Master or
 * above), or a personal namespace the caller owns (or any, for an administrator) with room left under the
 * owner's projects_limit (GitLab's `can_create_personal_project`).
 */
async function mayTransferInto(ctx: RequestCtx, user: CurrentUser, target: Namespace): Promise<boolean> {
  if (target.kind === 'group')
    return projectPolicy.canCreateProjectInGroup(user, await groupLevelOf(ctx, user, target.id));
  if (!projectPolicy.canCreateProjectInUserNamespace(user, target.ownerId)) return false;
  if (!projectPolicy.hasProjectLimit(user)) return true;
  const [row] = await sqlRows<{ n: string }>(ctx.em, 'select count(*) as n from projects where namespace_id = ?', [
    target.id,
  ]);
  return Number(row.n) < projectPolicy.projectsLimit(user);
}

/**
 * GitLab's `ensure_personal_project_owner_membership` (Projects::TransferService): a project moved into a
 * personal namespace has that namespace's owner as a direct member, as a new personal project has
 * (Master, the level project creation gives here: GitLab 10.3 has no project Owner role), so member lists
 * show them as GitLab's do. True when the membership is new.
 */
async function ensurePersonalOwnerMembership(
  ctx: RequestCtx,
  em: EntityManager,
  project: Project,
  target: Namespace,
): Promise<boolean> {
  if (target.kind !== 'user' || target.ownerId === null) return false;
  return ensureProjectMember(em, project.id, target.ownerId, AccessLevel.MASTER, ctx.clock.now());
}

/**
 * Moves a project the caller owns (GitLab's `change_namespace`: Owner or administrator; else 403) into
 * another namespace the caller may see (else 404 Namespace Not Found). Its full path follows the
 * namespace (paths are derived from it), its visibility is lowered to a more private group's, a
 * personal namespace's owner becomes a direct member, and the move emits `project_transfer` (then
 * `user_add_to_team` for a new owner membership) and an audit change of `namespace`, in the move's transaction.
 */
async function transfer(ctx: RequestCtx, idOrPath: string, namespaceRef: string): Promise<Project> {
  const user = requireUser(ctx);
  const project = await projectService.findVisible(ctx, idOrPath);
  if (!projectPolicy.canDeleteProject(user, await projectService.accessLevel(ctx, project))) throw new ForbiddenError();
  const target = await namespaceService.get(ctx, namespaceRef);
  if (target.id === project.namespaceId) throw refused(TRANSFER_MESSAGES.sameNamespace);
  if (!(await mayTransferInto(ctx, user, target))) throw refused(TRANSFER_MESSAGES.targetNotAllowed);
  if (await projectPathOrNameTakenIn(ctx.em, target.id, project.path, project.name))
    throw refused(TRANSFER_MESSAGES.clash);
  const from = await ctx.loaders.namespace.load(project.namespaceId);
  const oldPath = `${from?.fullPath ?? ''}/${project.path}`;
  const move = () =>
    ctx.em.transactional(async (em) => {
      // The target's ancestry stays locked until the move commits (no rename or delete in between).
      const locked = (await lockAncestry(em, target.id)).get(target.id);
      if (!locked) throw new NotFoundError('Namespace');
      project.namespaceId = target.id;
      // GitLab: a project more visible than its new group takes the group's level.
      if (target.kind === 'group') project.visibilityLevel = Math.min(project.visibilityLevel, target.visibilityLevel);
      project.updatedAt = ctx.clock.now();
      em.persist(project);
      await em.flush();
      const newPath = `${locked.full_path}/${project.path}`;
      await recordAudit(
        ctx,
        em,
        changes(
          {
            entityType: 'Project',
            entityId: project.id,
            entityPath: newPath,
            targetType: 'Project',
            targetId: project.id,
            targetDetails: newPath,
          },
          [{ name: 'namespace', from: from?.fullPath ?? '', to: locked.full_path }],
        ),
      );
      const ownerAdded = await ensurePersonalOwnerMembership(ctx, em, project, target);
      await emitSystemEvents(ctx, em, async () => [
        ...(await projectEvents(em, [project.id], 'transfer', oldPath)),
        ...(ownerAdded ? await membershipEvents.build(em, 'project', project.id, target.ownerId!, 'create') : []),
      ]);
    });
  await onUniqueViolation(move, () => refused(TRANSFER_MESSAGES.clash));
  forgetAccess(ctx);
  return project;
}

export const projectTransferService = { transfer, mayTransferInto };

@Resolver()
export class ProjectTransferResolver {
  @Mutation(() => ProjectType, {
    description: 'Moves a project into another group or personal namespace (its full path changes with it).',
  })
  @Allow('user')
  transferProject(
    @Arg('id', () => ID, { description: 'Project id, full path or global id.' }) id: string,
    @Arg('namespaceId', () => ID, { description: 'Target namespace: id, full path or global id.' })
    namespaceId: string,
    @Ctx() ctx: RequestCtx,
  ): Promise<Project> {
    return transfer(ctx, id, namespaceId);
  }
}

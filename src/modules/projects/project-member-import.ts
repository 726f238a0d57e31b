import { Arg, Ctx, Field, ID, Mutation, ObjectType, Resolver } from 'type-graphql';
import { Allow } from '../../core/auth/allow';
import { requireUser } from '../../core/auth/guards';
import type { RequestCtx } from '../../core/context/request-ctx';
import { sqlRows } from '../../core/db/sql';
import { recordAudit } from '../../core/events/audit';
import { membershipEvents } from '../../core/events/system-event-catalogue';
import { emitSystemEvents } from '../../core/events/system-events';
import { ForbiddenError } from '../../core/errors/domain-errors';
import { addProjectMember, directMemberships, HUMAN_ACCESS } from '../access';
import { projectPolicy } from './project.policy';
import { projectAuditEntity, projectService } from './project.service';
import { forgetAccess } from './project-visibility';
import { joinUser } from '../users';

@ObjectType('ProjectMembersImport')
export class ProjectMembersImportType {
  @Field(() => String, { description: 'success' }) status!: string;
}

/**
 * POST /projects/:id/import_project_members/:project_id (later GitLab: lib/api/projects.rb,
 * Members::ImportProjectTeamService, ProjectTeam#import): a Master of the target copies the source
 * project's direct members (a source the caller may not see is 404 Project Not Found; below Master there,
 * 403 "403 Forbidden - Project"). Users already direct members of the target keep their membership; each
 * copy keeps its level and expiry. (GitLab caps a copy at the importer's level; project levels end at
 * Master here and the importer is Master or above, so no copy is ever capped.) Each added member is
 * audited and emits `user_add_to_team`, in one transaction.
 */
async function importMembers(ctx: RequestCtx, idOrPath: string, sourceRef: string): Promise<ProjectMembersImportType> {
  const user = requireUser(ctx);
  const target = await projectService.findVisible(ctx, idOrPath);
  if (!projectPolicy.canAdminProject(user, await projectService.accessLevel(ctx, target))) throw new ForbiddenError();
  const source = await projectService.findVisible(ctx, sourceRef);
  if (!projectPolicy.canAdminProject(user, await projectService.accessLevel(ctx, source)))
    throw new ForbiddenError('Project');
  const entity = await projectAuditEntity(ctx, target.id);
  await ctx.em.transactional(async (em) => {
    const rows = await sqlRows<{ user_id: number; username: string; access_level: number; expires_at: string | null }>(
      em,
      `select m.user_id, u.username, m.access_level, to_char(m.expires_at, 'YYYY-MM-DD') as expires_at
         from ${directMemberships('project')} m ${joinUser('m.user_id')}
        where m.project_id = ?
          and not exists (select 1 from ${directMemberships('project')} t where t.project_id = ? and t.user_id = m.user_id)
        order by m.id`,
      [source.id, target.id],
    );
    const now = ctx.clock.now();
    const added = rows.map((r) => ({
      userId: Number(r.user_id),
      username: r.username,
      accessLevel: r.access_level,
    }));
    rows.forEach((r, i) =>
      addProjectMember(em, target.id, {
        userId: added[i].userId,
        accessLevel: added[i].accessLevel,
        expiresAt: r.expires_at,
        now,
      }),
    );
    await em.flush();
    await recordAudit(
      ctx,
      em,
      added.map((m) => ({
        ...entity,
        targetType: 'User',
        targetId: m.userId,
        targetDetails: m.username,
        action: { add: 'user_access', as: HUMAN_ACCESS[m.accessLevel] ?? String(m.accessLevel) },
      })),
    );
    await emitSystemEvents(ctx, em, async () =>
      (
        await Promise.all(added.map((m) => membershipEvents.build(em, 'project', target.id, m.userId, 'create')))
      ).flat(),
    );
  });
  forgetAccess(ctx);
  return { status: 'success' };
}

@Resolver()
export class ProjectMemberImportResolver {
  @Mutation(() => ProjectMembersImportType, { description: "Copies another project's direct members into a project." })
  @Allow('user')
  importProjectMembers(
    @Arg('id', () => ID, { description: 'The target project: id, full path or global id.' }) id: string,
    @Arg('projectId', () => ID, { description: 'The source project: id, full path or global id.' }) projectId: string,
    @Ctx() ctx: RequestCtx,
  ): Promise<ProjectMembersImportType> {
    return importMembers(ctx, id, projectId);
  }
}

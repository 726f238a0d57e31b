import { Args, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestCtx } from '../../core/context/request-ctx';
import type { Loaded } from '../../core/context/peek-loader';
import { PageArgs } from '../../core/pagination/page';
import { policy } from '../access';
import { GroupPage } from '../groups';
import { runnerTokenSlot } from './runner-token';
import type { Runner } from './runner.entity';
import { RunnerRegistrationType, RunnerType } from './runner.type';

/** GitLab's REGISTRATION_AVAILABILITY_TIME: a created runner's registration page works this long. */
export const REGISTRATION_WINDOW_MS = 60 * 60 * 1000;

/**
 * GitLab's `registration_available?`: a runner created by a user (runnerCreate; a runner registered
 * with a registration token has no creator) within the last hour that has no manager yet (it never made
 * contact: runner-manager.ts).
 */
export function registrationAvailable(r: Runner, now: Date): boolean {
  return (
    r.creatorId !== null && r.contactedAt === null && r.createdAt.getTime() > now.getTime() - REGISTRATION_WINDOW_MS
  );
}

const registerAdminUrl = (ctx: RequestCtx, r: Runner | null): string | null =>
  r && policy.isAdmin(ctx.user) && registrationAvailable(r, ctx.clock.now())
    ? `${ctx.externalUrl}/admin/runners/${r.id}/register`
    : null;

@Resolver(() => RunnerType)
export class RunnerRegistrationFieldsResolver {
  @FieldResolver(() => String, {
    nullable: true,
    description:
      "The runner's token for registering its first manager (`gitlab-runner register --token`): only for the user who created it with runnerCreate, within an hour of its creation and before it made contact; null otherwise.",
  })
  ephemeralAuthenticationToken(@Root() r: Runner, @Ctx() ctx: RequestCtx): string | null {
    if (!ctx.user || r.creatorId !== Number(ctx.user.id) || !registrationAvailable(r, ctx.clock.now())) return null;
    return ctx.secrets.openOrNull(r.token, runnerTokenSlot(r.id));
  }

  @FieldResolver(() => String, {
    nullable: true,
    description:
      "URL of the runner's temporary registration page in the admin area: administrators only, while its registration is available (ephemeralAuthenticationToken's rule).",
  })
  registerAdminUrl(@Root() r: Runner, @Ctx() ctx: RequestCtx): string | null {
    return registerAdminUrl(ctx, r);
  }

  @FieldResolver(() => Date, {
    nullable: true,
    description: 'Runner token expiration time: null, runner tokens here do not expire.',
  })
  tokenExpiresAt(): null {
    return null;
  }

  @FieldResolver(() => GroupPage, {
    nullable: true,
    description:
      'Groups the runner is associated with, for group runners only: null, as GitLab answers for instance and project runners (runners here are one or the other; there are no group runners).',
  })
  groups(@Root() _r: Runner, @Args() _args: PageArgs): null {
    return null;
  }
}

@Resolver(() => RunnerRegistrationType)
export class RunnerCreationFieldsResolver {
  @FieldResolver(() => String, {
    nullable: true,
    description:
      "URL of the new runner's temporary registration page in the admin area (CiRunner.registerAdminUrl): administrators only, while its registration is available.",
  })
  registerAdminUrl(@Root() created: RunnerRegistrationType, @Ctx() ctx: RequestCtx): Loaded<string | null> {
    if (!policy.isAdmin(ctx.user)) return null;
    return ctx.loaders.visibleRunner.map(created.id, (r) => registerAdminUrl(ctx, r));
  }
}

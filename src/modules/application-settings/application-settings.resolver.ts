import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { Allow } from '../../core/auth/allow';
import { Internal } from '../../core/graphql/internal';
import { PayloadMutation } from '../../core/graphql/mutation-payloads';
import type { RequestCtx } from '../../core/context/request-ctx';
import { applicationSettingsService } from './application-settings.service';
import { ApplicationSettingsType, UpdateApplicationSettingsInput } from './application-settings.type';

@Resolver(() => ApplicationSettingsType)
export class ApplicationSettingsResolver {
  @Query(() => ApplicationSettingsType, { description: 'Instance settings, administrators only.' })
  @Allow('admin')
  applicationSettings(@Ctx() ctx: RequestCtx): Promise<Record<string, unknown>> {
    return applicationSettingsService.get(ctx);
  }

  @Mutation(() => ApplicationSettingsType, {
    description: 'Changes the given settings (at least one); administrators only.',
  })
  @Allow('admin')
  updateApplicationSettings(
    @Arg('input', () => UpdateApplicationSettingsInput) input: UpdateApplicationSettingsInput,
    @Ctx() ctx: RequestCtx,
  ): Promise<Record<string, unknown>> {
    return applicationSettingsService.update(ctx, input);
  }

  /** REST's POST /runners/reset_registration_token; GraphQL's is the runners module's runnersRegistrationTokenReset. */
  @Internal()
  @Mutation(() => ApplicationSettingsType, {
    description: 'A new instance runner registration token; the old one stops working.',
  })
  @Allow('admin')
  @PayloadMutation({ twin: false })
  resetRunnersRegistrationToken(@Ctx() ctx: RequestCtx): Promise<Record<string, unknown>> {
    return applicationSettingsService.resetRunnersToken(ctx);
  }
}

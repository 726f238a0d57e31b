import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import { Allow } from '../../core/auth/allow';
import type { RequestCtx } from '../../core/context/request-ctx';
import { PayloadMutation } from '../../core/graphql/mutation-payloads';
import { CreateRunnerInput, userRunnerService } from './user-runner';
import { RunnerRegistrationType } from './runner.type';

/** Runner creation by a signed-in user (GitLab's `runnerCreate`; REST `POST /user/runners`). */
@Resolver()
export class UserRunnerResolver {
  @Mutation(() => RunnerRegistrationType, {
    description: 'Creates a runner: an instance runner (admins) or a project runner (its Maintainers).',
  })
  @Allow('user')
  @PayloadMutation({ field: 'runner' })
  createRunner(
    @Arg('input', () => CreateRunnerInput) input: CreateRunnerInput,
    @Ctx() ctx: RequestCtx,
  ): Promise<RunnerRegistrationType> {
    return userRunnerService.create(ctx, input);
  }
}

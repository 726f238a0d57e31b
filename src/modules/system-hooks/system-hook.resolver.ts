import { SystemHookIdArg } from './system-hook.type';
import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { Allow } from '../../core/auth/allow';
import type { RequestCtx } from '../../core/context/request-ctx';
import { PageArgs, type Page } from '../../core/pagination/page';
import { systemHookService as service } from './system-hook.service';
import {
  CreateSystemHookInput,
  SystemHookLogPage,
  SystemHookLogsArgs,
  SystemHookPage,
  SystemHookTestDataType,
  SystemHookType,
  type SystemHookLogType,
} from './system-hook.type';

/** System hooks (GitLab 10.3 `/hooks`, docs/rest.md#system-hooks): administrators only on both surfaces. */
@Resolver(() => SystemHookType)
export class SystemHookResolver {
  @Query(() => SystemHookPage, { description: 'Administrators only; oldest first.' })
  @Allow('admin')
  systemHooks(@Args() args: PageArgs, @Ctx() ctx: RequestCtx): Promise<Page<SystemHookType>> {
    return service.list(ctx, args);
  }

  @Query(() => SystemHookType, { nullable: true, description: 'Administrators only.' })
  @Allow('admin')
  systemHook(@Arg('id', () => SystemHookIdArg) id: number, @Ctx() ctx: RequestCtx): Promise<SystemHookType> {
    return service.get(ctx, id);
  }

  @Query(() => SystemHookLogPage, {
    description: 'Administrators only: the last 50 delivery attempts of a hook, newest first.',
  })
  @Allow('admin')
  systemHookLogs(@Args() args: SystemHookLogsArgs, @Ctx() ctx: RequestCtx): Promise<Page<SystemHookLogType>> {
    return service.logs(ctx, args.id, args);
  }

  @Mutation(() => SystemHookType, {
    description: 'Administrators only. The hook receives the events committed from now on.',
  })
  @Allow('admin')
  createSystemHook(
    @Arg('input', () => CreateSystemHookInput) input: CreateSystemHookInput,
    @Ctx() ctx: RequestCtx,
  ): Promise<SystemHookType> {
    return service.create(ctx, input);
  }

  @Mutation(() => Boolean, { description: 'Administrators only; events still queued for it are dropped.' })
  @Allow('admin')
  deleteSystemHook(@Arg('id', () => SystemHookIdArg) id: number, @Ctx() ctx: RequestCtx): Promise<boolean> {
    return service.remove(ctx, id);
  }

  @Mutation(() => SystemHookTestDataType, {
    description: 'Administrators only: sends GitLab\'s test event (project_create "Ruby") to the hook now.',
  })
  @Allow('admin')
  testSystemHook(
    @Arg('id', () => SystemHookIdArg) id: number,
    @Ctx() ctx: RequestCtx,
  ): Promise<SystemHookTestDataType> {
    return service.test(ctx, id);
  }
}

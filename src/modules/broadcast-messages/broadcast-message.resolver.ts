import { BroadcastMessageIdArg } from './broadcast-message.type';
import { Arg, Args, Ctx, FieldResolver, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import { Allow } from '../../core/auth/allow';
import type { RequestCtx } from '../../core/context/request-ctx';
import type { Page } from '../../core/pagination/page';
import type { BroadcastMessage } from './broadcast-message.entity';
import {
  BroadcastMessagesArgs,
  CreateBroadcastMessageInput,
  UpdateBroadcastMessageInput,
} from './broadcast-message.inputs';
import { broadcastMessageService as service, isActive } from './broadcast-message.service';
import { BroadcastMessageChangeType, BroadcastMessagePage, BroadcastMessageType } from './broadcast-message.type';
import { broadcastMessageChanges, type BroadcastMessageChange } from './broadcast-message-changes';

/** Spec 4.19–4.23. Every operation, reads included, is for administrators (spec 5.3, 5.6). */
@Resolver(() => BroadcastMessageType)
export class BroadcastMessageResolver {
  @Query(() => BroadcastMessagePage, { description: 'Administrators only; newest first.' })
  @Allow('admin')
  broadcastMessages(@Args() args: BroadcastMessagesArgs, @Ctx() ctx: RequestCtx): Promise<Page<BroadcastMessage>> {
    return service.list(ctx, args);
  }

  @Query(() => BroadcastMessageType, { description: 'Administrators only.' })
  @Allow('admin')
  broadcastMessage(
    @Arg('id', () => BroadcastMessageIdArg) id: number,
    @Ctx() ctx: RequestCtx,
  ): Promise<BroadcastMessage> {
    return service.get(ctx, id);
  }

  @Mutation(() => BroadcastMessageType, {
    description: 'Administrators only. Defaults: starts now, ends in one hour, #E75E40 on #FFFFFF.',
  })
  @Allow('admin')
  createBroadcastMessage(
    @Arg('input', () => CreateBroadcastMessageInput) input: CreateBroadcastMessageInput,
    @Ctx() ctx: RequestCtx,
  ): Promise<BroadcastMessage> {
    return service.create(ctx, input);
  }

  @Mutation(() => BroadcastMessageType, { description: 'Administrators only; fields not given stay unchanged.' })
  @Allow('admin')
  updateBroadcastMessage(
    @Arg('id', () => BroadcastMessageIdArg) id: number,
    @Arg('input', () => UpdateBroadcastMessageInput) input: UpdateBroadcastMessageInput,
    @Ctx() ctx: RequestCtx,
  ): Promise<BroadcastMessage> {
    return service.update(ctx, id, input);
  }

  @Mutation(() => Boolean, { description: 'Administrators only.' })
  @Allow('admin')
  deleteBroadcastMessage(@Arg('id', () => BroadcastMessageIdArg) id: number, @Ctx() ctx: RequestCtx): Promise<boolean> {
    return service.remove(ctx, id);
  }

  @Subscription(() => BroadcastMessageChangeType, {
    description:
      'Live: each message created, updated or deleted (on any instance), and each message becoming active or inactive ' +
      'as time enters or leaves its window (WebSocket, graphql-transport-ws). Administrators only.',
    subscribe: ({ context }) => broadcastMessageChanges(context as RequestCtx),
  })
  @Allow('admin')
  broadcastMessagesChanged(@Root() change: BroadcastMessageChange): BroadcastMessageChange {
    return change;
  }

  @FieldResolver(() => Boolean, { description: 'startsAt ≤ now ≤ endsAt, evaluated when the response is built.' })
  active(@Root() m: BroadcastMessage, @Ctx() ctx: RequestCtx): boolean {
    return isActive(m, ctx.clock.now());
  }
}

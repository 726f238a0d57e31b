import { idArgOf } from '../../core/graphql/global-id';
import { DatabaseNode, Node } from '../../core/graphql/node';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { PageType } from '../../core/pagination/page';
import { TextCost } from '../../core/graphql/text-cost';
import { BROADCAST_MESSAGE_MAX } from './broadcast-message.entity';

@ObjectType('BroadcastMessage', {
  description: 'A banner shown to every user between startsAt and endsAt.',
  implements: Node,
})
export class BroadcastMessageType extends DatabaseNode {
  @Field(() => String) @TextCost(BROADCAST_MESSAGE_MAX) message!: string;
  @Field(() => Date) startsAt!: Date;
  @Field(() => Date) endsAt!: Date;
  @Field(() => String, { description: 'Background colour: blank or #RGB / #RRGGBB.' }) color!: string;
  @Field(() => String, { description: 'Text colour: blank or #RGB / #RRGGBB.' }) font!: string;
}

export const BroadcastMessagePage = PageType(BroadcastMessageType, 'BroadcastMessageConnection');

export enum BroadcastMessageAction {
  CREATED = 'CREATED',
  UPDATED = 'UPDATED',
  DELETED = 'DELETED',
  ACTIVATED = 'ACTIVATED',
  DEACTIVATED = 'DEACTIVATED',
}
registerEnumType(BroadcastMessageAction, {
  name: 'BroadcastMessageAction',
  description:
    'CREATED, UPDATED, DELETED by an administrator; ACTIVATED, DEACTIVATED when time enters or leaves the window.',
});

@ObjectType('BroadcastMessageChange', {
  description: 'A broadcast message that changed, as it is when the change is delivered.',
})
export class BroadcastMessageChangeType {
  @Field(() => BroadcastMessageAction) action!: BroadcastMessageAction;
  /** Not `id`: that would make normalizing caches merge this record into the message's (runner.type.ts RunnerChange). */
  @Field(() => ID, { description: 'Global id of the message (also when it was deleted): `BroadcastMessage.id`.' })
  broadcastMessageId!: string;
  @Field(() => Int, {
    description: 'Database id of the message (also when it was deleted): `BroadcastMessage.databaseId`.',
  })
  databaseId!: number;
  @Field(() => BroadcastMessageType, { nullable: true, description: 'null when the message no longer exists.' })
  broadcastMessage!: BroadcastMessageType | null;
}

/** Argument type of a BroadcastMessage id: its global id or database id (core/graphql/global-id.ts; REST keeps the integer). */
export const BroadcastMessageIdArg = idArgOf('BroadcastMessage');

import { Field, Int, ObjectType } from 'type-graphql';
import { PageType } from '../../core/pagination/page';

@ObjectType('BroadcastMessage', { description: 'A banner shown to every user between startsAt and endsAt (spec 2.6).' })
export class BroadcastMessageType {
  @Field(() => Int) id!: number;
  @Field(() => String) message!: string;
  @Field(() => Date) startsAt!: Date;
  @Field(() => Date) endsAt!: Date;
  @Field(() => String, { description: 'Background colour: blank or #RGB / #RRGGBB.' }) color!: string;
  @Field(() => String, { description: 'Text colour: blank or #RGB / #RRGGBB.' }) font!: string;
}

export const BroadcastMessagePage = PageType(BroadcastMessageType, 'BroadcastMessagePage');

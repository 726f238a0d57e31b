import { ArgsType, Field, InputType } from 'type-graphql';
import { PageArgs } from '../../core/pagination/page';

/** The list's arguments: pages, and (for dashboards) only the messages shown now or only the others. */
@ArgsType()
export class BroadcastMessagesArgs extends PageArgs {
  @Field(() => Boolean, {
    nullable: true,
    description: 'true: only messages whose window contains now; false: only the others.',
  })
  active?: boolean;
}

const WHEN = 'ISO 8601 date-time, any offset (e.g. 2026-11-22T10:00:00+01:00).';

/** The writable fields: the allow-list of every write (spec 4.22: all optional). */
@InputType('UpdateBroadcastMessageInput')
export class UpdateBroadcastMessageInput {
  @Field(() => String, { nullable: true }) message?: string;
  @Field(() => String, { nullable: true, description: WHEN }) startsAt?: string;
  @Field(() => String, { nullable: true, description: WHEN }) endsAt?: string;
  @Field(() => String, { nullable: true, description: 'Blank or #RGB / #RRGGBB.' }) color?: string;
  @Field(() => String, { nullable: true, description: 'Blank or #RGB / #RRGGBB.' }) font?: string;
}

/** spec 4.21: message required; defaults for the rest are applied by the service. */
@InputType('CreateBroadcastMessageInput')
export class CreateBroadcastMessageInput extends UpdateBroadcastMessageInput {
  @Field(() => String) override message!: string;
}

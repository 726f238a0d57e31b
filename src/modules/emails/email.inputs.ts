import { ArgsType, Field, InputType, Int } from 'type-graphql';
import { PageArgs } from '../../core/pagination/page';

@InputType('CreateEmailInput')
export class CreateEmailInput {
  @Field(() => String, { description: 'The address; stored lower-cased.' }) email!: string;
}

@ArgsType()
export class UserEmailsArgs extends PageArgs {
  @Field(() => Int) userId!: number;
}

import { UserIdArg } from '../users/user.type';
import { ArgsType, Field, InputType } from 'type-graphql';
import { PageArgs } from '../../core/pagination/page';

@InputType('CreateEmailInput')
export class CreateEmailInput {
  @Field(() => String, { description: 'The address; stored lower-cased.' }) email!: string;
}

@ArgsType()
export class UserEmailsArgs extends PageArgs {
  @Field(() => UserIdArg) userId!: number;
}

import { UserIdArg } from '../users';
import { ArgsType, Field, InputType, registerEnumType } from 'type-graphql';
import { PageArgs } from '../../core/pagination/page';

export enum TokenState {
  ALL = 'ALL',
  ACTIVE = 'ACTIVE',
  INACTIVE = 'INACTIVE',
}
registerEnumType(TokenState, { name: 'TokenState' });

@ArgsType()
export class ImpersonationTokensArgs extends PageArgs {
  @Field(() => UserIdArg) userId!: number;
  @Field(() => TokenState, { nullable: true, description: 'Default ALL.' }) state?: TokenState;
}

@InputType('CreateImpersonationTokenInput')
export class CreateImpersonationTokenInput {
  @Field(() => String) name!: string;
  @Field(() => [String], { description: 'api, read_api, read_user, sudo, read_registry' }) scopes!: string[];
  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD' }) expiresAt?: string;
}

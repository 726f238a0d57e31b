import { UserIdArg } from '../users';
import { ArgsType, Field, InputType, registerEnumType } from 'type-graphql';
import { PageArgs } from '../../core/pagination/page';

export enum TokenState {
  ALL = 'ALL',
  ACTIVE = 'ACTIVE',
  INACTIVE = 'INACTIVE',
}
registerEnumType(TokenState, { name: 'TokenState' });

/** `User.impersonationTokens`: by state. */
@ArgsType()
export class TokenStateArgs extends PageArgs {
  @Field(() => TokenState, { nullable: true, description: 'Default ALL.' }) state?: TokenState;
}

@ArgsType()
export class ImpersonationTokensArgs extends TokenStateArgs {
  @Field(() => UserIdArg) userId!: number;
}

@InputType('CreateImpersonationTokenInput')
export class CreateImpersonationTokenInput {
  @Field(() => String) name!: string;
  @Field(() => [String], { description: 'api, read_api, read_user, sudo, read_registry' }) scopes!: string[];
  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD' }) expiresAt?: string;
}

/** GET /personal_access_tokens (later GitLab's filters). */
@ArgsType()
export class PersonalAccessTokensArgs extends PageArgs {
  @Field(() => UserIdArg, { nullable: true, description: "Administrators: that user's tokens; others see their own." })
  userId?: number;
  @Field(() => TokenState, { nullable: true, description: 'Default ALL.' }) state?: TokenState;
  @Field(() => Boolean, { nullable: true }) revoked?: boolean;
  @Field(() => String, { nullable: true, description: 'Substring of the name (case-insensitive).' }) search?: string;
  @Field(() => String, { nullable: true, description: 'ISO 8601 time.' }) createdBefore?: string;
  @Field(() => String, { nullable: true, description: 'ISO 8601 time.' }) createdAfter?: string;
  @Field(() => String, { nullable: true, description: 'ISO 8601 time.' }) lastUsedBefore?: string;
  @Field(() => String, { nullable: true, description: 'ISO 8601 time.' }) lastUsedAfter?: string;
}

@InputType('CreatePersonalAccessTokenInput')
export class CreatePersonalAccessTokenInput {
  @Field(() => String) name!: string;
  @Field(() => [String], { description: 'api, read_api, read_user, sudo, read_registry' }) scopes!: string[];
  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD' }) expiresAt?: string;
}

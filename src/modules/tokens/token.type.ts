import { idArgOf } from '../../core/graphql/global-id';
import { DatabaseNode, Node } from '../../core/graphql/node';
import { Field, Int, ObjectType } from 'type-graphql';
import { PageType } from '../../core/pagination/page';
import { TOKEN_SCOPES } from '../../core/auth/allow';
import { MaxItems } from '../../core/graphql/list-bound';

@ObjectType('ImpersonationToken', { implements: Node })
export class ImpersonationTokenType extends DatabaseNode {
  @Field(() => String) name!: string;
  @Field(() => Boolean) revoked!: boolean;
  @Field(() => Date) createdAt!: Date;
  @Field(() => [String]) @MaxItems(TOKEN_SCOPES.length) scopes!: string[]; // validated, without duplicates
  @Field(() => Int) userId!: number;
  @Field(() => Boolean) impersonation!: boolean;
  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD' }) expiresAt!: string | null;
  @Field(() => String, { nullable: true, description: 'The plain token; only in the response that created it.' })
  token!: string | null;
}

export const ImpersonationTokenPage = PageType(ImpersonationTokenType, 'ImpersonationTokenConnection');

/** Argument type of a PersonalAccessToken id: its global id or database id (core/graphql/global-id.ts; REST keeps the integer). */
export const ImpersonationTokenIdArg = idArgOf('PersonalAccessToken');

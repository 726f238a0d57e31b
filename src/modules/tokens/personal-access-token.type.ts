import { Field, Int, ObjectType } from 'type-graphql';
import { TOKEN_SCOPES } from '../../core/auth/allow';
import { MaxItems } from '../../core/graphql/list-bound';
import { DatabaseNode, Node } from '../../core/graphql/node';
import { PageType } from '../../core/pagination/page';

/**
 * A personal access token as later GitLab's personal access tokens API shows it
 * (https://docs.gitlab.com/ee/api/personal_access_tokens.html): never its value, except in the answer
 * that created or rotated it.
 */
@ObjectType('PersonalAccessToken', { implements: Node })
export class PersonalAccessTokenType extends DatabaseNode {
  @Field(() => String) name!: string;
  @Field(() => Boolean) revoked!: boolean;
  @Field(() => Date) createdAt!: Date;
  @Field(() => [String]) @MaxItems(TOKEN_SCOPES.length) scopes!: string[];
  @Field(() => Int) userId!: number;
  @Field(() => Date, {
    nullable: true,
    description: 'When the token last authenticated a request (recorded at most every 10 minutes); null if never.',
  })
  lastUsedAt!: Date | null;
  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD' }) expiresAt!: string | null;
  @Field(() => String, {
    nullable: true,
    description: 'The plain token; only in the answer that created or rotated it.',
  })
  token!: string | null;
}

export const PersonalAccessTokenPage = PageType(PersonalAccessTokenType, 'PersonalAccessTokenConnection');

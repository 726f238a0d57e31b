import { ArgsType, Field, InputType, Int } from 'type-graphql';
import { PageArgs } from '../../core/pagination/page';
import { GraphQLOnly } from '../../core/graphql/graphql-only';
import { UploadScalar } from '../../core/graphql/upload-scalar';
import type { UploadedFile } from '../../core/http/uploaded-file';
import { CustomAttributeFilter } from '../custom-attributes';

@ArgsType()
export class UsersArgs extends PageArgs {
  @Field(() => String, { nullable: true, description: 'Substring of username, name or email.' })
  search?: string;

  @Field(() => String, { nullable: true, description: 'Exact username (case-insensitive).' })
  username?: string;

  /** GitLab's GraphQL `users(usernames)`; REST has `username` only. */
  @GraphQLOnly()
  @Field(() => [String], { nullable: true, description: 'Users with these usernames (case-insensitive; at most 100).' })
  usernames?: string[];

  @Field(() => Boolean, { nullable: true, description: 'Only active users.' })
  active?: boolean;

  @Field(() => Boolean, { nullable: true, description: 'Only blocked users.' })
  blocked?: boolean;

  @Field(() => String, {
    nullable: true,
    description: 'With provider: the user with this external uid at that provider (administrators only).',
  })
  externUid?: string;

  @Field(() => String, {
    nullable: true,
    description: 'With externUid: the external authentication provider (administrators only).',
  })
  provider?: string;

  @Field(() => [CustomAttributeFilter], { nullable: true, description: 'Administrators only; ignored for others.' })
  customAttributes?: CustomAttributeFilter[];

  @Field(() => Boolean, { nullable: true, description: 'Only external users (administrators only).' })
  external?: boolean;

  @Field(() => String, { nullable: true, description: 'ISO 8601 time: users created at or after it.' })
  createdAfter?: string;

  @Field(() => String, { nullable: true, description: 'ISO 8601 time: users created at or before it.' })
  createdBefore?: string;
}

@InputType('UserAttributesInput')
export class UserAttributesInput {
  @Field(() => String, { nullable: true }) email?: string;
  @Field(() => String, { nullable: true }) username?: string;
  @Field(() => String, { nullable: true }) name?: string;
  @Field(() => String, { nullable: true }) password?: string;
  @Field(() => Boolean, { nullable: true }) admin?: boolean;
  @Field(() => Boolean, { nullable: true }) canCreateGroup?: boolean;
  @Field(() => Int, { nullable: true }) projectsLimit?: number;
  @Field(() => Boolean, { nullable: true }) external?: boolean;
  @Field(() => String, { nullable: true }) bio?: string;
  @Field(() => String, { nullable: true }) location?: string;
  @Field(() => String, { nullable: true }) organization?: string;
  @Field(() => String, { nullable: true }) skype?: string;
  @Field(() => String, { nullable: true }) linkedin?: string;
  @Field(() => String, { nullable: true }) twitter?: string;
  @Field(() => String, { nullable: true }) websiteUrl?: string;
  @Field(() => UploadScalar, {
    nullable: true,
    description: 'Avatar image: png, jpg, jpeg, gif, bmp, tiff or ico, at most 200 KB.',
  })
  avatar?: UploadedFile;
  @Field(() => String, {
    nullable: true,
    description: "With provider: the user's uid at an external authentication provider (an identity).",
  })
  externUid?: string;
  @Field(() => String, { nullable: true, description: 'With externUid: the external authentication provider.' })
  provider?: string;
}

@InputType('CreateUserInput')
export class CreateUserInput extends UserAttributesInput {
  @Field(() => Boolean, {
    nullable: true,
    description:
      "Instead of a password (GitLab 10.3's reset_password): a random one is set. GitLab also mails a reset link; this service sends no mail, so an administrator sets the password later (docs/rest.md#resources-at-a-glance, users).",
  })
  resetPassword?: boolean;
}

@InputType('UpdateUserInput')
export class UpdateUserInput extends UserAttributesInput {}

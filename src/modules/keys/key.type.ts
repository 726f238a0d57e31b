import { idArgOf } from '../../core/graphql/global-id';
import { DatabaseNode, Node } from '../../core/graphql/node';
import { Field, ObjectType } from 'type-graphql';
import { PageType } from '../../core/pagination/page';
import { TextCost } from '../../core/graphql/text-cost';
import { KEY_MAX } from './key.limits';

@ObjectType('SshKey', { description: "A user's SSH public key.", implements: Node })
export class SshKeyType extends DatabaseNode {
  @Field(() => String) title!: string;
  @Field(() => String, { description: 'The key as stored: type, base64 blob and comment, on one line.' })
  @TextCost(KEY_MAX)
  key!: string;
  @Field(() => String, { description: 'MD5 fingerprint of the key, colon-separated hex.' }) fingerprint!: string;
  @Field(() => Date) createdAt!: Date;
}

/** A key with its owner (the administrators' single-key read). */
@ObjectType('SshKeyWithUser', { description: 'An SSH key with the user it belongs to.', implements: Node })
export class SshKeyWithUserType extends SshKeyType {}

export const SshKeyPage = PageType(SshKeyType, 'SshKeyConnection');

/** Argument type of a Key id: its global id or database id (core/graphql/global-id.ts; REST keeps the integer). */
export const KeyIdArg = idArgOf('Key');

import { UserIdArg } from '../users';
import { ArgsType, Field, InputType } from 'type-graphql';
import { PageArgs } from '../../core/pagination/page';

/** The writable fields of a key, in GitLab's parameter order (key, then title). */
@InputType('CreateSshKeyInput')
export class CreateSshKeyInput {
  @Field(() => String, { description: 'The public key in OpenSSH format: type, base64 blob, optional comment.' })
  key!: string;
  @Field(() => String, { description: 'A name for the key (at most 255 characters).' }) title!: string;
}

@ArgsType()
export class UserSshKeysArgs extends PageArgs {
  @Field(() => UserIdArg) userId!: number;
}

import { UserIdArg } from '../users';
import { ArgsType, Field, InputType } from 'type-graphql';
import { PageArgs } from '../../core/pagination/page';

@ArgsType()
export class UserGpgKeysArgs extends PageArgs {
  @Field(() => UserIdArg) userId!: number;
}

/** The one writable field: the key (GitLab 10.3 `requires :key, type: String`). */
@InputType('CreateGpgKeyInput')
export class CreateGpgKeyInput {
  @Field(() => String, {
    description:
      "An ASCII-armored OpenPGP public key block ('-----BEGIN PGP PUBLIC KEY BLOCK-----' … '-----END PGP PUBLIC KEY BLOCK-----').",
  })
  key!: string;
}

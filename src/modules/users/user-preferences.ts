import { Field, InputType, Int, ObjectType } from 'type-graphql';
import type { RequestCtx } from '../../core/context/request-ctx';
import { requireUser } from '../../core/auth/guards';
import { sqlRows } from '../../core/db/sql';

/**
 * A user's preferences (GitLab's UserPreference as the users API shows it, 13.10+:
 * https://docs.gitlab.com/ee/api/users.html#user-preferences). Only the three attributes the API reads
 * and writes are stored; GitLab's GraphQL `UserPreferences` names them the same way.
 */
@ObjectType('UserPreferences', { description: "The signed-in user's preferences." })
export class UserPreferencesType {
  @Field(() => Int, {
    nullable: true,
    description: 'Null until the preferences are first changed (GitLab builds them on read).',
  })
  id!: number | null;
  @Field(() => Int) userId!: number;
  @Field(() => Boolean, { description: 'Only one file diff per page.' }) viewDiffsFileByFile!: boolean;
  @Field(() => Boolean, { description: 'Whitespace changes shown in diffs.' }) showWhitespaceInDiffs!: boolean;
  @Field(() => Boolean, { description: "The user's external identities passed to CI jobs in their JSON web token." })
  passUserIdentitiesToCiJwt!: boolean;
}

@InputType('UpdateUserPreferencesInput')
export class UpdateUserPreferencesInput {
  @Field(() => Boolean, { nullable: true }) viewDiffsFileByFile?: boolean;
  @Field(() => Boolean, { nullable: true }) showWhitespaceInDiffs?: boolean;
  @Field(() => Boolean, { nullable: true }) passUserIdentitiesToCiJwt?: boolean;
}

type Row = {
  id: number;
  user_id: number;
  view_diffs_file_by_file: boolean;
  show_whitespace_in_diffs: boolean;
  pass_user_identities_to_ci_jwt: boolean;
};
const view = (r: Row): UserPreferencesType => ({
  id: r.id === null ? null : Number(r.id),
  userId: Number(r.user_id),
  viewDiffsFileByFile: r.view_diffs_file_by_file,
  showWhitespaceInDiffs: r.show_whitespace_in_diffs,
  passUserIdentitiesToCiJwt: r.pass_user_identities_to_ci_jwt,
});

/** GitLab's defaults (the columns' defaults), for a user who never changed them. */
const defaults = (userId: number): UserPreferencesType => ({
  id: null,
  userId,
  viewDiffsFileByFile: false,
  showWhitespaceInDiffs: true,
  passUserIdentitiesToCiJwt: false,
});

/** GET /user/preferences: the caller's preferences (GitLab's `user_preference`, built with its defaults when absent). */
async function get(ctx: RequestCtx): Promise<UserPreferencesType> {
  const user = requireUser(ctx);
  const [row] = await sqlRows<Row>(ctx.em, 'select * from user_preferences where user_id = ?', [user.id]);
  return row ? view(row) : defaults(user.id);
}

/**
 * PUT /user/preferences (GitLab's UserPreferences::UpdateService): the attributes sent, the others kept.
 * At least one is required (the REST route's rule; on GraphQL an empty input changes nothing).
 */
async function update(ctx: RequestCtx, input: UpdateUserPreferencesInput): Promise<UserPreferencesType> {
  const user = requireUser(ctx);
  const now = ctx.clock.now();
  const base = defaults(user.id);
  const sent = (v: boolean | null | undefined) => (v === undefined || v === null ? null : v);
  const [row] = await sqlRows<Row>(
    ctx.em,
    `insert into user_preferences (user_id, view_diffs_file_by_file, show_whitespace_in_diffs, pass_user_identities_to_ci_jwt, created_at, updated_at)
     values (?, coalesce(?::boolean, ?), coalesce(?::boolean, ?), coalesce(?::boolean, ?), ?, ?)
     on conflict (user_id) do update set
       view_diffs_file_by_file = coalesce(?::boolean, user_preferences.view_diffs_file_by_file),
       show_whitespace_in_diffs = coalesce(?::boolean, user_preferences.show_whitespace_in_diffs),
       pass_user_identities_to_ci_jwt = coalesce(?::boolean, user_preferences.pass_user_identities_to_ci_jwt),
       updated_at = excluded.updated_at
     returning *`,
    [
      user.id,
      sent(input.viewDiffsFileByFile),
      base.viewDiffsFileByFile,
      sent(input.showWhitespaceInDiffs),
      base.showWhitespaceInDiffs,
      sent(input.passUserIdentitiesToCiJwt),
      base.passUserIdentitiesToCiJwt,
      now,
      now,
      sent(input.viewDiffsFileByFile),
      sent(input.showWhitespaceInDiffs),
      sent(input.passUserIdentitiesToCiJwt),
    ],
  );
  return view(row);
}

export const userPreferencesService = { get, update };

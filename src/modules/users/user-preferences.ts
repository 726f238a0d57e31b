import { Field, InputType, Int, ObjectType } from 'type-graphql';
import type { RequestCtx } from '../../core/context/request-ctx';
import { requireUser } from '../../core/auth/guards';
import { sqlRows } from '../../core/db/sql';
import { GraphQLOnly } from '../../core/graphql/graphql-only';
import { ProjectSort, projectSortString } from '../access';

/**
 * A user's preferences (GitLab's UserPreference as the users API shows it, 13.10+:
 * https://docs.gitlab.com/ee/api/users.html#user-preferences). The three attributes the API reads and
 * writes are stored, and GitLab's GraphQL-only `projectsSort`; GitLab's GraphQL `UserPreferences` names them the same way.
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
  @Field(() => ProjectSort, { nullable: true, description: 'Sort order for projects.' })
  projectsSort!: ProjectSort | null;
}

@InputType('UpdateUserPreferencesInput')
export class UpdateUserPreferencesInput {
  @Field(() => Boolean, { nullable: true }) viewDiffsFileByFile?: boolean;
  @Field(() => Boolean, { nullable: true }) showWhitespaceInDiffs?: boolean;
  @Field(() => Boolean, { nullable: true }) passUserIdentitiesToCiJwt?: boolean;
  // GitLab's GraphQL only: the users API has no such parameter.
  @Field(() => ProjectSort, { nullable: true, description: 'Sort order for projects.' })
  @GraphQLOnly()
  projectsSort?: ProjectSort;
}

type Row = {
  id: number;
  user_id: number;
  view_diffs_file_by_file: boolean;
  show_whitespace_in_diffs: boolean;
  pass_user_identities_to_ci_jwt: boolean;
  projects_sort: string | null;
};

/** The stored sort string as GitLab's enum (GitLab stores the lists' strings; one it no longer knows reads as null). */
const SORTS = new Map(Object.values(ProjectSort).map((v) => [projectSortString(v), v]));
const view = (r: Row): UserPreferencesType => ({
  id: r.id === null ? null : Number(r.id),
  userId: Number(r.user_id),
  viewDiffsFileByFile: r.view_diffs_file_by_file,
  showWhitespaceInDiffs: r.show_whitespace_in_diffs,
  passUserIdentitiesToCiJwt: r.pass_user_identities_to_ci_jwt,
  projectsSort: (r.projects_sort && SORTS.get(r.projects_sort)) || null,
});

/** GitLab's defaults (the columns' defaults), for a user who never changed them. */
const defaults = (userId: number): UserPreferencesType => ({
  id: null,
  userId,
  viewDiffsFileByFile: false,
  showWhitespaceInDiffs: true,
  passUserIdentitiesToCiJwt: false,
  projectsSort: null,
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
  const sort = input.projectsSort ? projectSortString(input.projectsSort) : null;
  const [row] = await sqlRows<Row>(
    ctx.em,
    `insert into user_preferences (user_id, view_diffs_file_by_file, show_whitespace_in_diffs, pass_user_identities_to_ci_jwt, projects_sort, created_at, updated_at)
     values (?, coalesce(?::boolean, ?), coalesce(?::boolean, ?), coalesce(?::boolean, ?), ?, ?, ?)
     on conflict (user_id) do update set
       view_diffs_file_by_file = coalesce(?::boolean, user_preferences.view_diffs_file_by_file),
       show_whitespace_in_diffs = coalesce(?::boolean, user_preferences.show_whitespace_in_diffs),
       pass_user_identities_to_ci_jwt = coalesce(?::boolean, user_preferences.pass_user_identities_to_ci_jwt),
       projects_sort = coalesce(?::varchar, user_preferences.projects_sort),
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
      sort,
      now,
      now,
      sent(input.viewDiffsFileByFile),
      sent(input.showWhitespaceInDiffs),
      sent(input.passUserIdentitiesToCiJwt),
      sort,
    ],
  );
  return view(row);
}

export const userPreferencesService = { get, update };

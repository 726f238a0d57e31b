import crypto from 'node:crypto';
import { Field, ObjectType } from 'type-graphql';
import type { RequestCtx } from '../../core/context/request-ctx';
import { sqlRows } from '../../core/db/sql';
import { ForbiddenError } from '../../core/errors/domain-errors';
import { avatarUrl } from '../avatars';
import { currentSettings } from '../application-settings';

/** GitLab's Entities::Avatar. */
@ObjectType('AvatarLookup', { description: 'The avatar URL for an e-mail address.' })
export class AvatarLookupType {
  @Field(() => String, { nullable: true, description: 'Null when no user has an avatar and Gravatar is off.' })
  avatarUrl!: string | null;
}

/** GitLab's default Gravatar URLs (config/initializers/1_settings.rb): `ssl_url` behind HTTPS, else `plain_url`. */
const GRAVATAR_PLAIN = 'https://www.gravatar.com/avatar/%{hash}?s=%{size}&d=identicon';
const GRAVATAR_SSL = 'https://secure.gravatar.com/avatar/%{hash}?s=%{size}&d=identicon';
/** GitLab's GravatarService: 40 pixels unless a positive size is asked for, times a scale of 2. */
const DEFAULT_SIZE = 40;
const SCALE = 2;
const PUBLIC_LEVEL = 20;

/** GitLab's GravatarService#execute: the URL only, built locally (nothing is fetched). */
export function gravatarUrl(externalUrl: string, email: string, size: number | null | undefined): string {
  const hash = crypto.createHash('md5').update(email.trim().toLowerCase()).digest('hex');
  const px = (size && size > 0 ? size : DEFAULT_SIZE) * SCALE;
  const template = externalUrl.startsWith('https:') ? GRAVATAR_SSL : GRAVATAR_PLAIN;
  return template.replace('%{hash}', hash).replace('%{size}', String(px));
}

/**
 * GET /avatar (GitLab's lib/api/avatar.rb): the uploaded avatar of the user with this e-mail address,
 * else Gravatar's URL for the address (null when the `avatar_enabled` setting, GitLab's
 * `gravatar_enabled`, is off). GitLab matches users' public e-mail; users here have none, so the
 * primary address stands in, matched exactly as the users list's search matches it for anyone.
 * Anonymous callers are refused when the public level is restricted (GitLab's `read_users_list`).
 */
async function lookup(ctx: RequestCtx, email: string, size: number | null | undefined): Promise<AvatarLookupType> {
  const settings = await currentSettings(ctx);
  const restricted = (settings.restricted_visibility_levels as number[] | null) ?? [];
  if (!ctx.user && restricted.includes(PUBLIC_LEVEL)) throw new ForbiddenError('Unauthorized access');
  const [user] = await sqlRows<{ id: number; avatar: string | null }>(
    ctx.em,
    'select id, avatar from users where lower(email) = lower(?) limit 1',
    [email],
  );
  const uploaded = user ? avatarUrl(ctx.externalUrl, 'user', Number(user.id), user.avatar) : null;
  if (uploaded) return { avatarUrl: uploaded };
  if (!settings.avatar_enabled || email.trim() === '') return { avatarUrl: null };
  return { avatarUrl: gravatarUrl(ctx.externalUrl, email, size) };
}

export const userAvatarLookup = { lookup };

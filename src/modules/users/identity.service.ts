import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestCtx } from '../../core/context/request-ctx';
import { sqlRows } from '../../core/db/sql';
import { recordAudit, type AuditEntry } from '../../core/events/audit';
import { claimForDelete } from '../../core/db/delete-claim';
import { NotFoundError, ParamError, ValidationError } from '../../core/errors/domain-errors';
import { intArray } from '../access';
import { longerThan } from '../../core/validation/char-length';
import { ruleProblems } from '../../rest/param-rules';
import type { ParamRule } from '../../rest/route';

/** GitLab 10.3's `all_or_none_of :extern_uid, :provider` (the users routes and their GraphQL twins). */
export const IDENTITY_PAIR: ParamRule = { allOrNoneOf: ['extern_uid', 'provider'] };

/** A user's identity as the entities show it (GitLab's Entities::Identity). */
export interface IdentityView {
  provider: string;
  externUid: string;
}

/** Identities shown per user (one per provider; a bound for the GraphQL cost walk). */
export const IDENTITIES_MAX = 100;

/** Each user's identities, by provider: one query per batch (the admin user list shows them per row). */
async function identitiesOf(ctx: RequestCtx, ids: readonly number[]): Promise<IdentityView[][]> {
  const rows = await sqlRows<{ user_id: number; provider: string; extern_uid: string }>(
    ctx.em,
    `select user_id, provider, extern_uid from (
       select i.*, row_number() over (partition by user_id order by provider) as n from identities i where user_id = any(${intArray(ids)})) x
      where n <= ${IDENTITIES_MAX} order by user_id, provider`,
  );
  const by = new Map<number, IdentityView[]>(ids.map((id) => [id, []]));
  for (const r of rows) by.get(Number(r.user_id))?.push({ provider: r.provider, externUid: r.extern_uid });
  return ids.map((id) => by.get(id) ?? []);
}

export function identityLoaders(ctx: RequestCtx) {
  return { userIdentities: new DataLoader<number, IdentityView[]>((ids) => identitiesOf(ctx, ids)) };
}

type IdentityLoaders = ReturnType<typeof identityLoaders>;
declare module '../../core/context/loaders' {
  interface Loaders extends IdentityLoaders {}
}

/** `provider` + `extern_uid` of POST/PUT /users (the route requires both or neither). */
export interface IdentityInput {
  provider?: string | null;
  externUid?: string | null;
}

const INVALID = () => new ValidationError({ identities: ['is invalid'] });

/**
 * Checks before the write: GitLab's Identity validations (provider present; an external uid belongs to
 * one user per provider, case-insensitively). A failing identity fails the user's save with
 * `identities is invalid` (its autosaved association).
 */
export async function checkIdentity(ctx: RequestCtx, userId: number | undefined, input: IdentityInput): Promise<void> {
  // The routes' all_or_none_of, for GraphQL callers too (REST has answered it with the other parameters' problems).
  const [unpaired] = ruleProblems([IDENTITY_PAIR], { extern_uid: input.externUid, provider: input.provider });
  if (unpaired) throw new ParamError(unpaired);
  if (input.provider == null || input.externUid == null) return;
  if (input.provider.trim() === '' || longerThan(input.provider, 255) || longerThan(input.externUid, 255))
    throw INVALID();
  const taken = await sqlRows(
    ctx.em,
    'select 1 from identities where provider = ? and lower(extern_uid) = lower(?) and user_id <> ?',
    [input.provider, input.externUid, userId ?? 0],
  );
  if (taken.length > 0) throw INVALID();
}

/**
 * Sets the user's identity for `provider` on the write's transaction (GitLab 10.3's PUT /users: the
 * identity of that provider is updated, else one is added); returns its audit entry, if anything changed.
 */
export async function saveIdentity(
  em: EntityManager,
  userId: number,
  input: IdentityInput,
  audit: Omit<AuditEntry, 'action' | 'targetType' | 'targetId' | 'targetDetails'>,
): Promise<AuditEntry[]> {
  const { provider, externUid } = input;
  if (provider == null || externUid == null) return [];
  const [old] = await sqlRows<{ id: number; extern_uid: string }>(
    em,
    'select id, extern_uid from identities where user_id = ? and provider = ? for update',
    [userId, provider],
  );
  if (old && old.extern_uid === externUid) return [];
  const [row] = old
    ? await sqlRows<{ id: number }>(
        em,
        'update identities set extern_uid = ?, updated_at = now() where id = ? returning id',
        [externUid, old.id],
      )
    : await sqlRows<{ id: number }>(
        em,
        'insert into identities (user_id, provider, extern_uid) values (?, ?, ?) returning id',
        [userId, provider, externUid],
      );
  const target = { ...audit, targetType: 'Identity', targetId: row.id, targetDetails: provider };
  return [
    old
      ? { ...target, action: { change: 'extern_uid', from: old.extern_uid, to: externUid } }
      : { ...target, action: { add: 'identity' } },
  ];
}

/**
 * DELETE /users/:id/identities/:provider (current GitLab, admin): removes the user's identity at that
 * provider (`404 Identity Not Found` without one), with GitLab's conditional delete and an audit event.
 */
export async function removeIdentity(
  ctx: RequestCtx,
  userId: number,
  provider: string,
  audit: Omit<AuditEntry, 'action' | 'targetType' | 'targetId' | 'targetDetails'>,
): Promise<boolean> {
  await ctx.em.transactional(async (em) => {
    await claimForDelete(ctx, em, {
      table: 'identities',
      where: 'user_id = ? and provider = ?',
      params: [userId, provider],
      missing: () => new NotFoundError('Identity'),
    });
    const [row] = await sqlRows<{ id: number }>(
      em,
      'delete from identities where user_id = ? and provider = ? returning id',
      [userId, provider],
    );
    await recordAudit(ctx, em, [
      {
        ...audit,
        targetType: 'Identity',
        targetId: Number(row.id),
        targetDetails: provider,
        action: { remove: 'identity' },
      },
    ]);
  });
  return true;
}

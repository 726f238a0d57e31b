import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { digestToken, generateToken } from '../../core/auth/token';
import { systemClock } from '../../core/context/request-ctx';
import { anyUser, insertWithNamespace, newUser } from '../users';
import { PersonalAccessToken } from './personal-access-token.entity';

/**
 * First start on an empty database: admin `root` and a personal access token — INITIAL_ROOT_TOKEN when
 * set, otherwise a random one printed once to the log. Only the token's SHA-256 digest is stored.
 */
export async function ensureRootUser(
  em: EntityManager,
  initialToken: string | undefined,
  logger: Logger,
): Promise<void> {
  if (await anyUser(em)) return;
  const root = newUser({
    username: 'root',
    email: 'admin@example.com',
    name: 'Administrator',
    admin: true,
    canCreateGroup: true,
  });
  await insertWithNamespace({ em, clock: systemClock }, root);
  const token = initialToken ?? generateToken();
  em.persist(
    em.create(PersonalAccessToken, {
      userId: root.id,
      name: 'initial root token',
      tokenDigest: digestToken(token),
      scopes: ['api', 'sudo'],
      impersonation: false,
      revoked: false,
      expiresAt: null,
      lastUsedAt: null,
      createdAt: new Date(),
      updatedAt: new Date(),
    }),
  );
  await em.flush();
  if (initialToken) logger.info('created admin user root with the token from INITIAL_ROOT_TOKEN');
  else logger.warn({ token }, 'created admin user root; its personal access token is shown only this once');
}

import type { SeedEnv } from '../../core/module/app-module';
import { User } from '../users';
import { broadcastMessageService } from './broadcast-message.service';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Demo broadcast messages: one past, one current, one future (idempotent: skipped when any exist). */
export async function seedBroadcastMessages(env: SeedEnv): Promise<void> {
  const { em, log } = env;
  if ((await em.getConnection().execute('select 1 from broadcast_messages limit 1')).length > 0) {
    log('broadcast messages already present: skipped');
    return;
  }
  const admin = env.as(await em.findOneOrFail(User, { username: 'root' }));
  const at = (offsetDays: number) => new Date(admin.clock.now().getTime() + offsetDays * DAY_MS).toISOString();
  await broadcastMessageService.create(admin, {
    message: 'Upgrade to 10.3 finished',
    startsAt: at(-7),
    endsAt: at(-6),
  });
  await broadcastMessageService.create(admin, {
    message: 'Scheduled maintenance this weekend',
    startsAt: at(-1),
    endsAt: at(3),
    color: '#1F78D1',
  });
  await broadcastMessageService.create(admin, {
    message: 'Registry read-only window',
    startsAt: at(10),
    endsAt: at(11),
    color: '#FC9403',
    font: '#000',
  });
  log('broadcast messages: 3 (past, current, future)');
}

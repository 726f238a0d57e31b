import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * What one notification costs an instance, whatever its number of subscribers: values computed once
 * per notification (the rows it names, whether a user may read one of them) and shared by every
 * subscriber of this instance that handles it. The hub hands one memo to all its handlers of the
 * notification; the memo is gone once they are done with it. Values are promises, so subscribers that
 * ask at the same time share one statement.
 */
export class NotificationMemo {
  private readonly values = new Map<string, Promise<unknown>>();

  constructor(readonly payload: string) {}

  once<T>(key: string, compute: () => Promise<T>): Promise<T> {
    let value = this.values.get(key) as Promise<T> | undefined;
    if (!value) {
      value = Promise.resolve().then(compute);
      this.values.set(key, value);
    }
    return value;
  }
}

/** The notification a subscriber's renewed entity manager is handling (core/events/live.ts binds it). */
const handling = new WeakMap<EntityManager, NotificationMemo>();

export function bindNotification(em: EntityManager, memo: NotificationMemo): void {
  handling.set(em, memo);
}

/**
 * The memo of `payload`'s notification when `em` is handling it: shared reads (`auditRows`) called from
 * a subscription's `load` find it through the entity manager they are given, without a new parameter.
 */
export function notificationOf(em: EntityManager, payload: string): NotificationMemo | undefined {
  const memo = handling.get(em);
  return memo && memo.payload === payload ? memo : undefined;
}

import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppEnv } from '../../core/context/request-ctx';
import type { SecretBox, SecretSlot } from '../../core/crypto/secret-box';
import { sqlRows } from '../../core/db/sql';
import { OUTBOX_READY, OUTBOX_WAKE_KEY } from '../../core/events/system-events';
import { checkOutboundUrl, postJson, type OutboundResult } from '../../core/http/outbound';
import type { BackgroundEnv, BackgroundTask } from '../../core/module/app-module';
import { positiveIntSetting, readSetting } from '../../core/module/env-settings';
import { localRequestsFromSystemHooksAllowed } from '../application-settings';

/**
 * Delivery of system hook events (docs/rest.md#system-hooks): at least once, in order per hook, from any
 * instance, surviving restarts.
 *
 * Each hook row carries its own cursor (`last_txid`, `last_event_id`) into the outbox (`system_hook_events`, read in
 * commit order: core/events/system-events.ts). An instance claims a hook with a lease (`lease_until`,
 * three delivery timeouts long, renewed after each delivery) through `FOR UPDATE SKIP LOCKED`, so two
 * instances never deliver to one hook at once; it then sends the hook's next events one by one and
 * moves the cursor after each success. A failure leaves the cursor, counts the failure and backs the
 * hook off (base × 2^(failures−1), capped); a process killed mid-delivery leaves a lease that lapses,
 * after which any instance sends that event again. Receivers can drop repeats by `X-Gitlab-Event-UUID`.
 *
 * Wake-ups: a committed event NOTIFYs every instance (the shared cache's channel); otherwise a timer
 * set to the next retry or lease expiry, at most POLL_MS away.
 */
export interface DeliveryConfig {
  /** GitLab's hooks time out after 10 s (SYSTEM_HOOK_TIMEOUT_MS). */
  timeoutMs: number;
  /** First retry delay (SYSTEM_HOOK_RETRY_BASE_MS, default 10 s); doubles per failure. */
  retryBaseMs: number;
  /** Longest retry delay (SYSTEM_HOOK_RETRY_MAX_MS, default 1 h). */
  retryMaxMs: number;
  /** How often delivered outbox rows are deleted (SYSTEM_HOOK_PRUNE_MS, default 1 min). */
  pruneMs: number;
}

const POLL_MS = 30_000;
/** Re-check of committed events waiting for an older running transaction to end. */
const READY_RECHECK_MS = 100;
/** SQL: outbox row `e` comes after hook `<alias>`'s cursor. */
const AFTER_CURSOR = (alias: string) => `(e.txid, e.id) > (${alias}.last_txid, ${alias}.last_event_id)`;
/** A commit's wake-up waits this long, so that a burst of commits costs one round of claims. */
const WAKE_DELAY_MS = 20;
/** Time one prune round may take, and the pause before the next when it did not finish. */
const PRUNE_BUDGET_MS = 200;
const PRUNE_AGAIN_MS = 1000;
/** Hooks served at once per instance. */
const PARALLEL = 4;
/** Events sent per claim before the hook is released (fairness between hooks and instances). */
const BATCH = 50;
/** Delivery attempts kept per hook. */
export const LOGS_KEPT = 50;
/** Failures in a row after which a hook shows as temporarily_disabled (later GitLab's threshold). */
export const DISABLE_AFTER = 4;

const TIMEOUT_MS = positiveIntSetting('SYSTEM_HOOK_TIMEOUT_MS', 10_000);
const RETRY_BASE_MS = positiveIntSetting('SYSTEM_HOOK_RETRY_BASE_MS', 10_000);
const RETRY_MAX_MS = positiveIntSetting('SYSTEM_HOOK_RETRY_MAX_MS', 3_600_000);
const PRUNE_MS = positiveIntSetting('SYSTEM_HOOK_PRUNE_MS', 60_000);
/** The module's environment settings (docs/configuration.md#environment-variables). */
export const DELIVERY_SETTINGS = [TIMEOUT_MS, RETRY_BASE_MS, RETRY_MAX_MS, PRUNE_MS];

export function deliveryConfig(env: AppEnv): DeliveryConfig {
  return {
    timeoutMs: readSetting(env, TIMEOUT_MS),
    retryBaseMs: readSetting(env, RETRY_BASE_MS),
    retryMaxMs: readSetting(env, RETRY_MAX_MS),
    pruneMs: readSetting(env, PRUNE_MS),
  };
}

export const hookTokenSlot = (id: number): SecretSlot => ({ table: 'system_hooks', column: 'token_sealed', row: id });

export interface HookTarget {
  id: number;
  url: string;
  token_sealed: string | null;
  enable_ssl_verification: boolean;
}

/** The application setting that lets hooks reach local addresses (later GitLab's name). */
export const localRequestsAllowed = (em: EntityManager): Promise<boolean> => localRequestsFromSystemHooksAllowed(em);

/**
 * Sends one payload to a hook (checked against the SSRF rules at this moment, connected to the checked
 * address) and logs the attempt; never throws for the receiver's failures.
 */
export async function sendToHook(
  em: EntityManager,
  secrets: SecretBox,
  hook: HookTarget,
  payload: Record<string, unknown>,
  opts: { timeoutMs: number; eventId: number | null; uuid: string; trigger: string; allowLocal: boolean },
  /** A statement on the hook's row run with the log's, as one (the delivery's cursor move or back-off). */
  then?: (result: OutboundResult) => { sql: string; params: unknown[] },
): Promise<OutboundResult> {
  const body = JSON.stringify(payload);
  let result: OutboundResult;
  try {
    const target = await checkOutboundUrl(hook.url, opts.allowLocal);
    const token = hook.token_sealed ? secrets.openOrNull(hook.token_sealed, hookTokenSlot(hook.id)) : null;
    const headers: Record<string, string> = {
      'X-Gitlab-Event': 'System Hook',
      'X-Gitlab-Event-UUID': opts.uuid,
      'User-Agent': 'GitLab/10.3.0',
      ...(token ? { 'X-Gitlab-Token': token } : {}),
    };
    result = await postJson(target, body, headers, {
      timeoutMs: opts.timeoutMs,
      verifyTls: hook.enable_ssl_verification,
    });
  } catch (e) {
    result = { status: null, body: '', durationMs: 0, error: (e as Error).message };
  }
  const next = then?.(result);
  await sqlRows(
    em,
    `with added as (
       insert into system_hook_logs (hook_id, event_id, trigger, url, request_data, response_status, response_body, execution_duration, internal_error_message)
       select id, ?, ?, url, ?::jsonb, ?, ?, ?, ? from system_hooks where id = ? returning hook_id)${next ? `, hook as (${next.sql})` : ''}
     delete from system_hook_logs where hook_id = ? and id <= (select id from system_hook_logs where hook_id = ? order by id desc offset ${LOGS_KEPT - 1} limit 1)`,
    [
      opts.eventId,
      opts.trigger,
      body,
      result.status,
      result.body.replace(/\u0000/g, ''),
      result.durationMs,
      result.error ?? null,
      hook.id,
      ...(next ? next.params : []),
      hook.id,
      hook.id,
    ],
  );
  return result;
}

export const succeeded = (r: OutboundResult) => r.status !== null && r.status >= 200 && r.status < 300;

interface Claimed extends HookTarget {
  last_txid: string;
  last_event_id: string;
  failures: number;
}

interface EventRow {
  id: string;
  txid: string;
  uuid: string;
  event_name: string;
  payload: Record<string, unknown> | string;
}

export function startDelivery(env: BackgroundEnv, config: DeliveryConfig = deliveryConfig(env.env)): BackgroundTask {
  const { em, logger } = env;
  const owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const leaseMs = config.timeoutMs * 3;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let lastPrune = 0;

  const claim = async (): Promise<Claimed | undefined> => {
    const [row] = await sqlRows<Claimed>(
      em,
      `update system_hooks h set lease_owner = ?, lease_until = now() + make_interval(secs => ?)
        where h.id = (
          select s.id from system_hooks s
           where s.next_attempt_at <= now() and (s.lease_until is null or s.lease_until < now())
             and exists (select 1 from system_hook_events e where ${AFTER_CURSOR('s')} and ${OUTBOX_READY})
           order by s.next_attempt_at, s.id limit 1
           for update skip locked)
          and (h.lease_until is null or h.lease_until < now())
        returning h.id, h.url, h.token_sealed, h.enable_ssl_verification, h.last_txid::text as last_txid, h.last_event_id, h.failures`,
      [owner, leaseMs / 1000],
    );
    return row;
  };

  /** Sends the claimed hook's next events in order until one fails or the batch is done; then releases it. */
  const serve = async (hook: Claimed): Promise<void> => {
    const events = await sqlRows<EventRow>(
      em,
      `select e.id, e.txid::text as txid, e.uuid, e.event_name, e.payload from system_hook_events e
        where (e.txid, e.id) > (?::xid8, ?) and ${OUTBOX_READY} order by e.txid, e.id limit ${BATCH}`,
      [hook.last_txid, hook.last_event_id],
    );
    const allowLocal = await localRequestsAllowed(em);
    let failures = hook.failures;
    for (const ev of events) {
      if (stopped) break;
      const payload = typeof ev.payload === 'string' ? (JSON.parse(ev.payload) as Record<string, unknown>) : ev.payload;
      const delay = Math.min(config.retryBaseMs * 2 ** Math.min(failures, 30), config.retryMaxMs);
      // The cursor moves (or the hook backs off) in the statement that logs the attempt: one round trip and commit per event.
      const result = await sendToHook(
        em,
        env.secrets,
        hook,
        payload,
        { timeoutMs: config.timeoutMs, eventId: Number(ev.id), uuid: ev.uuid, trigger: ev.event_name, allowLocal },
        (r) =>
          succeeded(r)
            ? {
                sql: `update system_hooks set last_txid = ?::xid8, last_event_id = ?, failures = 0, next_attempt_at = '-infinity', lease_until = now() + make_interval(secs => ?) where id = ? and lease_owner = ? returning id`,
                params: [ev.txid, ev.id, leaseMs / 1000, hook.id, owner],
              }
            : {
                sql: `update system_hooks set failures = ?, next_attempt_at = now() + make_interval(secs => ?), lease_owner = null, lease_until = null where id = ? and lease_owner = ? returning id`,
                params: [failures + 1, delay / 1000, hook.id, owner],
              },
      );
      if (succeeded(result)) {
        failures = 0;
        continue;
      }
      failures += 1;
      const report = failures === 1 || failures === DISABLE_AFTER || failures % 10 === 0 ? 'warn' : 'debug';
      logger[report](
        {
          hookId: hook.id,
          eventId: Number(ev.id),
          failures,
          status: result.status,
          error: result.error,
          retryInMs: delay,
        },
        'system hook delivery failed; backing off',
      );
      return;
    }
    await sqlRows(
      em,
      'update system_hooks set lease_owner = null, lease_until = null where id = ? and lease_owner = ?',
      [hook.id, owner],
    );
  };

  /**
   * Deletes outbox rows every hook has passed (all ready ones when there is no hook), in batches of
   * 1,000, for at most PRUNE_BUDGET_MS a round (a large backlog is taken a slice per round, a second
   * apart, between deliveries). The slowest hook's cursor is read once: cursors only move forward, and
   * a hook created meanwhile starts below every running transaction, after everything below that
   * cursor. Each batch starts after the last one deleted, so it never walks the dead index entries of
   * the batches before it.
   */
  const prune = async (): Promise<void> => {
    if (Date.now() - lastPrune < config.pruneMs) return;
    lastPrune = Date.now();
    const until = Date.now() + PRUNE_BUDGET_MS;
    const [slowest] = await sqlRows<{ txid: string; id: string }>(
      em,
      'select h.last_txid::text as txid, h.last_event_id as id from system_hooks h order by h.last_txid, h.last_event_id limit 1',
    );
    // Without a hook: what is ready, unless one appears (checked in the statement's own snapshot).
    const upTo = slowest
      ? { sql: '(e.txid, e.id) <= (?::xid8, ?)', params: [slowest.txid, slowest.id] }
      : { sql: `not exists (select 1 from system_hooks) and ${OUTBOX_READY}`, params: [] };
    let after: { txid: bigint; id: bigint } | undefined;
    for (;;) {
      const from = after
        ? { sql: ' and (e.txid, e.id) > (?::xid8, ?)', params: [String(after.txid), String(after.id)] }
        : { sql: '', params: [] };
      const rows = await sqlRows<{ txid: string; id: string }>(
        em,
        `delete from system_hook_events where id in (
           select e.id from system_hook_events e where ${upTo.sql}${from.sql} order by e.txid, e.id limit 1000)
         returning txid::text as txid, id`,
        [...upTo.params, ...from.params],
      );
      for (const r of rows) {
        const k = { txid: BigInt(r.txid), id: BigInt(r.id) };
        if (!after || k.txid > after.txid || (k.txid === after.txid && k.id > after.id)) after = k;
      }
      if (rows.length < 1000) return;
      if (Date.now() > until) {
        lastPrune = Date.now() - config.pruneMs + PRUNE_AGAIN_MS; // the rest in a second
        return;
      }
    }
  };

  /**
   * Up to PARALLEL lanes, each claiming and serving hooks until none is due. They start one at a time (a
   * lane that claims a hook starts the next), so a round with nothing due costs one claim, not PARALLEL.
   */
  const lanes = async (): Promise<void> => {
    const started: Promise<void>[] = [];
    let failed: unknown;
    const lane = async (): Promise<void> => {
      while (!stopped) {
        const hook = await claim();
        if (!hook) return;
        if (started.length < PARALLEL) start();
        await serve(hook);
      }
    };
    const start = () => started.push(lane().catch((e: unknown) => void (failed ??= e)));
    start();
    for (let i = 0; i < started.length; i += 1) await started[i];
    if (failed !== undefined) throw failed;
  };

  /**
   * When something next becomes claimable: a retry coming due, a lapsing lease, or (soon) committed
   * events held back only by an older transaction still running (READY_RECHECK_MS: that transaction may
   * write no event, so no NOTIFY would come).
   */
  const nextDueMs = async (): Promise<number> => {
    const [row] = await sqlRows<{ ms: number | null; held: boolean }>(
      em,
      `select extract(epoch from (min(greatest(s.next_attempt_at, coalesce(s.lease_until, '-infinity'))) - now())) * 1000 as ms,
              bool_or(not exists (select 1 from system_hook_events e where ${AFTER_CURSOR('s')} and ${OUTBOX_READY})) as held
         from system_hooks s where exists (select 1 from system_hook_events e where ${AFTER_CURSOR('s')})`,
    );
    if (row?.ms === null || row?.ms === undefined) return POLL_MS;
    const due = Math.min(Math.max(Number(row.ms) + 5, 0), POLL_MS);
    return row.held ? Math.min(due, READY_RECHECK_MS) : due;
  };

  const schedule = (ms: number) => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(wake, ms);
    timer.unref();
  };

  const run = async (): Promise<void> => {
    do {
      again = false;
      try {
        await lanes();
        await prune();
        // The next prune is due too: a quiet instance still deletes what its last round delivered.
        schedule(Math.min(await nextDueMs(), Math.max(lastPrune + config.pruneMs - Date.now(), 0) + 5));
      } catch (e) {
        if (stopped) return;
        logger.warn({ err: e }, 'system hook delivery loop failed; retrying in 5 s');
        schedule(5000);
      }
    } while (again && !stopped);
  };

  function wake(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = run().finally(() => (running = undefined));
  }

  let wakeTimer: NodeJS.Timeout | undefined;
  const onInvalidated = (key: string) => {
    if (key !== OUTBOX_WAKE_KEY || wakeTimer) return;
    wakeTimer = setTimeout(() => {
      wakeTimer = undefined;
      wake();
    }, WAKE_DELAY_MS);
  };
  env.cache.events.on('invalidated', onInvalidated);
  schedule(0);

  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      if (wakeTimer) clearTimeout(wakeTimer);
      env.cache.events.off('invalidated', onInvalidated);
      // In-flight deliveries get a moment; one still running keeps its lease, which lapses for another instance.
      if (running) await Promise.race([running, new Promise((r) => setTimeout(r, 2000).unref())]);
    },
  };
}

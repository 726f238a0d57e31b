import { byId, claimForDelete } from '../../core/db/delete-claim';
import type { RequestCtx } from '../../core/context/request-ctx';
import { changes, INSTANCE_SCOPE, recordAudit } from '../../core/events/audit';
import { NotFoundError, ParamError, ValidationError } from '../../core/errors/domain-errors';
import { FieldErrorBag } from '../../core/errors/field-error-bag';
import { MSG } from '../../core/errors/messages';
import { patchEntity } from '../../core/patch/patch-entity';
import { offsetPage } from '../../core/pagination/list-query';
import type { Page, PageArgs } from '../../core/pagination/page';
import { BROADCAST_MESSAGE_MAX, BroadcastMessage } from './broadcast-message.entity';
import { longerThan } from '../../core/validation/char-length';
import { UpdateBroadcastMessageInput, type CreateBroadcastMessageInput } from './broadcast-message.inputs';
import { parseTimestamp } from '../../core/params/timestamp-param';
import { cutToChars } from '../../core/validation/char-length';

/** GitLab's defaults on create (https://docs.gitlab.com/ee/api/broadcast_messages.html; spec 2.6). */
export const DEFAULT_COLOR = '#E75E40';
export const DEFAULT_FONT = '#FFFFFF';
const ONE_HOUR_MS = 60 * 60 * 1000;
// GitLab's ColorValidator: blank, or # with 3 or 6 hex digits.
const COLOR = /^#(?:[0-9a-f]{3}){1,2}$/i;
const COLOR_MSG = 'must be a valid color code';

/** `active` (spec 3): the window contains now; an inverted window is simply never active. */
export function isActive(m: Pick<BroadcastMessage, 'startsAt' | 'endsAt'>, now: Date): boolean {
  return m.startsAt.getTime() <= now.getTime() && m.endsAt.getTime() >= now.getTime();
}

/** spec 4.19: newest first (id descending, as GitLab's order_id_desc); the primary key is the index. */
function list(ctx: RequestCtx, args: PageArgs & { active?: boolean | null }): Promise<Page<BroadcastMessage>> {
  const map = (r: Record<string, unknown>) => ctx.em.map(BroadcastMessage, r as never);
  const where: string[] = [];
  const params: unknown[] = [];
  if (args.active !== undefined && args.active !== null) {
    const now = ctx.clock.now();
    where.push(args.active ? '(b.starts_at <= ? and b.ends_at >= ?)' : 'not (b.starts_at <= ? and b.ends_at >= ?)');
    params.push(now, now);
  }
  return offsetPage(
    ctx.em,
    { select: 'b.*', from: 'broadcast_messages b', where, params, orderBy: 'b.id', dir: 'desc', id: 'b.id', map },
    args,
  );
}

/** Lookup by primary key: GitLab's generic `404 Not found` (lower-case f). */
async function get(ctx: RequestCtx, id: number): Promise<BroadcastMessage> {
  const message = await ctx.em.findOne(BroadcastMessage, { id });
  if (!message) throw new NotFoundError();
  return message;
}

/** Grape coerces both timestamps before any model rule: every bad one is listed, in order. */
function parseWindow(input: UpdateBroadcastMessageInput): { startsAt?: Date; endsAt?: Date } {
  const problems: string[] = [];
  const out: { startsAt?: Date; endsAt?: Date } = {};
  for (const [key, name] of [
    ['startsAt', 'starts_at'],
    ['endsAt', 'ends_at'],
  ] as const) {
    const raw = input[key];
    if (raw == null) continue;
    try {
      out[key] = parseTimestamp(name, raw);
    } catch (e) {
      if (!(e instanceof ParamError)) throw e;
      problems.push(e.message);
    }
  }
  if (problems.length) throw new ParamError(problems.join(', '));
  return out;
}

type Draft = Pick<BroadcastMessage, 'message' | 'startsAt' | 'endsAt' | 'color' | 'font'>;

/**
 * The allow-listed patch (the input class is the allow-list) onto a draft, checked before anything
 * managed changes: a failed write leaves nothing for a later flush in the same request (a GraphQL
 * document may hold several mutations).
 */
function patched(
  current: Draft,
  input: UpdateBroadcastMessageInput,
  window: { startsAt?: Date; endsAt?: Date },
): { draft: Draft; written: string[] } {
  const draft: Draft = {
    message: current.message,
    startsAt: current.startsAt,
    endsAt: current.endsAt,
    color: current.color,
    font: current.font,
  };
  const written = patchEntity(draft, input, UpdateBroadcastMessageInput, {
    startsAt: () => ({ startsAt: window.startsAt }),
    endsAt: () => ({ endsAt: window.endsAt }),
  });
  validate(draft);
  return { draft, written };
}

/** Model rules (400 {"message":{...}}). No check that ends_at follows starts_at: GitLab has none. */
function validate(m: Draft): void {
  const bag = new FieldErrorBag();
  if (m.message.trim() === '') bag.add('message', MSG.blank);
  if (longerThan(m.message, BROADCAST_MESSAGE_MAX))
    bag.add('message', `is too long (maximum is ${BROADCAST_MESSAGE_MAX} characters)`);
  if (m.color.trim() !== '' && !COLOR.test(m.color)) bag.add('color', COLOR_MSG);
  if (m.font.trim() !== '' && !COLOR.test(m.font)) bag.add('font', COLOR_MSG);
  if (!bag.empty) throw new ValidationError(bag.errors);
}

async function create(ctx: RequestCtx, input: CreateBroadcastMessageInput): Promise<BroadcastMessage> {
  const window = parseWindow(input);
  const now = ctx.clock.now();
  const defaults: Draft = {
    message: '',
    startsAt: now,
    endsAt: new Date(now.getTime() + ONE_HOUR_MS),
    color: DEFAULT_COLOR,
    font: DEFAULT_FONT,
  };
  const { draft } = patched(defaults, input, window);
  const m = Object.assign(new BroadcastMessage(), draft, { createdAt: now, updatedAt: now });
  await ctx.em.transactional(async (tx) => {
    tx.persist(m);
    await tx.flush();
    await recordAudit(ctx, tx, [{ ...audited(m), action: { add: 'broadcast_message' } }]);
  });
  return m;
}

/** spec 4.22: all fields optional; none given → 200 with the message unchanged. */
async function update(ctx: RequestCtx, id: number, input: UpdateBroadcastMessageInput): Promise<BroadcastMessage> {
  const window = parseWindow(input);
  const m = await get(ctx, id);
  const { draft, written } = patched(m, input, window);
  if (written.length === 0) return m; // like Rails: an empty update touches nothing
  const before = { ...m };
  Object.assign(m, draft, { updatedAt: ctx.clock.now() });
  await ctx.em.transactional(async (tx) => {
    await tx.flush();
    await recordAudit(
      ctx,
      tx,
      changes(
        audited(m),
        (['message', 'startsAt', 'endsAt', 'color', 'font'] as const).map((k) => ({
          name: snake(k),
          from: before[k],
          to: m[k],
        })),
      ),
    );
  });
  return m;
}

async function remove(ctx: RequestCtx, id: number): Promise<boolean> {
  const m = await get(ctx, id);
  await ctx.em.transactional(async (tx) => {
    await claimForDelete(ctx, tx, byId('broadcast_messages', m.id));
    await tx.nativeDelete(BroadcastMessage, { id: m.id });
    await recordAudit(ctx, tx, [{ ...audited(m), action: { remove: 'broadcast_message' } }]);
  });
  return true;
}

/** Audit events of a message: instance-wide, the message as the target. */
const audited = (m: BroadcastMessage) => ({
  ...INSTANCE_SCOPE,
  targetType: 'BroadcastMessage',
  targetId: m.id,
  targetDetails: cutToChars(m.message, 255),
});
const snake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

export const broadcastMessageService = { list, get, create, update, remove };

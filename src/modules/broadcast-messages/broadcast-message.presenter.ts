import { bool, int, shape, str, time } from '../../core/wire/wire';

/** GitLab 10.3's Entities::BroadcastMessage (spec 2.6), in its key order. */
export const BroadcastMessageWire = shape('BroadcastMessage', {
  id: int('id'),
  message: str('message'),
  starts_at: time('startsAt'),
  ends_at: time('endsAt'),
  color: str('color'),
  font: str('font'),
  active: bool('active'),
});

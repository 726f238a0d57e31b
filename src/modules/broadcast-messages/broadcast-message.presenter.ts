import { bool, int, shape, str, time } from '../../core/wire/wire';

/** GitLab 10.3's Entities::BroadcastMessage (spec 2.6), in its key order. */
export const BroadcastMessageWire = shape('BroadcastMessage', {
  id: int(),
  message: str(),
  starts_at: time(),
  ends_at: time(),
  color: str(),
  font: str(),
  active: bool(),
});

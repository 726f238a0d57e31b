import { int, shape, str, time } from '../../core/wire/wire';

/** GitLab 10.3's Entities::GPGKey, in its key order. */
export const GpgKeyWire = shape('GPGKey', {
  id: int(),
  key: str(),
  created_at: time(),
});

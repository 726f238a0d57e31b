import { int, obj, shape, str, time } from '../../core/wire/wire';
import { UserPublicWire } from '../users';

/** GitLab 10.3.4+'s Entities::SSHKey (`can_push` left it in 10.3.4: it only ever meant deploy keys). */
const SSH_KEY = { id: int(), title: str(), key: str(), created_at: time() };
export const SshKeyWire = shape('SSHKey', SSH_KEY);
/** Entities::SSHKeyWithUser: the key and its owner as UserPublic (GET /keys/:id, admin). */
export const SshKeyWithUserWire = shape('SSHKeyWithUser', { ...SSH_KEY, user: obj(UserPublicWire) });

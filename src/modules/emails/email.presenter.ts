import { int, shape, str } from '../../core/wire/wire';

/** GitLab 10.3's Entities::Email. */
export const EmailWire = shape('Email', { id: int(), email: str() });

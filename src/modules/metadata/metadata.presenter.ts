import { bool, obj, shape, str } from '../../core/wire/wire';

/** GitLab 10.3's GET /version (lib/api/version.rb): two keys. */
export const VersionWire = shape('Version', { version: str(), revision: str() });

/** GitLab's Entities::Metadata (GET /metadata, GitLab 15.2+): the GraphQL names, camelCase on the wire too. */
export const KasWire = shape('Kas', {
  enabled: bool(),
  externalUrl: str({ nullable: true }),
  externalK8sProxyUrl: str({ nullable: true }),
  version: str({ nullable: true }),
});
export const MetadataWire = shape('Metadata', {
  version: str(),
  revision: str(),
  kas: obj(KasWire),
  enterprise: bool(),
});

import { bool, int, obj, shape, str, time } from '../../core/wire/wire';

/** GitLab 10.3 `Entities::PagesDomainCertificate` (project routes). */
export const PagesDomainCertificateWire = shape('PagesDomainCertificate', {
  subject: str('subject'),
  expired: bool('expired'),
  certificate: str('certificate'),
  certificate_text: str('certificateText'),
});

/** `Entities::PagesDomainCertificateExpiration` (instance list). */
export const PagesDomainCertificateExpirationWire = shape('PagesDomainCertificateExpiration', {
  expired: bool('expired'),
  expiration: time('expiration'),
});

/** Project routes: the `certificate` key only with a certificate (spec 2.7). */
export const PagesDomainWire = shape('PagesDomain', {
  domain: str('domain'),
  url: str('url'),
  certificate: obj('certificate', PagesDomainCertificateWire, { omitIfNull: true }),
});

/** GET /pages/domains: `project_id`, and `certificate_expiration` only with a certificate. */
export const PagesDomainBasicWire = shape('PagesDomainBasic', {
  domain: str('domain'),
  url: str('url'),
  project_id: int('projectId'),
  certificate_expiration: obj('certificate', PagesDomainCertificateExpirationWire, { omitIfNull: true }),
});

import { addProjectMember, createGroup, createProject, createUser } from '../support/factories';
import { issue, type Issued } from '../support/certificates';
import { api, ROOT_TOKEN, useTestApp } from '../support/test-app';
import { pagesConfig } from '../../src/modules/pages-domains/pages-config';

const t = useTestApp();
let ec: Issued;
beforeAll(async () => {
  ec = await issue({ cn: 'ssl.domain.test', kind: 'ec' });
});
const gqlString = (s: string) => JSON.stringify(s);

describe('GraphQL pages domains', () => {
  it('Project.pagesDomains / pagesDomains show what REST shows (parity); no field exposes the key', async () => {
    const p = await createProject(t, { namespace: await createGroup(t) });
    await api(t, ROOT_TOKEN)
      .post(`/api/v4/projects/${p.id}/pages/domains`)
      .send({ domain: 'ssl.domain.test', certificate: ec.pem, key: ec.keyPem })
      .expect(201);
    const rest = (await api(t, ROOT_TOKEN).get(`/api/v4/projects/${p.id}/pages/domains/ssl.domain.test`)).body;
    const one = await api(t, ROOT_TOKEN).graphql(
      `{ project(id: "${p.id}") { pagesDomains(first: 1) { nodes { domain url projectId certificate { subject expired expiration certificate certificateText } } } } }`,
    );
    expect(one.body.errors).toBeUndefined();
    const [d] = one.body.data.project.pagesDomains.nodes;
    expect({
      domain: d.domain,
      url: d.url,
      certificate: {
        subject: d.certificate.subject,
        expired: d.certificate.expired,
        certificate: d.certificate.certificate,
        certificate_text: d.certificate.certificateText,
      },
    }).toEqual(rest);
    expect(d.projectId).toBe(p.id);
    expect(d.certificate.expiration).toBe(ec.cert.notAfter.toISOString());
    const list = await api(t, ROOT_TOKEN).graphql(
      `{ project(id: "${p.id}") { pagesDomains { count nodes { domain } } } pagesDomains { count nodes { domain projectId } } }`,
    );
    expect(list.body.data).toEqual({
      project: { pagesDomains: { count: 1, nodes: [{ domain: 'ssl.domain.test' }] } },
      pagesDomains: { count: 1, nodes: [{ domain: 'ssl.domain.test', projectId: p.id }] },
    });
    const schema = await api(t, ROOT_TOKEN).graphql('{ __type(name: "PagesDomain") { fields { name } } }');
    expect(schema.body.data.__type.fields.map((f: { name: string }) => f.name).sort()).toEqual([
      'certificate',
      'databaseId',
      'domain',
      'id',
      'project',
      'projectId',
      'url',
    ]);
  });

  it('create, update (same semantics as REST) and delete mutations', async () => {
    const p = await createProject(t, { namespace: await createGroup(t) });
    const created = await api(t, ROOT_TOKEN).graphql(
      `mutation { pagesDomainCreate(input: { projectId: "${p.id}", domain: "g.test", certificate: ${gqlString(ec.pem)}, key: ${gqlString(ec.keyPem)} }) { pagesDomain { url certificate { subject } } errors } }`,
    );
    expect(created.body.data.pagesDomainCreate).toEqual({
      pagesDomain: { url: 'https://g.test', certificate: { subject: '/CN=ssl.domain.test' } },
      errors: [],
    });
    const cleared = await api(t, ROOT_TOKEN).graphql(
      `mutation { pagesDomainUpdate(input: { projectId: "${p.id}", domain: "g.test" }) { pagesDomain { url certificate { subject } } errors } }`,
    );
    expect(cleared.body.data.pagesDomainUpdate).toEqual({
      pagesDomain: { url: 'http://g.test', certificate: null },
      errors: [],
    });
    expect(
      (
        await api(t, ROOT_TOKEN).graphql(
          `mutation { pagesDomainDelete(input: { projectId: "${p.id}", domain: "g.test" }) { errors } }`,
        )
      ).body,
    ).toEqual({ data: { pagesDomainDelete: { errors: [] } } });
    expect((await api(t, ROOT_TOKEN).get(`/api/v4/projects/${p.id}/pages/domains`)).body).toEqual([]);
  });

  it('errors carry extensions.code; a missing domain is null; mutation messages in errors', async () => {
    const p = await createProject(t, { namespace: await createGroup(t) });
    const dev = await createUser(t);
    await addProjectMember(t, p, dev, 30);
    const err = async (token: string | undefined, q: string) => (await api(t, token).graphql(q)).body.errors[0];
    expect((await err(undefined, '{ pagesDomains { count } }')).extensions.code).toBe('UNAUTHENTICATED');
    expect((await err(dev.token, '{ pagesDomains { count } }')).extensions.code).toBe('FORBIDDEN');
    // A Developer sees the project, not its domains (REST: 403); a stranger neither.
    const domains = `{ project(id: "${p.id}") { pagesDomains { count } } }`;
    expect((await api(t, dev.token).graphql(domains)).body).toEqual({ data: { project: { pagesDomains: null } } });
    expect((await api(t, (await createUser(t)).token).graphql(domains)).body).toEqual({ data: { project: null } });
    expect((await api(t, dev.token).get(`/api/v4/projects/${p.id}/pages/domains`)).status).toBe(403);
    expect((await api(t, ROOT_TOKEN).graphql('{ node(id: "gid://gitlab/PagesDomain/424242") { id } }')).body).toEqual({
      data: { node: null },
    });
    expect((await api(t, ROOT_TOKEN).get(`/api/v4/projects/${p.id}/pages/domains/x.test`)).body).toEqual({
      message: '404 PagesDomain Not Found',
    });
    const create = async (input: string) =>
      (
        await api(t, ROOT_TOKEN).graphql(
          `mutation { pagesDomainCreate(input: { projectId: "${p.id}", ${input} }) { pagesDomain { url } errors } }`,
        )
      ).body;
    expect(await create('domain: "a.test", key: "k"')).toEqual({
      data: {
        pagesDomainCreate: { pagesDomain: null, errors: ['certificate, key provide all or none of parameters'] },
      },
    });
    expect(await create('domain: "x.example.com"')).toEqual({
      data: { pagesDomainCreate: { pagesDomain: null, errors: ['Domain *.example.com is restricted'] } },
    });
  });
});

describe('pages configuration', () => {
  it('defaults: enabled, host example.com; PAGES_ENABLED false/0/no/off switches off', () => {
    expect(pagesConfig({})).toEqual({ enabled: true, host: 'example.com' });
    for (const off of ['false', '0', 'no', 'OFF']) expect(pagesConfig({ PAGES_ENABLED: off }).enabled).toBe(false);
    expect(pagesConfig({ PAGES_ENABLED: 'true', PAGES_HOST: 'pages.io' })).toEqual({ enabled: true, host: 'pages.io' });
  });
});

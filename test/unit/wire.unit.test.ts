import {
  bool,
  computed,
  int,
  json,
  list,
  lowerEnum,
  num,
  obj,
  present,
  schemaOf,
  selectionOf,
  shape,
  str,
  strList,
  writeList,
  writerOf,
  type WireShape,
} from '../../src/core/wire/wire';
import { ProjectWire } from '../../src/modules/projects/project.presenter';
import { JobWire } from '../../src/modules/ci/job.presenter';

const Inner = shape('Inner', { id: int('id') });
const Outer = shape('Outer', {
  id: int('id'),
  full_name: str('fullName'),
  visibility: lowerEnum('visibility', ['private', 'public']),
  stats: obj('statistics', Inner, { includeIf: 'statistics', omitIfNull: true }),
  token: str('runnersToken', { omitIfNull: true }),
  items: list('items', Inner),
  on: bool('enabled'),
});

describe('wire shapes', () => {
  it('derive the GraphQL selection', () => {
    expect(selectionOf(Outer)).toBe(
      'id fullName visibility statistics @include(if: $include_statistics) { id } runnersToken items { id } enabled',
    );
  });

  it('present GitLab JSON in key order, omitting conditional keys', () => {
    const out = present(Outer, {
      id: 1,
      fullName: 'A / B',
      visibility: 'PUBLIC',
      runnersToken: null,
      items: [{ id: 2 }],
      enabled: true,
    });
    expect(out).toEqual({ id: 1, full_name: 'A / B', visibility: 'public', items: [{ id: 2 }], on: true });
    expect(Object.keys(out)).toEqual(['id', 'full_name', 'visibility', 'items', 'on']);
  });

  it('describe themselves as OpenAPI schemas', () => {
    const components = {};
    expect(schemaOf(Outer, components)).toEqual({ $ref: '#/components/schemas/Outer' });
    expect(components).toHaveProperty('Inner');
    expect((components as Record<string, { required: string[] }>).Outer.required).toEqual([
      'id',
      'full_name',
      'visibility',
      'items',
      'on',
    ]);
  });

  it('write the same JSON text as JSON.stringify of the presented object', () => {
    const Odd = shape('Odd', {
      a: computed('a', 'string', (v) => (v === 'skip' ? undefined : `x${String(v)}`)),
      tags: lowerEnum('tags', ['A', 'B']),
      n: num('n', { nullable: true }),
      j: json('j'),
      s: strList('s'),
      maybe: list('maybe', Inner, { includeIf: 'extra' }),
    });
    const cases: [WireShape, Record<string, unknown>][] = [
      [
        Outer,
        { id: 1, fullName: 'A / B', visibility: 'PUBLIC', runnersToken: null, items: [{ id: 2 }], enabled: true },
      ],
      [
        Outer,
        {
          id: 0,
          fullName: '"quoted" \\ \u2028 \ud800 ünï',
          visibility: null,
          statistics: { id: 3 },
          runnersToken: 'tok',
          items: [],
          enabled: false,
        },
      ],
      [Outer, { id: -0, fullName: undefined, visibility: undefined, statistics: null, items: [{ id: 1 }, { id: 2 }] }],
      [Odd, { a: 'skip', tags: ['A', 'B'], n: Number.NaN, j: { deep: [1, 'x', null] }, s: ['p', 'q'], maybe: null }],
      [Odd, { a: 1, tags: 'B', n: 1.5, j: null, s: [], maybe: [{ id: 7 }] }],
      [Odd, { a: null, n: Infinity, j: 'text', s: null }],
    ];
    for (const [s, data] of cases) expect(writerOf(s)(data)).toBe(JSON.stringify(present(s, data)));
    expect(writeList(Outer, [cases[0][1], cases[1][1]])).toBe(
      JSON.stringify([present(Outer, cases[0][1]), present(Outer, cases[1][1])]),
    );
    expect(writeList(Outer, [])).toBe('[]');
  });

  it('write real shapes (project, job) exactly like the presenter', () => {
    const ns = { id: 3, name: 'G', path: 'g', kind: 'group' };
    const project = {
      id: 9,
      description: '',
      name: 'P',
      nameWithNamespace: 'G / P',
      path: 'p',
      pathWithNamespace: 'g/p',
      createdAt: '2026-11-22T00:00:00.000Z',
      defaultBranch: null,
      tagList: ['a'],
      sshUrlToRepo: 's',
      httpUrlToRepo: 'h',
      webUrl: 'w',
      avatarUrl: null,
      starCount: 0,
      forksCount: 0,
      lastActivityAt: '2026-11-22T00:00:00.000Z',
      archived: false,
      visibility: 'PRIVATE',
      namespace: ns,
      issuesEnabled: true,
      mergeRequestsEnabled: true,
      wikiEnabled: true,
      jobsEnabled: true,
      snippetsEnabled: true,
      containerRegistryEnabled: true,
      sharedRunnersEnabled: true,
      creatorId: null,
      openIssuesCount: 0,
      publicJobs: true,
      sharedWithGroups: [{ groupId: 1, groupName: 'x', groupFullPath: 'x', groupAccessLevel: 30, expiresAt: null }],
      requestAccessEnabled: false,
      runnersToken: null,
    };
    expect(writerOf(ProjectWire)(project)).toBe(JSON.stringify(present(ProjectWire, project)));
    const job = {
      id: 1,
      status: 'SUCCESS',
      stage: 'test',
      name: 'rspec',
      ref: 'master',
      tag: false,
      coverage: 98.5,
      createdAt: 't',
      startedAt: null,
      finishedAt: null,
      duration: null,
      user: null,
      commit: null,
      pipeline: { id: 1, sha: 'abc', ref: 'master', status: 'success' },
      project: {
        id: 9,
        description: null,
        name: 'P',
        nameWithNamespace: 'G / P',
        path: 'p',
        pathWithNamespace: 'g/p',
        createdAt: 't',
      },
    };
    expect(writerOf(JobWire)(job)).toBe(JSON.stringify(present(JobWire, job)));
  });
});

import path from 'node:path';
import { renderRouteReference } from '../../src/cli/route-reference';
import { routesOf } from '../../src/core/module/app-module';
import { MODULES } from '../../src/modules';
import { expectGeneratedFile } from './generated-file';

describe('docs/routes.md', () => {
  it('is in sync with the route tables (run `npm run docs:routes` after changing a *.rest.ts)', async () => {
    expectGeneratedFile(
      path.join(__dirname, '../../docs/routes.md'),
      await renderRouteReference(MODULES),
      'npm run docs:routes',
    );
  });

  it('lists every registered route once, with the file that declares it', async () => {
    const text = await renderRouteReference(MODULES);
    const rows = text.split('\n').filter((l) => /^\| (GET|POST|PUT|DELETE) \|/.test(l));
    expect(rows).toHaveLength(routesOf(MODULES).length);
    expect(new Set(rows.map((r) => r.split(' | ').slice(0, 2).join(' '))).size).toBe(rows.length);
    expect(text).toContain('## runners: `src/modules/runners/runner.rest.ts`');
    expect(text).toMatch(/^\| GET \| `\/runners\/:id` \| `Query\.runner` \| user \| 200 \| /m);
  });
});

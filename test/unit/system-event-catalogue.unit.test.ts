import fs from 'node:fs';
import path from 'node:path';
import {
  SYSTEM_EVENT_CATALOGUE,
  membershipEvents,
  projectsInNamespacesEvents,
  userSshKeyEvents,
} from '../../src/core/events/system-event-catalogue';
import { MODULES } from '../../src/modules';

describe('the system event catalogue', () => {
  it('has every cross-module payload source provided once the modules are loaded', () => {
    expect(MODULES.length).toBeGreaterThan(0);
    expect([membershipEvents, projectsInNamespacesEvents, userSshKeyEvents].map((s) => [s.what, s.provided])).toEqual([
      ['a membership', true],
      ['the projects of namespaces', true],
      ["a user's SSH keys", true],
    ]);
  });

  it('names, for each event, a module whose <module>.events.ts mentions it', () => {
    const missing = Object.entries(SYSTEM_EVENT_CATALOGUE).filter(([name, module]) => {
      const dir = path.resolve(__dirname, '../../src/modules', module);
      const files = fs.readdirSync(dir).filter((f) => f.endsWith('.events.ts'));
      const [kind, ...rest] = name.split('_');
      const text = files.map((f) => fs.readFileSync(path.join(dir, f), 'utf8')).join('\n');
      // Payload names are written whole ('user_add_to_team') or as a template (`project_${event}`).
      return !text.includes(`'${name}'`) && !text.includes(`\`${kind}_\${`) && rest.length > 0;
    });
    expect(missing).toEqual([]);
  });
});

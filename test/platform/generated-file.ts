import fs from 'node:fs';
import path from 'node:path';

/**
 * Fails unless the committed generated file equals what the code generates now, naming the command
 * that regenerates it and the first line that differs (a whole-file diff of a reference is noise).
 */
export function expectGeneratedFile(file: string, generated: string, command: string, hint = ''): void {
  const shown = path.relative(path.join(__dirname, '../..'), file);
  const run = `run \`${command}\`${hint ? ` (${hint})` : ''}`;
  if (!fs.existsSync(file)) throw new Error(`${shown} is missing: ${run} and commit it`);
  const committed = fs.readFileSync(file, 'utf8');
  if (committed === generated) return;
  const want = generated.split('\n');
  const have = committed.split('\n');
  const at = want.findIndex((line, i) => line !== have[i]);
  const line = at === -1 ? want.length : at;
  throw new Error(
    `${shown} is out of date: ${run} and commit the result.\n` +
      `First difference at line ${line + 1}:\n  committed: ${have[line] ?? '(end of file)'}\n  generated: ${want[line] ?? '(end of file)'}`,
  );
}

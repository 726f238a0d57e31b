import { execFile, execFileSync } from 'node:child_process';

/**
 * Debian's python-gitlab (3.12) for the client tests: `describe` when a python3 can import it,
 * otherwise `describe.skip` with one line saying why — an error under REQUIRE_PYTHON_GITLAB=1 (CI).
 */
function findPython(): string | undefined {
  for (const bin of ['python3', '/usr/bin/python3']) {
    try {
      execFileSync(bin, ['-c', 'import gitlab'], { stdio: 'ignore', timeout: 20000 });
      return bin;
    } catch {
      // try the next one
    }
  }
  return undefined;
}

let found: { bin: string | undefined } | undefined;

export interface PythonGitlab {
  describe: jest.Describe;
  /** Runs `script` (python -c) with `args` as sys.argv[1:]; resolves with its stdout, rejects with its stderr. */
  run(script: string, args: string[]): Promise<string>;
}

export function pythonGitlab(what: string): PythonGitlab {
  found ??= { bin: findPython() };
  const python = found.bin;
  if (!python && process.env.REQUIRE_PYTHON_GITLAB === '1')
    throw new Error('REQUIRE_PYTHON_GITLAB=1 but no python3 can import gitlab (apt-get install python3-gitlab)');
  if (!python)
    process.stderr.write(
      `\nSKIPPED: python-gitlab ${what} (no python3 with the gitlab module; apt-get install python3-gitlab)\n`,
    );
  return {
    describe: python ? describe : describe.skip,
    run: (script, args) =>
      new Promise<string>((resolve, reject) => {
        execFile(python!, ['-c', script, ...args], { timeout: 60000 }, (err, out, errOut) =>
          err ? reject(new Error(`${err.message}\n${errOut}`)) : resolve(out),
        );
      }),
  };
}

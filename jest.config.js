/** @type {import('jest').Config} */
const swc = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
};
module.exports = {
  // jest's node environment with a V8 code cache per worker (test/setup/test-environment.js).
  testEnvironment: '<rootDir>/test/setup/test-environment.js',
  transform: { '^.+\\.ts$': ['@swc/jest', swc] },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  setupFiles: ['reflect-metadata'],
  // graphql-js as production runs it (NODE_ENV=production: Dockerfile, systemd unit): its development
  // instanceOf adds a check for a second copy of graphql to every failed type test, which in a jest
  // module context costs about a tenth of a second of each schema build (test/setup/graphql-instance-of.js).
  moduleNameMapper: { '^\\.\\./jsutils/instanceOf\\.js$': '<rootDir>/test/setup/graphql-instance-of.js' },
  globalSetup: '<rootDir>/test/setup/global-setup.js',
  globalTeardown: '<rootDir>/test/setup/global-teardown.js',
  maxWorkers: 2,
  // A test file leaves about 90 MB of heap behind in its worker (each builds an app in a module registry
  // of its own); a worker above this after a file is replaced, instead of collecting a heap that grows
  // to gigabytes over a run (about 110 files per worker), which slows every later file.
  workerIdleMemoryLimit: '500MB',
  testTimeout: 30000,
};

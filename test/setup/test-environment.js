// The suite's jest environment: jest's node environment, with a V8 code cache per jest worker.
//
// jest gives every test file a module registry of its own, so each file compiles again every module
// it loads (about 2,400 files, 14 MB of source for a file that builds the app), with vm.compileFunction.
// The same file with the same source compiles to the same code: the first test file of a worker keeps
// V8's code cache of each, the next ones start from it (V8 checks it against the source and compiles
// afresh when it does not fit). Keyed by file name and compared on the whole source, so a changed or
// differently transformed file is compiled as before. Modules still run anew for every test file.
const vm = require('node:vm');
const { TestEnvironment } = require('jest-environment-node');

/** file name -> the source it was compiled from and V8's code cache for it */
const compiled = new Map();

function installCodeCache() {
  if (vm.compileFunction.codeCache === compiled) return;
  const compile = vm.compileFunction;
  const compileFunction = function compileFunction(code, params, options = {}) {
    const { filename } = options;
    const known = filename === undefined ? undefined : compiled.get(filename);
    if (known && known.code === code) {
      const fn = compile.call(vm, code, params, { ...options, cachedData: known.data });
      if (fn.cachedDataRejected) compiled.delete(filename);
      return fn;
    }
    const fn = compile.call(vm, code, params, { ...options, produceCachedData: true });
    if (filename !== undefined && fn.cachedData) compiled.set(filename, { code, data: fn.cachedData });
    return fn;
  };
  compileFunction.codeCache = compiled;
  vm.compileFunction = compileFunction;
}

installCodeCache();

module.exports = TestEnvironment;

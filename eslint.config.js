// npm run lint: ESLint with typescript-eslint's recommended rules (no type information, so it stays fast)
// over src/, test/, bench/ and scripts/. Formatting is prettier's (npm run format:check), not ESLint's.
const tseslint = require('typescript-eslint');

module.exports = tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.data/**', 'src/dashboard/assets/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      // `_name` marks a value kept on purpose (an express error handler's `next`, a field dropped by a rest spread).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // Decorator targets and type-graphql's type functions are typed as `Function`, as reflect-metadata gives them.
      '@typescript-eslint/no-unsafe-function-type': 'off',
      // Modules add their loaders and context fields by interface merging: `interface Loaders extends GroupLoaders {}`.
      // A `let` read by a shutdown handler before it is assigned stays `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
    },
  },
  {
    files: ['**/*.js'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: {
        require: 'readonly',
        module: 'writable',
        process: 'readonly',
        __dirname: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);

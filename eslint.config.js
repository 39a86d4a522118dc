// ESLint for the whole repository (flat config): ESLint's and typescript-eslint's strict rule sets
// (without type information: fast enough for 2 cores), sonarjs's cognitive complexity as a warning,
// and Prettier's config last so that no rule argues with the formatter. `npm run lint`.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import sonarjs from 'eslint-plugin-sonarjs';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/fixtures/**',
      'test-results/**',
      'coverage/**',
      '**/.scaffold-probe-*/**',
      'test/infra/**/target/**',
      '**/*.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.node } },
    plugins: { sonarjs },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      'sonarjs/cognitive-complexity': ['warn', 25],
      // tree-sitter's accessors (`child(i)`, `childForFieldName`) are typed nullable for indices and
      // fields the grammar guarantees; `!` there is the checked idiom (~880 uses), not a hidden bug.
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Unused names are errors, except those a signature or a destructuring must name.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-var': 'error',
      'prefer-const': 'error',
      'object-shorthand': 'error',
    },
  },
  {
    // Tests read JSON bodies and rows of many shapes; \`any\` there is a cast a test may make.
    files: ['**/*.test.ts', 'test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['packages/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  prettier,
);

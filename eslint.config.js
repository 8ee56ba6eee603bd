// One lint configuration for the whole repository: typescript-eslint with type information, React hooks
// and accessibility rules for the frontends. Formatting is Prettier's job (`prettier --check`), not ESLint's.
import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/.turbo/**',
      '**/.data/**',
      'coverage/**',
      'frontends/e2e/artifacts/**',
      'charts/shop/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js', '*.mjs', 'deploy/local/bin/*.mjs', 'packages/*/bin/*.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    rules: {
      // A leading underscore marks a binding that is unused on purpose (a counted iteration, a skipped tuple slot).
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
        },
      ],
      // `async` without `await` is how this code implements Promise-returning interfaces (Fastify handlers, journal
      // and transport fakes): it also turns a synchronous throw into a rejection, which their callers rely on.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['frontends/{admin,shell,storefront}/src/**/*.{ts,tsx}', 'packages/ui/src/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat['recommended-latest'],
    ...jsxA11y.flatConfigs.recommended,
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: { ...reactHooks.configs.flat['recommended-latest'].rules, ...jsxA11y.flatConfigs.recommended.rules },
    languageOptions: { ...jsxA11y.flatConfigs.recommended.languageOptions, globals: { ...globals.browser } },
  },
  {
    files: ['frontends/{admin,shell,storefront}/src/**/*.tsx', 'packages/ui/src/**/*.tsx'],
    rules: {
      // React ignores what an event handler returns; the async handlers passed in JSX catch their own errors
      // (react-query's refetch and mutate never reject), so only promises outside JSX attributes are checked.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      // Scrollable log and history boxes take tabIndex={0} so keyboard users can scroll them (WCAG 2.1.1, axe's
      // scrollable-region-focusable, which the browser accessibility tests check).
      'jsx-a11y/no-noninteractive-tabindex': ['error', { tags: ['pre', 'ul'], roles: ['tabpanel'] }],
    },
  },
  {
    // The embedded MongoDB engine handles documents of any shape: bson's `Document` is `{ [key: string]: any }`
    // and every value is checked at run time by its BSON type (typeRank, isPlainObject), as mongod does; its
    // tests send the MongoDB manual's documents, whose mixed _id and field types the driver's typings reject.
    files: ['packages/embedded-mongo/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
    },
  },
  {
    // k6 scripts run in k6's own JavaScript runtime, which provides these globals (not Node's).
    files: ['load-tests/k6/**/*.js'],
    languageOptions: { globals: { __ENV: 'readonly', __ITER: 'readonly', __VU: 'readonly', open: 'readonly' } },
  },
  {
    files: ['**/*.{js,mjs}'],
    ...tseslint.configs.disableTypeChecked,
  },
);

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
    files: ['**/*.{js,mjs}'],
    ...tseslint.configs.disableTypeChecked,
  },
);

import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'var/', 'coverage/', 'node_modules/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Not consistent-type-imports: Nest injects by the constructor's emitted metadata, which a
      // type-only import erases.
      // Configuration is read once, in src/config; everything else receives AppConfig.
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read configuration through AppConfig (src/config).' }],
    },
  },
  {
    files: ['src/config/**', 'test/**', 'scripts/**', 'bench/**', '*.config.*'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    files: ['web/**/*.tsx', 'web/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    files: ['**/*.spec.ts', '**/*.spec.tsx', 'test/**', 'src/**/testing/**'],
    languageOptions: { globals: { ...globals.jest } },
  },
);

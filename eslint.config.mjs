// @ts-check
// Lint rules that guard the layering of ARCHITECTURE.md 1.2: the pure layers and the webview never
// import `vscode` (not even types), and the webview imports only src/shared.
import tseslint from 'typescript-eslint';

const noVscode = {
  name: 'vscode',
  message: 'This layer must not depend on the VS Code API (ARCHITECTURE.md 1.2). Put VS Code glue in src/host.',
};
const nodeBuiltins = ['fs', 'path', 'child_process', 'os', 'net', 'stream', 'util', 'events', 'crypto', 'readline']
  .flatMap((m) => [m, `node:${m}`])
  .map((name) => ({ name, message: 'src/shared and the webview are runtime-neutral: no node builtins.' }));

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'out/**', '**/*.gen.ts', '**/*.mjs'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': ['error', { selector: 'ExportDefaultDeclaration', message: 'No default exports (ARCHITECTURE.md 1.3).' }],
    },
  },
  {
    files: ['src/acp/**/*.ts', 'src/agents/**/*.ts', 'src/thread/**/*.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { paths: [{ ...noVscode, allowTypeImports: false }] }] },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        paths: [{ ...noVscode, allowTypeImports: false }, ...nodeBuiltins, { name: 'zod', message: 'src/shared is types and constants only.' }, { name: 'vscode-jsonrpc', message: 'src/shared is types and constants only.' }],
      }],
    },
  },
  {
    files: ['webview/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        paths: [{ ...noVscode, allowTypeImports: false }, ...nodeBuiltins],
        patterns: [{ regex: '^\\.\\./+src/(?!shared/)', message: 'The webview may import only src/shared (ARCHITECTURE.md 1.2).' },
          { regex: '^(\\.\\./)+src/(?!shared/)', message: 'The webview may import only src/shared (ARCHITECTURE.md 1.2).' }],
      }],
    },
  },
);

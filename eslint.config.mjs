// @ts-check
// Lint rules that guard the layering of docs/architecture.md#layers: the pure layers and the webview never
// import `vscode` (not even types), and the webview imports only src/shared.
import tseslint from 'typescript-eslint';

const noVscode = {
  name: 'vscode',
  message: 'This layer must not depend on the VS Code API (docs/architecture.md#layers). Put VS Code glue in src/host.',
};
const nodeBuiltins = ['fs', 'path', 'child_process', 'os', 'net', 'stream', 'util', 'events', 'crypto', 'readline']
  .flatMap((m) => [m, `node:${m}`])
  .map((name) => ({ name, message: 'src/shared and the webview are runtime-neutral: no node builtins.' }));

const inertMessage = 'Agent text reaches a workbench sink here: wrap the text in inert.message`…` / inert.label`…` / inert.plain`…` / inert.markdown`…` (src/shared/inertText.ts).';
const raw = ':matches(TemplateLiteral[expressions.length>0], BinaryExpression[operator="+"])';
const sinkSelectors = [
  // notifications and modal dialogs, progress, quick picks, input boxes, diff editor titles
  `CallExpression[callee.property.name=/^(show(Information|Warning|Error)Message|showQuickPick|showInputBox|createOutputChannel)$/] > ${raw}`,
  `CallExpression[callee.property.name='executeCommand'][arguments.0.value='vscode.diff'] > ${raw}`,
  `CallExpression[callee.object.name='Object'] ${raw}.arguments`,
  // properties of items and options: quick pick items, message items, terminal and progress options, tree items
  `Property[key.name=/^(label|description|detail|title|name|tooltip|placeHolder|prompt)$/] > ${raw}.value`,
  // assignments to a sink's properties: status bar items, quick picks, tree items, panel titles
  `AssignmentExpression[left.property.name=/^(label|description|detail|title|name|tooltip|placeholder|prompt|text)$/] > ${raw}.right`,
  // tree items and Markdown strings built from text
  `NewExpression[callee.property.name=/^(TreeItem|MarkdownString)$/] > ${raw}`,
];

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'out/**', '**/*.gen.ts', '**/*.mjs'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': ['error', { selector: 'ExportDefaultDeclaration', message: 'No default exports (docs/architecture.md#rules).' }],
    },
  },
  {
    // Agent text bound for the workbench goes through src/shared/inertText.ts (docs/security.md,
    // "Agent text in the workbench"): an interpolating template literal or a string concatenation passed
    // straight to a sink is an error; wrap it in inert.message`…`, inert.label`…`, inert.plain`…` or
    // inert.markdown`…` (literal parts stay as written, interpolations are neutralised).
    files: ['src/host/**/*.ts', 'src/workbench/**/*.ts', 'src/registry/**/*.ts', 'src/chatHost/**/*.ts', 'src/*.ts'],
    rules: {
      'no-restricted-syntax': ['error',
        { selector: 'ExportDefaultDeclaration', message: 'No default exports (docs/architecture.md#rules).' },
        ...sinkSelectors.map((selector) => ({ selector, message: inertMessage })),
      ],
    },
  },
  {
    files: ['src/acp/**/*.ts', 'src/agents/**/*.ts', 'src/thread/**/*.ts', 'src/checkpoints/**/*.ts', 'src/worktrees/**/*.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { paths: [{ ...noVscode, allowTypeImports: false }] }] },
  },
  {
    // the pure thread model: no VS Code, no node built-ins (it runs anywhere, and is unit-tested in plain node)
    files: ['src/thread/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        paths: [{ ...noVscode, allowTypeImports: false }, ...nodeBuiltins.map((b) => ({ ...b, message: 'src/thread is pure: no node builtins (storage lives in src/host/history).' }))],
      }],
    },
  },
  {
    // the thread's model knows no view: the projections in src/thread/view map it to the view model (docs/recipes.md)
    files: ['src/thread/model/**/*.ts', 'src/thread/util/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        paths: [{ ...noVscode, allowTypeImports: false }, ...nodeBuiltins.map((b) => ({ ...b, message: 'src/thread is pure: no node builtins (storage lives in src/host/history).' }))],
        patterns: [{
          group: ['**/shared/viewModel', '**/shared/*Model', '!**/shared/elicitationModel', '**/shared/sessionState', '**/shared/chatProtocol', '**/thread/view/**', '**/thread/export/**'],
          message: 'The thread model imports no view types: project it in src/thread/view (docs/recipes.md).',
        }],
      }],
    },
  },
  {
    // the host never imports a surface above it (docs/architecture.md#layers)
    files: ['src/host/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [{ group: ['**/chatHost/**', '**/workbench/**', '**/extension', '**/api'], message: 'src/host must not import a surface above it (docs/architecture.md#layers): pass a function in through the constructor instead.' }],
      }],
    },
  },
  {
    // a capability serves one session through its SessionContext, never through the session core
    files: ['src/host/{files,terminals,permissions,follow,prompts}/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [
          { group: ['**/chatHost/**', '**/workbench/**', '**/extension', '**/api'], message: 'src/host must not import a surface above it (docs/architecture.md#layers): pass a function in through the constructor instead.' },
          { group: ['**/agentSession', '**/sessionManager', '**/agentHost', '**/features'], message: 'A capability folder must not import the session core (docs/architecture.md#layers): use SessionContext and ClientFeature.' },
        ],
      }],
    },
  },
  {
    // the chat's host side sits below the workbench surfaces
    files: ['src/chatHost/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [{ group: ['**/workbench/**', '**/extension', '**/api'], message: 'src/chatHost must not import the workbench surfaces above it (docs/architecture.md#layers).' }],
      }],
    },
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
        patterns: [{ regex: '^\\.\\./+src/(?!shared/)', message: 'The webview may import only src/shared (docs/architecture.md#layers).' },
          { regex: '^(\\.\\./)+src/(?!shared/)', message: 'The webview may import only src/shared (docs/architecture.md#layers).' }],
      }],
    },
  },
  {
    // views and the composer call the host only through the actions layer (webview/actions.ts)
    files: ['webview/views/**/*.ts', 'webview/composer/**/*.ts', 'webview/transcript/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        paths: [{ ...noVscode, allowTypeImports: false }, ...nodeBuiltins],
        patterns: [{ regex: '^(\\.\\./)+src/(?!shared/)', message: 'The webview may import only src/shared (docs/architecture.md#layers).' },
          { group: ['**/hostIpc'], message: 'Views talk to the host only through webview/actions.ts (docs/chat.md).' }],
      }],
    },
  },
);

import { demoSessionsDirEnv } from '../constants';
import { parseScenario, type ScenarioInput } from './scenario';
import type { Step } from './scenarioSteps';

// The built-in Demo agent, written as a scenario: a friendly, offline product tour of Switchboard.
// Every turn's first message chunk contains "Switchboard demo agent" (a UI test looks for it).

const demoFile = '{{cwd}}/switchboard-demo.md';
const demoFileContent = [
  '# Switchboard demo',
  '',
  'This file was written by the **Switchboard demo agent** during `/tour`,',
  'through `fs/write_text_file`: your editor applied the edit, so Undo works as usual.',
  '',
  '- TODO: connect a real agent (Claude Code, Codex, Gemini CLI, …) from the agent picker.',
  '- TODO: delete this file whenever you like.',
  '',
  'Last tour: {{startedAt}}', // one time for the turn: the diff shown and the file written are the same text
  '',
].join('\n');
// A folder without README.md is normal: the read then ends with this note, never with an error code.
const noReadmeNote = 'There is no `README.md` in this folder, so there was nothing to read. That is fine: a real agent would look at other files.';

const terminalScript = "console.log('Hello from a terminal started by the Switchboard demo agent.');"
  + "console.log('Node ' + process.version + ' on ' + process.platform + '/' + process.arch);";

const tourStops = ['Read a file from your workspace', 'Propose an edit and ask your permission', 'Run a command in a terminal',
  'Search and point at code', 'Wrap up: title, usage and a summary'];

/** The tour plan with the first `done` stops completed and the next one in progress. */
function tourPlan(done: number): Step {
  return {
    step: 'plan',
    entries: tourStops.map((content, i) => ({
      content, priority: i < 3 ? 'high' : 'medium', status: i < done ? 'completed' : i === done ? 'in_progress' : 'pending',
    })),
  };
}

const helpTable = [
  '| Try | What happens |',
  '|---|---|',
  '| `/tour` | A guided tour: a plan, a file read, an edit that asks your permission, a terminal command |',
  '| `/plan <goal>` | A plan that updates live as the steps complete |',
  '| `/tools [file]` | The editor\'s own tools for agents: problems, open editors and more |',
  '| `help` | This overview |',
  '| anything else | A short streamed answer with a thought and a file read |',
].join('\n');

const helpTurn: ScenarioInput['turns'] = [{
  match: '^\\s*(/help|help|\\?)\\s*$',
  steps: [
    { step: 'text', text: "I'm the **Switchboard demo agent**: a scripted stand-in for a real coding agent. ", messageId: 'help-{{turn}}' },
    {
      step: 'text', chunks: 12, chunkDelayMs: 30, messageId: 'help-{{turn}}',
      text: 'I run entirely on your machine (no API key, no network), so you can explore Switchboard before you '
        + `connect Claude Code, Codex, Gemini CLI or any other ACP agent.\n\n${helpTable}\n\n`
        + 'You can also change my **model** and **mode** in the session settings (they are pretend, of course), '
        + 'and reopen this conversation later from the session list.',
    },
  ],
}];

const tourTurn: ScenarioInput['turns'] = [{
  match: '^\\s*/tour\\b',
  cancelPending: true,
  onCancel: [{ step: 'text', text: '\n\n*Tour stopped. Type `/tour` to start again.*' }],
  steps: [
    { step: 'text', text: "Welcome aboard! I'm the **Switchboard demo agent**, and this is a five-stop tour. ", messageId: 'tour-{{turn}}-intro' },
    {
      step: 'text', chunks: 10, chunkDelayMs: 40, messageId: 'tour-{{turn}}-intro',
      text: 'Everything you will see is what a real agent does over the Agent Client Protocol — only scripted.\n',
    },
    tourPlan(0),
    { step: 'thought', chunks: 6, chunkDelayMs: 40, text: 'First stop: reading a file. I do not touch the disk myself — I ask the editor, which also sees unsaved changes.' },
    // Stop 1: read
    {
      step: 'toolCall', toolCallId: 'tour-read-{{turn}}', title: 'Read README.md', kind: 'read', status: 'pending',
      locations: [{ path: '{{cwd}}/README.md', line: 1 }], rawInput: { path: '{{cwd}}/README.md', limit: 15 },
    },
    {
      step: 'readFile', requires: ['fs.readTextFile'], path: '{{cwd}}/README.md', line: 1, limit: 15, toolCallId: 'tour-read-{{turn}}',
      failureNote: noReadmeNote,
    },
    {
      step: 'toolCallUpdate', requires: ['!fs.readTextFile'], toolCallId: 'tour-read-{{turn}}', status: 'completed',
      content: [{ type: 'content', content: { type: 'text', text: 'Your editor does not offer file reads to agents, so this read is only for show.' } }],
    },
    {
      step: 'text', when: { readFile: 'ok' }, chunks: 6, chunkDelayMs: 40,
      text: '\n**Stop 1 — reading.** Your editor served `README.md` to me over `fs/read_text_file`, unsaved changes included.\n',
    },
    {
      step: 'text', when: { readFile: 'error' }, chunks: 6, chunkDelayMs: 40,
      text: '\n**Stop 1 — reading.** There is no `README.md` in this folder, and that is fine: the tool call says so instead of showing its content.\n',
    },
    tourPlan(1),
    // Stop 2: edit with permission
    { step: 'readFile', as: 'demoFile', requires: ['fs.readTextFile'], path: demoFile },
    {
      step: 'toolCall', when: { demoFile: 'ok' }, toolCallId: 'tour-edit-{{turn}}', title: 'Update switchboard-demo.md', kind: 'edit',
      status: 'pending', locations: [{ path: demoFile, line: 1 }],
      content: [{ type: 'diff', path: demoFile, oldText: '{{result.demoFile}}', newText: demoFileContent }],
    },
    {
      step: 'toolCall', when: { demoFile: '!ok' }, toolCallId: 'tour-edit-{{turn}}', title: 'Create switchboard-demo.md', kind: 'edit',
      status: 'pending', locations: [{ path: demoFile, line: 1 }],
      content: [{ type: 'diff', path: demoFile, oldText: null, newText: demoFileContent }],
    },
    {
      step: 'text', when: { 'config.mode': 'ask' }, messageId: 'tour-{{turn}}-edit',
      text: '\n**Stop 2 — an edit.** I would like to write a small demo file. You are in **Ask** mode, so I need your permission first.\n',
    },
    {
      step: 'permission', when: { 'config.mode': 'ask' },
      toolCall: { toolCallId: 'tour-edit-{{turn}}', title: 'Write switchboard-demo.md', kind: 'edit' },
      options: [
        { optionId: 'allow', name: 'Allow this edit', kind: 'allow_once' },
        { optionId: 'reject', name: 'Skip it', kind: 'reject_once' },
      ],
    },
    {
      step: 'text', when: { 'config.mode': 'auto' }, messageId: 'tour-{{turn}}-edit',
      text: '\n**Stop 2 — an edit.** You are in **Auto-edit** mode, so I write the demo file without asking.\n',
    },
    { step: 'writeFile', when: { permission: 'allow' }, requires: ['fs.writeTextFile'], path: demoFile, content: demoFileContent, toolCallId: 'tour-edit-{{turn}}' },
    { step: 'writeFile', when: { 'config.mode': 'auto' }, requires: ['fs.writeTextFile'], path: demoFile, content: demoFileContent, toolCallId: 'tour-edit-{{turn}}' },
    {
      step: 'toolCallUpdate', when: { permission: '!reject' }, requires: ['!fs.writeTextFile'], toolCallId: 'tour-edit-{{turn}}', status: 'completed',
      content: [{ type: 'content', content: { type: 'text', text: 'Your editor does not accept file writes from agents, so I only showed the diff.' } }],
    },
    { step: 'toolCallUpdate', when: { permission: 'reject' }, toolCallId: 'tour-edit-{{turn}}', status: 'failed' },
    { step: 'text', when: { permission: 'reject' }, text: 'No problem — I left your files alone.\n' },
    { step: 'text', when: { writeFile: 'ok' }, text: 'Done: `switchboard-demo.md` is in your workspace, written by your editor (so Undo works).\n' },
    tourPlan(2),
    // Stop 3: terminal
    {
      step: 'text', chunks: 6, chunkDelayMs: 40,
      text: '\n**Stop 3 — a terminal.** Commands run in a terminal your editor owns, and their output streams into the tool call. '
        + 'I start this one without asking you first, so Switchboard asks you itself: none of your answers covers it '
        + '(unless `switchboard.permissions.uncoveredActions` lets agents decide).\n',
    },
    {
      step: 'toolCall', toolCallId: 'tour-run-{{turn}}', title: 'Say hello from a terminal', kind: 'execute', status: 'pending',
      rawInput: { command: 'node', args: ['-e', '…'] },
    },
    {
      step: 'terminal', requires: ['terminal'], command: '{{nodeCommand}}', args: ['-e', terminalScript],
      env: [{ name: 'ELECTRON_RUN_AS_NODE', value: '1' }], cwd: '{{cwd}}', outputByteLimit: 16384,
      timeoutMs: 15000, toolCallId: 'tour-run-{{turn}}',
    },
    {
      step: 'toolCallUpdate', requires: ['!terminal'], toolCallId: 'tour-run-{{turn}}', status: 'completed',
      content: [{ type: 'content', content: { type: 'text', text: 'Your editor does not offer terminals to agents, so I only showed the command.' } }],
    },
    tourPlan(3),
    // Stop 4: search + follow-along
    {
      step: 'text', chunks: 6, chunkDelayMs: 40,
      text: '\n**Stop 4 — follow-along.** Tool calls can point at files and lines, so you can jump to what I am looking at.\n',
    },
    {
      step: 'toolCall', toolCallId: 'tour-search-{{turn}}', title: 'Search for TODO', kind: 'search', status: 'in_progress',
      rawInput: { pattern: 'TODO' },
    },
    { step: 'sleep', ms: 300 },
    {
      step: 'toolCallUpdate', toolCallId: 'tour-search-{{turn}}', status: 'completed',
      locations: [{ path: demoFile, line: 6 }, { path: demoFile, line: 7 }],
      content: [{ type: 'content', content: { type: 'text', text: '2 matches in switchboard-demo.md (pretend search).' } }],
    },
    tourPlan(4),
    // Stop 5: wrap up
    { step: 'sessionInfo', title: 'Switchboard tour' },
    { step: 'usage', used: 48200, size: 200000, cost: { amount: 0.42, currency: 'USD' } },
    {
      step: 'text', chunks: 16, chunkDelayMs: 35,
      text: '\n### That was the tour\n'
        + '- **Plan**: the checklist above, updated as I went.\n'
        + '- **Tool calls**: a read, an edit with a diff and your permission, a terminal and a search.\n'
        + '- **Follow-along**: the search pointed at lines in `switchboard-demo.md`.\n'
        + '- **Session info**: this conversation is now titled *Switchboard tour*; context usage and a (pretend) cost are shown too.\n\n'
        + 'Next, try `/plan` with a goal, or connect a real agent.',
    },
    tourPlan(5),
  ],
}];

/** A tool call card around one `mcp` step of the editor's server: in progress, then its answer or its error. */
function editorToolCard(id: string, title: string, kind: 'search' | 'read' | 'other', call: Omit<Extract<Step, { step: 'mcp' }>, 'step' | 'when'>, when: Record<string, string> = {}): Step[] {
  const as = call.as ?? id;
  return [
    { step: 'toolCall', when, toolCallId: `${id}-{{turn}}`, title, kind, status: 'in_progress', rawInput: { server: 'vscode', tool: call.tool ?? 'tools/list', arguments: call.arguments ?? {} } },
    { step: 'mcp', when, ...call, as },
    ...(['ok', 'error'] as const).map((outcome): Step => ({
      step: 'toolCallUpdate', when: { ...when, [as]: outcome }, toolCallId: `${id}-{{turn}}`, status: outcome === 'ok' ? 'completed' : 'failed',
      content: [{ type: 'content', content: { type: 'text', text: `\`\`\`text\n{{result.${as}}}\n\`\`\`` } }],
    })),
  ];
}

/** `/tools [file]`: the editor's own MCP server (docs/editor-tools.md), used as a real agent would. */
const toolsTurn: ScenarioInput['turns'] = [{
  match: '^\\s*/tools\\b',
  steps: [
    { step: 'text', text: 'Switchboard gives every agent an MCP server of the editor\'s own, `vscode`. Let me ask it what it offers, then use two of its tools.\n\n', messageId: 'tools-{{turn}}' },
    ...editorToolCard('tools-list', 'List the editor\'s tools', 'other', { as: 'tools' }),
    ...editorToolCard('tools-problems', 'Problems in {{args}}', 'search', { tool: 'get_diagnostics', arguments: { path: '{{args}}' }, as: 'problems' }, { args: '!' }),
    ...editorToolCard('tools-problems', 'Problems in the workspace', 'search', { tool: 'get_diagnostics', arguments: { severity: 'warning' }, as: 'problems' }, { args: '' }),
    ...editorToolCard('tools-editors', 'Your open editors and selection', 'read', { tool: 'get_open_editors', as: 'editors' }),
    {
      step: 'text', when: { tools: 'ok' }, messageId: 'tools-{{turn}}-end',
      text: 'Those answers come from your language servers and editors, unsaved changes included. A real agent uses them the same way. '
        + 'Each call is in **ACP: Show Editor Tools Log**. Try `/tools <file>` for the problems of one file.',
    },
    {
      step: 'text', when: { tools: 'error' }, messageId: 'tools-{{turn}}-end',
      text: 'This session did not get the editor\'s tools (is `switchboard.editorTools.enabled` off?): {{result.tools}}',
    },
  ],
}];

const planTurn: ScenarioInput['turns'] = [{
  match: '^\\s*/plan\\b',
  onCancel: [{ step: 'text', text: '\n*Planning stopped.*' }],
  steps: [
    { step: 'text', when: { args: '' }, text: "I'm the **Switchboard demo agent**. Give me a goal, e.g. `/plan add dark mode`; meanwhile here is a sample plan.\n" },
    { step: 'text', when: { args: '!' }, text: "I'm the **Switchboard demo agent**. Here is how I would approach: *{{args}}*\n" },
    { step: 'sessionInfo', when: { turn: '1', args: '!' }, title: 'Plan: {{topic}}' },
    { step: 'toolCall', toolCallId: 'plan-think-{{turn}}', title: 'Thinking about the steps', kind: 'think', status: 'in_progress' },
    { step: 'thought', chunks: 5, chunkDelayMs: 60, text: 'Break the goal down: understand, change, verify. Keep each step small enough to review.' },
    { step: 'toolCallUpdate', toolCallId: 'plan-think-{{turn}}', status: 'completed' },
    ...[0, 1, 2, 3].map((done): Step => ({
      step: 'plan',
      entries: ['Explore the relevant code', 'Make the change', 'Add or update tests', 'Review the diff'].map((content, i) => ({
        content, priority: i === 1 ? 'high' : 'medium', status: i < done ? 'completed' : i === done ? 'in_progress' : 'pending',
      })),
    })).flatMap((plan): Step[] => [plan, { step: 'sleep', ms: 400 }]),
    {
      step: 'plan',
      entries: ['Explore the relevant code', 'Make the change', 'Add or update tests', 'Review the diff'].map((content, i) => ({
        content, priority: i === 1 ? 'high' : 'medium', status: 'completed',
      })),
    },
    { step: 'text', chunks: 6, chunkDelayMs: 40, text: 'All four steps are done (in pretend-land). A real agent would have edited files along the way.' },
  ],
}];

const defaultTurn: ScenarioInput['turns'] = [{
  onCancel: [{ step: 'text', text: '\n*Stopped.*' }],
  steps: [
    {
      step: 'text', messageId: 'answer-{{turn}}',
      text: "Hi! I'm the **Switchboard demo agent**, a scripted stand-in for a real coding agent. ",
    },
    { step: 'thought', chunks: 4, chunkDelayMs: 50, text: 'I cannot really answer that, but I can show what an answer looks like. Let me glance at the workspace first.' },
    // a real agent names the chat after what it is about: the first prompt, short
    { step: 'sessionInfo', when: { turn: '1' }, title: '{{topic}}' },
    {
      step: 'toolCall', toolCallId: 'peek-{{turn}}', title: 'Read README.md', kind: 'read', status: 'pending',
      locations: [{ path: '{{cwd}}/README.md', line: 1 }],
    },
    { step: 'readFile', requires: ['fs.readTextFile'], path: '{{cwd}}/README.md', line: 1, limit: 10, toolCallId: 'peek-{{turn}}', failureNote: noReadmeNote },
    { step: 'toolCallUpdate', requires: ['!fs.readTextFile'], toolCallId: 'peek-{{turn}}', status: 'completed' },
    {
      step: 'text', chunks: 30, chunkDelayMs: 35, messageId: 'answer-{{turn}}-2',
      text: 'I run entirely on your machine — no API key, no network — so I cannot reason about *{{prompt}}*. '
        + 'What I can do is show you how a real agent looks in Switchboard:\n\n'
        + '- **Streaming Markdown**: this text arrives in small chunks.\n'
        + '- **Thoughts**: the reasoning above, collapsed by default.\n'
        + '- **Tool calls**: the README read, with its status and result.\n\n'
        + `${helpTable}\n\n`
        + 'Answering as **{{configLabel.model}}** in **{{configLabel.mode}}** mode.',
    },
    { step: 'usage', used: 3200, size: 200000, cost: { amount: 0.01, currency: 'USD' } },
  ],
}];

const demoScenarioInput: ScenarioInput = {
  name: 'switchboard-demo',
  description: 'The built-in, offline Demo agent of Switchboard.',
  stderr: ['Switchboard demo agent: offline and scripted, no API key needed. One log line per request follows.'],
  initialize: {
    response: {
      agentInfo: { name: 'switchboard-demo', title: 'Switchboard Demo Agent', version: '1.0.0' },
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image: false, audio: false, embeddedContext: true },
        mcpCapabilities: { http: false, sse: false },
        // fork, title, archive and status are unstable: the Demo agent has them so that they can be tried
        sessionCapabilities: { list: {}, resume: {}, close: {}, delete: {}, fork: {}, title: {}, archive: {}, status: {} },
      },
      authMethods: [],
    },
  },
  session: {
    idPrefix: 'demo-',
    randomIds: true,
    // the extension names a folder in its global storage: a reloaded window resumes the Demo agent's chats
    storeDirEnv: demoSessionsDirEnv,
    configOptions: [
      {
        id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: 'swift',
        description: 'Pretend models: nothing leaves your machine.',
        options: [
          { group: 'fast', name: 'Fast', options: [{ value: 'swift', name: 'Swift (demo)', description: 'Quick, short answers' }] },
          {
            group: 'thorough', name: 'Thorough', options: [
              { value: 'sage', name: 'Sage (demo)', description: 'Slower, more careful' },
              { value: 'owl', name: 'Night Owl (demo)', description: 'Thinks out loud' },
            ],
          },
        ],
      },
      {
        id: 'mode', name: 'Mode', category: 'mode', type: 'select', currentValue: 'ask',
        options: [
          { value: 'ask', name: 'Ask', description: 'Ask before every edit' },
          { value: 'auto', name: 'Auto-edit', description: 'Edit without asking' },
        ],
      },
    ],
    commands: [
      { name: 'tour', description: 'A guided tour: plan, file read, edit with permission, terminal' },
      { name: 'plan', description: 'Show a plan that updates live', input: { hint: 'a goal, e.g. add dark mode' } },
      { name: 'tools', description: 'Use the editor\'s own MCP tools: problems, open editors', input: { hint: 'a file (optional)' } },
      { name: 'help', description: 'What this demo agent can do' },
    ],
    usage: { used: 0, size: 200000, cost: { amount: 0, currency: 'USD' } },
  },
  turns: [...helpTurn, ...tourTurn, ...toolsTurn, ...planTurn, ...defaultTurn],
};

/** The built-in Demo agent's scenario (validated at load). */
export const demoScenario = parseScenario(demoScenarioInput, 'demoScenario');

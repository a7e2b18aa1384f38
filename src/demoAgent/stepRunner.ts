import type * as acp from '@agentclientprotocol/sdk/unstable';
import { runClientStep, type ClientStep } from './clientSteps';
import { runDiskStep, waitForFile } from './diskSteps';
import type { EngineContext } from './engineContext';
import type { Turn } from './scenario';
import type { Step, StepOf } from './scenarioSteps';
import type { PromptUsage } from './acpShapes';
import type { OutgoingUpdate, SessionState } from './sessionStore';
import { planUpdate, runSubagent } from './subagentSteps';
import { expandTemplates } from './templates';
import { textChunks } from './textChunks';
import { sleep, TurnControl, type StepResult } from './turnControl';

/** How the current request is answered: a stop reason (prompts) or a JSON-RPC error. */
export type Answer =
  | { readonly kind: 'stop'; readonly stopReason: acp.StopReason; readonly usage?: PromptUsage }
  | { readonly kind: 'error'; readonly error: { code: number; message: string; data?: unknown } };

/** Where the steps of a run go. */
export interface RunTarget {
  /** The session (absent in `initialize`, `authenticate`, … hooks). */
  readonly session?: SessionState;
  /** The session id updates are sent for (defaults to the session's). */
  readonly sessionId?: string;
  /** Template values (`prompt`, `args`). */
  readonly vars?: Readonly<Record<string, string>>;
  /** Record the sent updates in the session history (false for replays). Default true. */
  readonly record?: boolean;
}

const clientStepKinds = new Set<Step['step']>(['permission', 'readFile', 'writeFile', 'terminal', 'request', 'cancelRequest', 'await', 'elicit', 'elicitComplete']);

function isClientStep(step: Step): step is ClientStep {
  return clientStepKinds.has(step.step);
}

/**
 * Executes the steps of one turn, hook or replay against the client. The first `stop` / `error` step
 * (or the end of a turn) settles `answer`; the steps after it still run ("late" updates).
 */
export class StepRunner {
  /** Settles when the current request should be answered. */
  readonly answer: Promise<Answer>;
  private settle: (answer: Answer) => void = () => undefined;
  private settled = false;
  private halted = false;
  private cancellable = false;
  private readonly results = new Map<string, StepResult>();
  /** The `{{startedAt}}` template: one time for the whole run. */
  private readonly startedAt = new Date().toISOString();

  constructor(readonly engine: EngineContext, readonly target: RunTarget, readonly control = new TurnControl()) {
    this.answer = new Promise((resolve) => {
      this.settle = resolve;
    });
  }

  /** The session id of this run ('' when there is none). */
  get sessionId(): string {
    return this.target.sessionId ?? this.target.session?.sessionId ?? '';
  }

  /** Whether the run stopped for good (crash, hang ended by close, connection closed). */
  get isHalted(): boolean {
    return this.halted || this.engine.isClosed;
  }

  /** Whether the turn was cancelled and honours it. */
  get isCancelled(): boolean {
    return this.cancellable && this.control.cancelled;
  }

  /** Runs a prompt turn: answers `cancelled` after `onCancel` if cancelled, else `end_turn` at the end. */
  async runTurn(turn: Turn): Promise<void> {
    this.cancellable = !turn.ignoreCancel;
    for (const step of turn.steps) {
      if (this.isHalted) {
        return;
      }
      if (this.isCancelled && !this.settled) {
        this.engine.log(`turn cancelled (${this.control.reason ?? '?'}) in ${this.sessionId}`);
        this.cancellable = false;
        await this.runSteps(turn.onCancel ?? []);
        this.answerWith({ kind: 'stop', stopReason: 'cancelled' });
        return;
      }
      await this.runStep(step);
    }
    if (this.isCancelled && !this.settled) {
      this.cancellable = false;
      await this.runSteps(turn.onCancel ?? []);
      this.answerWith({ kind: 'stop', stopReason: 'cancelled' });
    }
    this.answerWith({ kind: 'stop', stopReason: 'end_turn' });
  }

  /** Runs steps without turn semantics (hooks, replays). */
  async runSteps(steps: readonly Step[]): Promise<void> {
    for (const step of steps) {
      if (this.isHalted) {
        return;
      }
      await this.runStep(step);
    }
  }

  /** Runs steps that stop when the run's control is cancelled (a subagent's work); true when they were. */
  async runCancellable(steps: readonly Step[]): Promise<boolean> {
    this.cancellable = true;
    for (const step of steps) {
      if (this.isHalted || this.isCancelled) break;
      await this.runStep(step);
    }
    return this.isCancelled;
  }

  /** Settles `answer` (only the first call counts). */
  answerWith(answer: Answer): void {
    if (!this.settled) {
      this.settled = true;
      this.settle(answer);
    }
  }

  /** Sends one `session/update` (recorded in the session history unless `record` is false). */
  async sendUpdate(update: OutgoingUpdate, options: { record?: boolean; sessionId?: string } = {}): Promise<void> {
    if (this.engine.isClosed) {
      return;
    }
    const sessionId = options.sessionId ?? this.sessionId;
    if ((options.record ?? this.target.record ?? true) && this.target.session && sessionId === this.target.session.sessionId) {
      this.target.session.history.push(update);
    }
    await this.notifyUpdate(sessionId, update);
  }

  /** Sends a `session/update` with any payload, unrecorded (malformed-traffic tests). */
  async notifyUpdate(sessionId: string, update: Record<string, unknown>): Promise<void> {
    try {
      await this.engine.client.notify<{ sessionId: string; update: Record<string, unknown> }>('session/update', { sessionId, update });
    } catch (error) {
      this.engine.log(`session/update failed: ${String(error)}`);
    }
  }

  /** Records a client step's outcome under `name`, optionally echoing it as an agent message. */
  async record(name: string, result: StepResult, echo: boolean): Promise<void> {
    this.results.set(name, result);
    this.engine.log(`  ${name} → ${result.outcome}`);
    if (echo) {
      await this.sendUpdate({
        sessionUpdate: 'agent_message_chunk',
        content: { type: 'text', text: `[${name}] ${result.outcome}: ${result.text}\n` },
      });
    }
  }

  /** Records a result without logging or echoing (requests started with `wait: false`). */
  setResult(name: string, result: StepResult): void {
    this.results.set(name, result);
  }

  private async runStep(raw: Step): Promise<void> {
    if (!this.conditionsHold(raw)) {
      return;
    }
    const step = expandTemplates(raw, (name) => this.lookup(name));
    this.engine.log(`  step ${step.step}${'toolCallId' in step && step.toolCallId ? ` ${step.toolCallId}` : ''}`);
    try {
      if (isClientStep(step)) {
        await runClientStep(this, step);
      } else {
        await this.runLocalStep(step);
      }
    } catch (error) {
      this.engine.log(`  step ${step.step} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private async runLocalStep(step: Exclude<Step, ClientStep>): Promise<void> {
    switch (step.step) {
      case 'text':
        return this.stream(step.role === 'user' ? 'user_message_chunk' : 'agent_message_chunk', step);
      case 'thought':
        return this.stream('agent_thought_chunk', step);
      case 'content': {
        const kind = { agent: 'agent_message_chunk', user: 'user_message_chunk', thought: 'agent_thought_chunk' }[step.role ?? 'agent'];
        return this.sendUpdate({ sessionUpdate: kind, content: step.content, ...(step.messageId ? { messageId: step.messageId } : {}) });
      }
      case 'toolCall': {
        const { step: _s, when: _w, requires: _r, note: _n, ...toolCall } = step;
        return this.sendUpdate({ sessionUpdate: 'tool_call', ...toolCall });
      }
      case 'toolCallUpdate': {
        const { step: _s, when: _w, requires: _r, note: _n, ...update } = step;
        return this.sendUpdate({ sessionUpdate: 'tool_call_update', ...update });
      }
      case 'plan':
        return this.sendUpdate({ sessionUpdate: 'plan', entries: step.entries });
      case 'planUpdate':
        return this.sendUpdate(planUpdate(step));
      case 'planRemoved':
        return this.sendUpdate({ sessionUpdate: 'plan_removed', planId: step.planId });
      case 'subagent':
        return runSubagent(this, step);
      case 'commands':
        return this.sendUpdate({ sessionUpdate: 'available_commands_update', availableCommands: step.commands });
      case 'mode':
        if (this.target.session?.modes) {
          this.target.session.modes.currentModeId = step.currentModeId;
        }
        return this.sendUpdate({ sessionUpdate: 'current_mode_update', currentModeId: step.currentModeId });
      case 'configOptions':
        if (this.target.session) {
          this.target.session.configOptions = structuredClone(step.configOptions);
        }
        return this.sendUpdate({ sessionUpdate: 'config_option_update', configOptions: step.configOptions });
      case 'sessionInfo':
        return this.sessionInfo(step);
      case 'authStatus':
        return this.engine.setAuthStatus({ state: step.state, ...(step.accounts ? { accounts: step.accounts } : {}) }, step.notify ?? true);
      case 'usage': {
        const { step: _s, when: _w, requires: _r, note: _n, ...usage } = step;
        return this.sendUpdate({ sessionUpdate: 'usage_update', ...usage });
      }
      case 'disk':
        return this.record(step.as ?? 'disk', runDiskStep(step), step.echo ?? false);
      case 'mcp': return this.record(step.as ?? 'mcp', await (await import('./mcpSteps')).runMcpStep(step, this.sessionId, this.target.session?.mcpServers ?? [], this.engine.client), step.echo ?? false);
      case 'sleep':
        return sleep(step.ms * this.engine.delayScale, this.cancellable ? this.control.signal : undefined);
      case 'awaitSteer': return this.record(step.as ?? 'steer', await this.control.nextSteer(step.timeoutMs ?? 60_000), step.echo ?? true);
      case 'waitForFile':
        return waitForFile(step.path, step.timeoutMs ?? 60_000, this.cancellable ? this.control.signal : undefined);
      case 'stderr':
        for (const line of step.lines) {
          this.engine.io.writeStderr(`${line}\n`);
        }
        return;
      case 'raw':
        await this.engine.wire.writeLine(step.line ?? JSON.stringify(step.json ?? null), step.newline ?? true);
        return;
      case 'huge':
        if (step.toolCallId) {
          const text = hugeText(step.bytes);
          const output = step.as === 'rawOutput' ? { rawOutput: { stdout: text, exit_code: 0 } } : { content: [{ type: 'content' as const, content: { type: 'text' as const, text } }] };
          return this.sendUpdate({ sessionUpdate: 'tool_call_update', toolCallId: step.toolCallId, status: 'completed', ...output }, { record: false });
        }
        return this.sendUpdate({
          sessionUpdate: step.role === 'thought' ? 'agent_thought_chunk' : 'agent_message_chunk',
          content: { type: 'text', text: hugeText(step.bytes) },
        }, { record: false });
      case 'unknownUpdate':
        return this.sendUpdate({ ...step.fields, sessionUpdate: step.sessionUpdate ?? 'x_future_update_kind' }, { record: false });
      case 'update':
        return this.notifyUpdate(step.sessionId ?? this.sessionId, step.update);
      case 'crash':
        this.halted = true;
        await this.engine.crash(step.signal ? { signal: step.signal } : { code: step.exitCode ?? 1 }, step.stderr ?? []);
        return;
      case 'hang':
        this.engine.log('  hanging: this request is never answered');
        await this.engine.closed;
        this.halted = true;
        return;
      case 'error':
        this.answerWith({ kind: 'error', error: { code: step.code, message: step.message, data: step.data } });
        return;
      case 'stop':
        this.answerWith({ kind: 'stop', stopReason: step.stopReason, ...(step.usage ? { usage: step.usage } : {}) });
        return;
    }
  }

  private async stream(kind: string, step: StepOf<'text'> | StepOf<'thought'>): Promise<void> {
    const chunks = textChunks(step.text, step.chunks ?? 1);
    for (const [index, chunk] of chunks.entries()) {
      if (this.isCancelled || this.isHalted) {
        return;
      }
      await this.sendUpdate({
        sessionUpdate: kind, content: { type: 'text', text: chunk }, ...(step.messageId ? { messageId: step.messageId } : {}),
      });
      if (step.chunkDelayMs && index < chunks.length - 1) {
        await sleep(step.chunkDelayMs * this.engine.delayScale, this.cancellable ? this.control.signal : undefined);
      }
    }
  }

  private sessionInfo(step: StepOf<'sessionInfo'>): Promise<void> {
    const update: OutgoingUpdate = { sessionUpdate: 'session_info_update' };
    const session = this.target.session;
    if (step.title !== undefined) {
      update.title = step.title;
      if (session) {
        session.title = step.title;
      }
    }
    if (step.updatedAt !== undefined) {
      update.updatedAt = step.updatedAt;
      if (session) {
        session.updatedAt = step.updatedAt;
      }
    }
    return this.sendUpdate(update);
  }

  private conditionsHold(step: Step): boolean {
    for (const [name, expected] of Object.entries(step.when ?? {})) {
      const actual = this.results.has(name) ? this.results.get(name)?.outcome : this.lookup(name);
      const matches = (value: string): boolean => (value.startsWith('!') ? actual !== value.slice(1) : actual === value);
      if (!(Array.isArray(expected) ? expected.some(matches) : matches(expected))) {
        return false;
      }
    }
    for (const requirement of step.requires ?? []) {
      const negate = requirement.startsWith('!');
      const value = lookupPath(this.engine.clientCapabilities, negate ? requirement.slice(1) : requirement);
      const present = value !== undefined && value !== null && value !== false;
      if (present === negate) {
        return false;
      }
    }
    return true;
  }

  private lookup(name: string): string | undefined {
    const session = this.target.session;
    if (name.startsWith('result.')) {
      return this.results.get(name.slice('result.'.length))?.text ?? '';
    }
    if (name.startsWith('env.')) {
      return this.engine.io.env[name.slice('env.'.length)] ?? '';
    }
    if (name.startsWith('config.') || name.startsWith('configLabel.')) {
      const option = session?.configOptions?.find((o) => o.id === name.slice(name.indexOf('.') + 1));
      if (!option || name.startsWith('config.')) {
        return option ? String(option.currentValue) : undefined;
      }
      if (option.type === 'boolean') {
        return option.currentValue ? 'on' : 'off';
      }
      const choices = option.options.flatMap((o) => ('options' in o ? o.options : [o]));
      return choices.find((o) => o.value === option.currentValue)?.name ?? option.currentValue;
    }
    switch (name) {
      case 'cwd': return session?.cwd || this.engine.io.cwd;
      case 'sessionId': return this.sessionId;
      case 'execPath': return this.engine.io.execPath;
      case 'now': return new Date().toISOString();
      case 'startedAt': return this.startedAt;
      case 'nodeCommand': return this.engine.io.nodeCommand ?? this.engine.io.execPath;
      case 'mode': return session?.modes?.currentModeId ?? '';
      case 'title': return session?.title ?? '';
      case 'turn': return String(session?.prompts ?? 0);
      case 'mcpServers': return mcpServersSummary(session?.mcpServers ?? []);
      case 'traceparents': return this.engine.wire.traceparents.join('; ') || 'none';
      case 'additionalDirectories': return session?.additionalDirectories ? JSON.stringify(session.additionalDirectories) : 'absent';
      default: return this.target.vars?.[name];
    }
  }
}

/**
 * The MCP servers a session received, in one line for tests (template `{{mcpServers}}`): per server its
 * transport, name and command or URL, with the env variable or header names (not their values), e.g.
 * `stdio files node [server.js] env=TOKEN; http docs https://x/mcp headers=Authorization`; `none` if empty.
 */
export function mcpServersSummary(servers: readonly acp.McpServer[]): string {
  if (!servers.length) return 'none';
  return servers.map((s) => {
    if ('type' in s && (s.type === 'http' || s.type === 'sse')) return `${s.type} ${s.name} ${s.url}${s.headers.length ? ` headers=${s.headers.map((h) => h.name).join(',')}` : ''}`;
    if ('type' in s && s.type === 'acp') return `acp ${s.name}`;
    const stdio = s as acp.McpServerStdio;
    return `stdio ${stdio.name} ${stdio.command} [${stdio.args.join(' ')}]${stdio.env.length ? ` env=${stdio.env.map((e) => e.name).join(',')}` : ''}`;
  }).join('; ');
}

function lookupPath(root: unknown, path: string): unknown {
  let value: unknown = root;
  for (const key of path.split('.')) {
    if (typeof value !== 'object' || value === null) {
      return undefined;
    }
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** `bytes` ASCII characters: numbered 64-byte lines, so a truncation point is easy to spot. */
function hugeText(bytes: number): string {
  const line = (i: number): string => `${String(i).padStart(10, '0')} ${'x'.repeat(52)}\n`;
  const lines = Math.floor(bytes / 64);
  const parts: string[] = [];
  for (let i = 0; i < lines; i++) {
    parts.push(line(i));
  }
  parts.push('y'.repeat(bytes - lines * 64));
  return parts.join('');
}

/**
 * `terminal/*` on VS Code pseudoterminals (https://agentclientprotocol.com/protocol/terminals). Each `terminal/create` starts a
 * {@link TerminalProcess} and answers its id at once; the command shows in the terminal panel as
 * "<agent>: <command>" (never focused), and its output is mirrored into the thread so the tool call that
 * embeds the terminal streams it live and keeps it after release. `terminal/output` and `wait_for_exit` are
 * served from the process, so closing the terminal tab does not break them.
 */
import { StringDecoder } from 'node:string_decoder';
import * as vscode from 'vscode';
import type { CancellationToken } from 'vscode-jsonrpc/node';
import { AcpError, AcpErrorCodes } from '../../acp/errors';
import type {
  CreateTerminalRequest, CreateTerminalResponse, KillTerminalRequest, KillTerminalResponse, ReleaseTerminalRequest,
  ReleaseTerminalResponse, TerminalOutputRequest, TerminalOutputResponse, WaitForTerminalExitRequest, WaitForTerminalExitResponse,
} from '../../acp/schema/types.gen';
import type { EnvLayer } from '../../agents/spawnPlan';
import { resolveShellEnv } from '../../agents/shellEnv';
import { displayCommand, TerminalProcess, type TerminalExitStatus } from '../../agents/terminalProcess';
import { AgentPseudoterminal, describeExit } from './agentPseudoterminal';
import { normalizeAgentPath } from '../files/pathPolicy';
import type { PermissionBroker } from '../permissions/permissionBroker';
import { checkCommand } from './commandGrant';
import type { SessionContext } from '../sessionContext';
import { inertText } from '../../shared/inertText';

/** Terminals an agent may have running (created, not released) in one session. */
export const maxLiveTerminals = 64;
/** Released terminals that stay open in the terminal panel per session; the oldest are closed first. */
export const maxKeptTerminals = 5;
/** Released ids remembered per session, to tell "released" from "never existed" in errors. */
const maxRememberedIds = 1000;
/** Longest terminal name shown in the panel. */
const maxNameChars = 80;

/** Options of {@link TerminalManager} (tests). */
export interface TerminalManagerOptions {
  /** The environment commands start from. Default: the user's login-shell environment. */
  readonly baseEnv?: EnvLayer;
  /** Time between SIGTERM and SIGKILL on kill. Default 2000 ms. */
  readonly graceMs?: number;
}

/** One terminal of the session, live until released. */
export interface AgentTerminal {
  readonly terminalId: string;
  /** The command on one line, as in the terminal's name. */
  readonly command: string;
  readonly process: TerminalProcess;
  readonly pty: AgentPseudoterminal;
  /** The VS Code terminal; undefined once the user closed it. */
  terminal: vscode.Terminal | undefined;
}

/** A terminal before release, with its listeners. */
type LiveTerminal = AgentTerminal & { readonly subscriptions: { dispose(): void }[] };

let nextTerminalNumber = 0;

/** The terminals of one session. */
export class TerminalManager implements vscode.Disposable {
  /** Whether `terminal/*` is implemented, advertised in `initialize` as `clientCapabilities.terminal`. */
  static readonly supported: boolean = true;

  private readonly _live = new Map<string, LiveTerminal>();
  private readonly _released = new Set<string>();
  /** Released terminals still open in the panel, oldest first. */
  private _kept: AgentTerminal[] = [];
  private _disposed = false;

  constructor(readonly ctx: SessionContext, readonly permissions: PermissionBroker, private readonly options: TerminalManagerOptions = {}) {}

  /** A live terminal by id (tests reach the VS Code terminal and its pseudoterminal through it). */
  get(terminalId: string): AgentTerminal | undefined {
    return this._live.get(terminalId) ?? this._kept.find((t) => t.terminalId === terminalId);
  }

  /** Shows a terminal in the panel without taking the focus (the card's Show in terminal); false once it was closed. */
  reveal(terminalId: string): boolean {
    const terminal = this.get(terminalId)?.terminal;
    terminal?.show(true);
    return terminal !== undefined;
  }

  /**
   * `terminal/create`: starts the command and answers its id at once. The user's answers bind
   * (src/host/permissions/grantLedger.ts): a refused command is refused, and one that differs from the approved
   * one, or that no answer covers, is asked about first.
   */
  async create(p: CreateTerminalRequest, token: CancellationToken): Promise<CreateTerminalResponse> {
    if (this._disposed) throw new AcpError('remote', `Session '${this.ctx.sessionId}' has ended: no new terminals.`, AcpErrorCodes.InvalidRequest);
    if (this._live.size >= maxLiveTerminals) {
      throw new AcpError('remote', `Too many terminals: ${maxLiveTerminals} are running in this session. Release some with terminal/release first.`, AcpErrorCodes.InvalidRequest);
    }
    validate(p);
    const cwd = p.cwd ? normalizeAgentPath(p.cwd) : this.ctx.cwd;
    await checkCommand(this, p, () => this.baseEnv(), token);
    if (this._disposed) throw new AcpError('remote', `Session '${this.ctx.sessionId}' has ended: no new terminals.`, AcpErrorCodes.InvalidRequest);
    const terminalId = `term-${++nextTerminalNumber}`;
    const command = displayCommand(p.command, p.args ?? []);
    const proc = TerminalProcess.start({
      command: p.command,
      args: p.args ?? [],
      env: p.env ?? [],
      cwd,
      outputByteLimit: p.outputByteLimit,
      ...(this.options.baseEnv ? { baseEnv: this.options.baseEnv } : {}),
      ...(this.options.graceMs !== undefined ? { graceMs: this.options.graceMs } : {}),
    });
    this.ctx.log.info(`terminal ${terminalId}: ${command} (cwd ${cwd}${p.outputByteLimit != null ? `, outputByteLimit ${p.outputByteLimit}` : ''})`);
    this.permissions.audit.commandRan();
    this.ctx.thread.terminals.create(terminalId, command);

    const pty = new AgentPseudoterminal({
      interrupt: () => {
        this.ctx.log.info(`terminal ${terminalId}: Ctrl+C, killing the process tree`);
        void proc.kill();
      },
      closed: () => this.onTerminalClosed(terminalId),
    }, { keepLines: scrollbackLines() + 100 });
    const decoder = new StringDecoder('utf8');
    const entry: LiveTerminal = { terminalId, command, process: proc, pty, terminal: undefined, subscriptions: [] };
    entry.subscriptions.push(
      proc.onData((chunk) => this.show(terminalId, pty, decoder.write(chunk))),
      proc.onDidExit((status) => {
        this.show(terminalId, pty, decoder.end());
        pty.exited(status);
        this.ctx.thread.terminals.exit(terminalId, status);
        this.ctx.log.info(`terminal ${terminalId}: ${describeExit(status)}`);
      }),
    );
    this._live.set(terminalId, entry);
    try {
      // not shown: the terminal appears in the panel's list without taking focus from the chat
      entry.terminal = vscode.window.createTerminal({
        name: terminalName(this.ctx.agentName, command),
        pty,
        isTransient: true,
        iconPath: new vscode.ThemeIcon('hubot'),
      });
    } catch (error) {
      // no terminal panel (a host without terminals): the command still runs, its output still reaches the chat
      this.ctx.log.warn(`terminal ${terminalId}: cannot open a VS Code terminal: ${error instanceof Error ? error.message : String(error)}`);
    }
    return { terminalId };
  }

  /** The environment a command starts from before the agent's variables (as TerminalProcess takes it). */
  private async baseEnv(): Promise<EnvLayer> {
    return this.options.baseEnv ?? (await resolveShellEnv()).env;
  }

  /** `terminal/output`: the kept output, `truncated`, and the exit status once the command ended. */
  async output(p: TerminalOutputRequest, _token: CancellationToken): Promise<TerminalOutputResponse> {
    const t = this.live(p.terminalId);
    const exit = t.process.exitStatus;
    const { output, truncated } = t.process.output.read(exit !== undefined);
    return { output, truncated, ...(exit ? { exitStatus: toWire(exit) } : {}) };
  }

  /** `terminal/wait_for_exit`: resolves when the command ends; a cancelled request stops waiting (-32800). */
  waitForExit(p: WaitForTerminalExitRequest, token: CancellationToken): Promise<WaitForTerminalExitResponse> {
    const t = this.live(p.terminalId);
    if (t.process.exitStatus) return Promise.resolve(toWire(t.process.exitStatus));
    if (token.isCancellationRequested) return Promise.reject(AcpError.cancelled('terminal/wait_for_exit was cancelled'));
    return new Promise((resolve, reject) => {
      const cancel = token.onCancellationRequested(() => {
        cancel.dispose();
        reject(AcpError.cancelled('terminal/wait_for_exit was cancelled'));
      });
      void t.process.waitForExit().then((status) => {
        cancel.dispose();
        resolve(toWire(status));
      });
    });
  }

  /** `terminal/kill`: kills the whole process tree (SIGTERM, SIGKILL after 2 s); the id stays valid. */
  async kill(p: KillTerminalRequest, _token: CancellationToken): Promise<KillTerminalResponse> {
    const t = this.live(p.terminalId);
    this.ctx.log.info(`terminal ${t.terminalId}: killed by the agent`);
    await t.process.kill();
    return {};
  }

  /** `terminal/release`: kills the command if it still runs and frees the id; the output stays in the chat. */
  async release(p: ReleaseTerminalRequest, _token: CancellationToken): Promise<ReleaseTerminalResponse> {
    const t = this.live(p.terminalId);
    this._live.delete(t.terminalId);
    this.remember(t.terminalId);
    await t.process.kill();
    t.subscriptions.splice(0).forEach((s) => s.dispose());
    t.process.dispose();
    this.ctx.thread.terminals.release(t.terminalId);
    this.ctx.log.info(`terminal ${t.terminalId}: released`);
    if (t.terminal) this.keep(t);
    else t.pty.dispose();
    return {};
  }

  /** Kills every terminal of the session and closes them (session closed). */
  dispose(): void {
    this._disposed = true;
    this.releaseAll();
  }

  /** Kills and closes every terminal; the agent may create new ones later (its process died and was restarted). */
  releaseAll(): void {
    for (const t of this._live.values()) {
      t.process.dispose();
      // the chat still learns how the command ended
      void t.process.waitForExit().then(() => t.subscriptions.splice(0).forEach((s) => s.dispose()));
      this.ctx.thread.terminals.release(t.terminalId);
      closeTerminal(t);
    }
    this._live.clear();
    this._kept.splice(0).forEach(closeTerminal);
  }

  private live(terminalId: string): LiveTerminal {
    const t = this._live.get(terminalId);
    if (t) return t;
    if (this._released.has(terminalId)) throw AcpError.invalidParams(`Terminal '${terminalId}' was released: its id is no longer valid.`);
    throw AcpError.invalidParams(`Unknown terminal '${terminalId}' in session '${this.ctx.sessionId}'.`);
  }

  private show(terminalId: string, pty: AgentPseudoterminal, text: string): void {
    if (!text) return;
    pty.write(text);
    this.ctx.thread.terminals.append(terminalId, text);
  }

  /** The user closed a terminal: a running command is killed, as closing a shell's terminal would. */
  private onTerminalClosed(terminalId: string): void {
    const live = this._live.get(terminalId);
    if (live) {
      live.terminal = undefined;
      if (!live.process.exitStatus) {
        this.ctx.log.info(`terminal ${terminalId}: closed by the user, killing the process tree`);
        void live.process.kill();
      }
      return;
    }
    const kept = this._kept.find((t) => t.terminalId === terminalId);
    if (kept) {
      this._kept = this._kept.filter((t) => t !== kept);
      kept.terminal = undefined;
      kept.pty.dispose();
    }
  }

  /** Keeps a released terminal open in the panel, closing the oldest beyond {@link maxKeptTerminals}. */
  private keep(t: AgentTerminal): void {
    this._kept.push(t);
    while (this._kept.length > maxKeptTerminals) closeTerminal(this._kept.shift() as AgentTerminal);
  }

  private remember(terminalId: string): void {
    this._released.add(terminalId);
    if (this._released.size > maxRememberedIds) this._released.delete(this._released.values().next().value as string);
  }
}

function validate(p: CreateTerminalRequest): void {
  if (!p.command.trim()) throw AcpError.invalidParams('terminal/create: command must not be empty');
  const hasNul = (s: string) => s.includes('\0');
  if (hasNul(p.command) || (p.args ?? []).some(hasNul)) throw AcpError.invalidParams('terminal/create: command and args must not contain NUL characters');
  for (const v of p.env ?? []) {
    if (!v.name || v.name.includes('=') || hasNul(v.name) || hasNul(v.value)) {
      throw AcpError.invalidParams(`terminal/create: invalid environment variable name ${JSON.stringify(v.name)} (empty, or contains '=' or NUL)`);
    }
  }
}

/** Lines the user's terminals keep above the screen (`terminal.integrated.scrollback`). */
function scrollbackLines(): number {
  const lines = vscode.workspace.getConfiguration('terminal.integrated').get<number>('scrollback');
  return typeof lines === 'number' && Number.isFinite(lines) && lines > 0 ? lines : 1000;
}

function terminalName(agentName: string, command: string): string {
  return inertText(`${agentName}: ${command}`, 'label', maxNameChars);
}

function closeTerminal(t: AgentTerminal): void {
  const terminal = t.terminal;
  t.terminal = undefined;
  terminal?.dispose();
  t.pty.dispose();
}

function toWire(status: TerminalExitStatus): { exitCode: number | null; signal: string | null } {
  return { exitCode: status.exitCode, signal: status.signal };
}

/**
 * The user's answers bind the agent's commands (docs/approvals.md): before `terminal/create` runs, its command line
 * is compared with what the user answered in this turn. A refused command is refused with -32003 and the chat says
 * so; a command that differs from the one the user allowed is asked about in a card of the client's own that shows
 * both lines; one that no answer covers is asked about too (unless the user's setting lets the agent decide). A
 * command whose environment changes what its line runs (`LD_PRELOAD`, `NODE_OPTIONS`, `BASH_ENV`, `PATH`, …) is
 * asked about even when its line was allowed.
 */
import * as path from 'node:path';
import type { CancellationToken } from 'vscode-jsonrpc/node';
import { AcpError } from '../../acp/errors';
import type { CreateTerminalRequest, ToolCallContent } from '../../acp/schema/types.gen';
import type { EnvLayer } from '../../agents/spawnPlan';
import { commandForms } from '../permissions/grantLedger';
import { changesCommand } from '../permissions/commandEnv';
import { describeRule } from '../permissions/rules/ruleSet';
import type { PermissionBroker } from '../permissions/permissionBroker';
import type { SessionContext } from '../sessionContext';

/** The card of a command that is not the agent's own `terminal/create` (the editor tools' run_task): its title and first line. */
export interface CommandCard {
  readonly title: string;
  readonly intro: string;
}

/** Approved lines shown beside a different command, at most. */
const maxApprovedShown = 3;

/**
 * Returns when the command may run; throws the refusal otherwise. `baseEnv` is the environment the command would
 * start from without the agent's variables (the user's login shell's: src/agents/terminalProcess.ts).
 */
export async function checkCommand(handler: { readonly ctx: SessionContext; readonly permissions: PermissionBroker }, p: CreateTerminalRequest, baseEnv: () => Promise<EnvLayer>, token: CancellationToken, card?: CommandCard): Promise<void> {
  const { ctx, permissions } = handler;
  const command = commandForms(p.command, p.args ?? []);
  const grant = permissions.grants.command(command);
  // an agent that passes its whole environment on passes the same PATH: only a value the command would not have
  // had anyway counts (the base is read only when such a variable is there)
  const candidates = (p.env ?? []).filter((v) => changesCommand(v.name));
  const base = candidates.length > 0 ? await baseEnv().catch((): EnvLayer => process.env) : {};
  const changing = candidates.filter((v) => base[v.name] !== v.value);
  // a deny rule refuses the command whatever was answered; an allow rule covers one that no answer covers
  const ruling = await permissions.rules.terminal([p.command, ...(p.args ?? [])], p.cwd ? path.resolve(ctx.cwd, p.cwd) : ctx.cwd);
  if (ruling.verdict?.action === 'deny') {
    permissions.rules.matched(ruling);
    ctx.log.info(`terminal: refused ${command.line}: ${describeRule(ruling.verdict.rule)} denies it`);
    ctx.thread.addNotice('warning', `Switchboard refused to run ${command.line}: ${describeRule(ruling.verdict.rule)} denies it.`);
    throw AcpError.accessDenied(`Access denied by the user's rule: ${describeRule(ruling.verdict.rule)} denies ${command.line}`, p.cwd ?? ctx.cwd, 'deniedByUser');
  }
  // an agent elsewhere runs a command on this machine only once the user agreed to that in this session: until
  // then no answer, rule or policy covers it (its own machine is where the user may think it runs)
  const local = ctx.elsewhere !== undefined && !permissions.grants.localCommandsAllowed;
  if (grant.kind === 'refused') {
    ctx.log.info(`terminal: refused ${command.line}: the user rejected this command`);
    ctx.thread.addNotice('warning', `Switchboard refused to run ${command.line}: you rejected this command.`);
    throw AcpError.accessDenied(`Access denied by the user: the command was rejected: ${command.line}`, p.cwd ?? ctx.cwd, 'deniedByUser');
  }
  if (!local && changing.length === 0) {
    if (grant.kind === 'allowed') return;
    if (ruling.verdict?.action === 'allow') {
      permissions.rules.matched(ruling);
      ctx.log.info(`terminal: ${command.line} is allowed by ${describeRule(ruling.verdict.rule)}`);
      return;
    }
    if (grant.kind === 'uncovered' && ruling.verdict?.action !== 'ask' && permissions.uncoveredPolicy() === 'allow') return;
  }
  const differs = grant.kind === 'differs';
  const env = changing.length === 0 ? '' : `\nwith environment variables that change what it runs:\n${fenced(changing.map((v) => `${v.name}=${v.value}`).join('\n'))}`;
  const text = local
    ? `${ctx.agentName} runs on ${ctx.elsewhere ?? 'another machine'}, but this command would run **on this machine**, in ${p.cwd ?? ctx.cwd}:\n${fenced(command.line)}${env}`
    : differs
      ? `You allowed:\n${fenced(grant.approved.slice(0, maxApprovedShown).join('\n'))}\n${ctx.agentName} now runs a different command:\n${fenced(command.line)}${env}`
      : grant.kind === 'allowed'
        ? `You allowed this command:\n${fenced(command.line)}\n${ctx.agentName} runs it${env}`
        : `${card?.intro ?? `${ctx.agentName} runs this command without a request you answered, so Switchboard asks:`}\n${fenced(command.line)}${env}`;
  const content: ToolCallContent[] = [{ type: 'content', content: { type: 'text', text } }];
  const session = local
    ? { option: 'Allow commands on this machine in this session', allows: 'localCommands' as const }
    : grant.kind === 'uncovered' && changing.length === 0 ? { option: 'Allow commands in this session', allows: 'commands' as const } : undefined;
  const answer = await permissions.askClient({
    sessionId: p.sessionId,
    ...(session ? { session } : {}),
    toolCall: {
      title: local ? 'Run a command on this machine' : differs ? 'Run a different command than the one you allowed' : grant.kind === 'allowed' ? 'Run the command you allowed, changed by its environment' : card?.title ?? 'Run a command',
      kind: 'execute', content,
      rawInput: { command: p.command, args: p.args ?? [], ...(p.cwd ? { cwd: p.cwd } : {}), ...(changing.length ? { env: Object.fromEntries(changing.map((v) => [v.name, v.value])) } : {}) },
    },
  }, token);
  if (answer === 'once' || answer === 'session') return;
  if (answer === 'cancelled') throw AcpError.cancelled(`terminal/create was not answered (the turn was cancelled): ${command.line}`);
  ctx.log.info(`terminal: the user refused ${command.line}${local ? ' on this machine' : ''}`);
  throw AcpError.accessDenied(`Access denied by the user: the command was refused${local ? ' on the client\'s machine' : ''}: ${command.line}`, p.cwd ?? ctx.cwd, 'deniedByUser');
}

/** Shell text in a Markdown code fence longer than any run of backticks in it (it cannot close the fence early). */
function fenced(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}sh\n${text}\n${fence}`;
}

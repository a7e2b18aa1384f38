import * as assert from 'node:assert/strict';
import { AgentLogChannels, Redactor, redactingLog } from '../../../src/host/auth/redactor';
import type * as vscode from 'vscode';

/** A log channel that records what reaches it (what VS Code would show and write to the log file). */
function fakeChannel(name: string, lines: string[]): vscode.LogOutputChannel {
  const write = (level: string) => (m: string | Error) => lines.push(`${level} ${m instanceof Error ? m.message : m}`);
  return {
    name, logLevel: 1,
    info: write('info'), warn: write('warn'), error: write('error'), trace: write('trace'),
    show: () => lines.push('show'),
    dispose: () => lines.push('dispose'),
  } as unknown as vscode.LogOutputChannel;
}

describe('Redactor', () => {
  it('redactingLog masks writes (known values, JSON-escaped values, token shapes) and passes everything else through', () => {
    const lines: string[] = [];
    const r = new Redactor();
    r.add('TOPSECRET', 'a"b\\cdef');
    const log = redactingLog(fakeChannel('log', lines), r);
    log.info('value TOPSECRET');
    log.error(new Error('bad TOPSECRET'));
    log.trace(`→ ${JSON.stringify({ env: 'TOPSECRET', other: 'a"b\\cdef' })}`);
    log.warn('upstream said Authorization: Bearer abc123DEF456ghi789');
    log.show();
    assert.equal(log.name, 'log');
    assert.deepEqual(lines, ['info value ***', 'error bad ***', 'trace → {"env":"***","other":"***"}', 'warn upstream said Authorization: Bearer ***', 'show']);
  });

  it('an agent log channel masks the values of the agent env it was asked for with, and names short values once', () => {
    const lines: string[] = [];
    const r = new Redactor();
    const created: string[] = [];
    const logs = new AgentLogChannels(r, (name) => { created.push(name); return fakeChannel(name, lines); });
    const def = { id: 'agent-1', name: 'Agent One', env: { MY_API_TOKEN: 'tok-0123456789-distinct', DEBUG: '1', MODE: 'fast' } };
    const log = logs.for(def);
    log.info('[stderr] MY_API_TOKEN=tok-0123456789-distinct');
    log.info('[stderr] still tok-0123456789-distinct');
    assert.equal(logs.for(def), log, 'one channel per agent');
    assert.deepEqual(created, ['Agent One']);
    assert.deepEqual(lines, [
      'warn not masked in logs: the value of DEBUG, MODE (shorter than 6 characters)',
      'info [stderr] MY_API_TOKEN=***',
      'info [stderr] still ***',
    ]);
    // a restart with an edited env: the new value is masked from then on (the old one stays masked)
    logs.for({ ...def, env: { MY_API_TOKEN: 'edited-secret-value', DEBUG: '1' } }).info('now edited-secret-value');
    assert.equal(lines.at(-1), 'info now ***');
    // the note belongs to the agent's own channel, not to another agent's
    const other = logs.for({ id: 'agent-2', name: 'Agent Two' });
    other.info('sees tok-0123456789-distinct masked too');
    assert.deepEqual(lines.slice(-1), ['info sees *** masked too']);
    logs.dispose();
    assert.equal(lines.filter((l) => l === 'dispose').length, 2);
  });
});

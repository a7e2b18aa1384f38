import * as assert from 'node:assert/strict';
import { Redactor, redactingLog } from '../../../src/host/auth/redactor';
import type * as vscode from 'vscode';

describe('Redactor', () => {
  it('masks every known secret, longest first, and its JSON-escaped form', () => {
    const r = new Redactor();
    r.add('sk-secret-123', 'sk-secret-123-long', 'a"b\\cdef', 'ab');
    assert.equal(r.redact('key=sk-secret-123-long and sk-secret-123.'), 'key=*** and ***.');
    assert.equal(r.redact(JSON.stringify({ v: 'a"b\\cdef' })), '{"v":"***"}');
    assert.equal(r.redact('ab stays: too short to mask'), 'ab stays: too short to mask');
    r.remove('sk-secret-123');
    assert.equal(r.redact('sk-secret-123'), 'sk-secret-123');
  });

  it('treats regex characters literally', () => {
    const r = new Redactor();
    r.add('a.b*c+(d)');
    assert.equal(r.redact('xa.b*c+(d)x aXbbc'), 'x***x aXbbc');
  });

  it('redactingLog masks writes and passes everything else through', () => {
    const lines: string[] = [];
    const channel = {
      name: 'log', logLevel: 1,
      info: (m: string) => lines.push(`info ${m}`),
      error: (m: string | Error) => lines.push(`error ${m instanceof Error ? m.message : m}`),
      trace: (m: string) => lines.push(`trace ${m}`),
      show: () => lines.push('show'),
    } as unknown as vscode.LogOutputChannel;
    const r = new Redactor();
    r.add('TOPSECRET');
    const log = redactingLog(channel, r);
    log.info('value TOPSECRET');
    log.error(new Error('bad TOPSECRET'));
    log.trace('→ {"env":"TOPSECRET"}');
    log.show();
    assert.equal(log.name, 'log');
    assert.deepEqual(lines, ['info value ***', 'error bad ***', 'trace → {"env":"***"}', 'show']);
  });
});

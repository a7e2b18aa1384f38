import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AcpError } from '../../../src/acp/errors';
import { pathTranslator, resolveMapping, toLocal, toRemote } from '../../../src/agents/pathMapping';

describe('path mapping of an agent elsewhere', () => {
  const m = { remote: '/srv/app', local: '/work/app' };

  it('maps paths in the folder both ways, and nothing outside it ("..", a sibling with the same prefix, relative)', () => {
    assert.equal(toLocal(m, '/srv/app/src/a.ts'), path.join('/work/app', 'src', 'a.ts'));
    assert.equal(toLocal(m, '/srv/app'), '/work/app');
    assert.equal(toLocal(m, '/srv/app/x/../b.txt'), path.join('/work/app', 'b.txt'));
    assert.equal(toLocal(m, '/srv/app/../secret'), undefined);
    assert.equal(toLocal(m, '/srv/application/a'), undefined);
    assert.equal(toLocal(m, 'src/a.ts'), undefined);
    assert.equal(toLocal(m, '/srv/app/..foo'), path.join('/work/app', '..foo'), 'a name that starts with ".." is in the folder');
    assert.equal(toRemote(m, '/work/app/src/a.ts'), '/srv/app/src/a.ts');
    assert.equal(toRemote(m, '/work/other/a.ts'), undefined);
  });

  it('a Windows folder on the agent\'s machine', () => {
    const w = { remote: 'C:\\src\\app', local: '/work/app' };
    assert.equal(toLocal(w, 'C:\\src\\app\\lib\\x.ts'), path.join('/work/app', 'lib', 'x.ts'));
    assert.equal(toLocal(w, 'c:\\SRC\\app\\x.ts'), path.join('/work/app', 'x.ts'), 'Windows paths compare without case');
    assert.equal(toLocal(w, 'D:\\src\\app\\x.ts'), undefined);
    assert.equal(toRemote(w, '/work/app/lib/x.ts'), 'C:\\src\\app\\lib\\x.ts');
  });

  it('translates the agent\'s requests and updates, and refuses a request outside the folder with -32602', () => {
    const t = pathTranslator(m);
    assert.deepEqual(t.incoming('fs/read_text_file', { sessionId: 's', path: '/srv/app/a.txt', line: 2 }), { sessionId: 's', path: path.join('/work/app', 'a.txt'), line: 2 });
    assert.deepEqual(t.incoming('terminal/create', { sessionId: 's', command: 'ls', cwd: '/srv/app/sub' }), { sessionId: 's', command: 'ls', cwd: path.join('/work/app', 'sub') });
    assert.deepEqual(t.incoming('terminal/create', { sessionId: 's', command: 'ls' }), { sessionId: 's', command: 'ls' }, 'no cwd: the session\'s, which is already this machine\'s');
    assert.throws(() => t.incoming('fs/write_text_file', { sessionId: 's', path: '/etc/passwd', content: '' }), (e: unknown) => {
      assert.ok(e instanceof AcpError);
      assert.equal(e.code, -32602);
      assert.match(e.message, /"\/etc\/passwd" is outside \/srv\/app/);
      return true;
    });
    const update = t.incoming('session/update', { sessionId: 's', update: {
      sessionUpdate: 'tool_call', toolCallId: 't', title: 'Edit',
      locations: [{ path: '/srv/app/a.ts', line: 3 }, { path: '/opt/other.ts' }],
      content: [{ type: 'diff', path: '/srv/app/a.ts', oldText: 'a', newText: 'b' }, { type: 'content', content: { type: 'text', text: '/srv/app/a.ts' } }],
    } }) as { update: { locations: unknown; content: unknown[] } };
    assert.deepEqual(update.update.locations, [{ path: path.join('/work/app', 'a.ts'), line: 3 }]);
    assert.deepEqual(update.update.content[0], { type: 'diff', path: path.join('/work/app', 'a.ts'), oldText: 'a', newText: 'b' });
    assert.deepEqual(update.update.content[1], { type: 'content', content: { type: 'text', text: '/srv/app/a.ts' } }, 'text is the agent\'s own');
    const permission = t.incoming('session/request_permission', { sessionId: 's', toolCall: { toolCallId: 't', locations: [{ path: '/srv/app/b' }] }, options: [] }) as { toolCall: { locations: unknown } };
    assert.deepEqual(permission.toolCall.locations, [{ path: path.join('/work/app', 'b') }]);
  });

  it('gives the agent its own file links in a prompt', () => {
    const t = pathTranslator(m);
    const out = t.outgoing('session/prompt', { sessionId: 's', prompt: [
      { type: 'text', text: 'look' },
      { type: 'resource_link', name: 'a b.ts', uri: 'file:///work/app/src/a%20b.ts' },
      { type: 'resource', resource: { uri: 'file:///work/app/c.ts', text: 'x' } },
      { type: 'resource_link', name: 'elsewhere', uri: 'file:///etc/hosts' },
      { type: 'resource_link', name: 'web', uri: 'https://example.com/' },
    ] }) as { prompt: { uri?: string; resource?: { uri: string } }[] };
    assert.equal(out.prompt[1]?.uri, 'file:///srv/app/src/a%20b.ts');
    assert.equal(out.prompt[2]?.resource?.uri, 'file:///srv/app/c.ts');
    assert.equal(out.prompt[3]?.uri, 'file:///etc/hosts');
    assert.equal(out.prompt[4]?.uri, 'https://example.com/');
    assert.deepEqual(t.outgoing('session/cancel', { sessionId: 's' }), { sessionId: 's' });
    assert.deepEqual(t.outgoing('session/new', { cwd: '/srv/app', mcpServers: [] }), { cwd: '/srv/app', mcpServers: [] }, 'the session\'s folder is already the agent\'s (transport.cwd)');
  });

  it('resolves localFolder: ${workspaceFolder}, ${workspaceFolder:name}/sub, ~/…; refuses what is no folder in the workspace', () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-map-')));
    fs.mkdirSync(path.join(root, 'one', 'sub'), { recursive: true });
    fs.mkdirSync(path.join(root, 'two'));
    fs.mkdirSync(path.join(root, 'outside'));
    const folders = [{ name: 'one', path: path.join(root, 'one') }, { name: 'two', path: path.join(root, 'two') }];
    try {
      assert.deepEqual(resolveMapping('/srv/app', '${workspaceFolder}', folders, root), { mapping: { remote: '/srv/app', local: path.join(root, 'one') } });
      assert.equal(resolveMapping('/srv/app', '${workspaceFolder:one}/sub', folders, root).mapping?.local, path.join(root, 'one', 'sub'));
      assert.equal(resolveMapping('/srv/app', '${workspaceFolder:two}', folders, root).mapping?.local, path.join(root, 'two'));
      assert.equal(resolveMapping('/srv/app', '~/two', folders, root).mapping?.local, path.join(root, 'two'));
      assert.match(resolveMapping('/srv/app', '${workspaceFolder:three}', folders, root).problem ?? '', /no workspace folder named "three"/);
      assert.match(resolveMapping('/srv/app', '${workspaceFolder}', [], root).problem ?? '', /no folder is open/);
      assert.match(resolveMapping('/srv/app', 'one', folders, root).problem ?? '', /not an absolute path/);
      assert.match(resolveMapping('/srv/app', path.join(root, 'outside'), folders, root).problem ?? '', /is not in a workspace folder of this window/);
      assert.match(resolveMapping('/srv/app', path.join(root, 'one', 'missing'), folders, root).problem ?? '', /is not a folder on this machine/);
      fs.symlinkSync(path.join(root, 'outside'), path.join(root, 'one', 'link'));
      assert.match(resolveMapping('/srv/app', path.join(root, 'one', 'link'), folders, root).problem ?? '', /is not in a workspace folder/, 'a link out of the folder does not count');
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

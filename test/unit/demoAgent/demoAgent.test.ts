import * as acp from '@agentclientprotocol/sdk';
import * as assert from 'node:assert/strict';
import { demoScenario } from '../../../src/demoAgent/demoScenario';
import { choose, TestClient, type TestClientOptions } from './acpTestClient';

// The built-in Demo agent, served in-process and driven by the SDK's client side.

const cwd = '/work/project';
const readme = `${cwd}/README.md`;
const demoFile = `${cwd}/switchboard-demo.md`;
const noCapabilities: acp.ClientCapabilities = { fs: { readTextFile: false, writeTextFile: false }, terminal: false };

describe('demoAgent / the Demo agent', function () {
  this.timeout(10000);
  let client: TestClient | undefined;
  const open = (options: TestClientOptions = {}): TestClient => {
    client = TestClient.inProcess(demoScenario, {
      files: { [readme]: '# My project\n\nDoes things.\n' }, env: { SCRIPTED_AGENT_DELAY_SCALE: '0.02' }, ...options,
    });
    return client;
  };
  afterEach(async () => {
    await client?.close();
    client = undefined;
  });

  it('introduces itself: agent info, capabilities, no auth', async () => {
    const init = await open().initialize();
    assert.equal(init.protocolVersion, 1);
    assert.deepEqual(init.agentInfo, { name: 'switchboard-demo', title: 'Switchboard Demo Agent', version: '1.0.0' });
    assert.equal(init.agentCapabilities?.loadSession, true);
    assert.deepEqual(init.agentCapabilities?.sessionCapabilities, { list: {}, resume: {}, close: {}, delete: {}, fork: {}, title: {}, archive: {}, status: {} });
    assert.deepEqual(init.authMethods, []);
  });

  it('offers a model and a mode selector, slash commands and usage after session/new', async () => {
    const c = open();
    const { sessionId, configOptions } = await c.start(cwd);
    assert.match(sessionId, /^demo-1-[0-9a-f]+$/);
    assert.deepEqual(configOptions?.map((o) => [o.id, o.category]), [['model', 'model'], ['mode', 'mode']]);
    const model = configOptions?.[0];
    assert.ok(model?.type === 'select');
    const models = (model.options as acp.SessionConfigSelectGroup[]).flatMap((g) => g.options.map((o) => o.value));
    assert.deepEqual(models, ['swift', 'sage', 'owl']);
    await c.waitFor(() => c.updatesOf('usage_update').length === 1, 'usage');
    assert.deepEqual(c.updatesOf('available_commands_update')[0].availableCommands.map((x) => x.name), ['tour', 'plan', 'tools', 'help']);
  });

  it('streams "Switchboard demo agent" in its first chunk, thinks, reads the README and titles the session', async () => {
    const c = open();
    const { sessionId } = await c.start(cwd);
    assert.equal(await c.prompt(sessionId, 'hello'), 'end_turn');
    const chunks = c.updatesOf('agent_message_chunk').map((u) => (u.content.type === 'text' ? u.content.text : ''));
    assert.match(chunks.slice(0, 2).join(''), /Switchboard demo agent/);
    assert.ok(chunks.length > 10, 'the answer is streamed');
    assert.ok(c.text('agent_thought_chunk').length > 0);
    assert.deepEqual(c.requestsOf('fs/read_text_file'), [{ sessionId, path: readme, line: 1, limit: 10 }]);
    const read = c.updatesOf('tool_call_update').find((u) => u.toolCallId === 'peek-1');
    assert.equal(read?.status, 'completed');
    assert.match(JSON.stringify(read?.content), /My project/);
    assert.equal(c.updatesOf('session_info_update')[0].title, 'Hello', 'the chat is named after the first prompt');
    assert.match(c.text(), /\*hello\*/);
    assert.match(c.text(), /Answering as \*\*Swift \(demo\)\*\* in \*\*Ask\*\* mode\./);
    assert.equal(c.updatesOf('usage_update').at(-1)?.used, 3200);
  });

  it('answers in a folder without README.md with a note, never an error code (also /tour)', async () => {
    const c = open({ files: {} });
    const { sessionId } = await c.start(cwd);
    assert.equal(await c.prompt(sessionId, 'hello'), 'end_turn');
    await c.prompt(sessionId, '/tour');
    const reads = c.updatesOf('tool_call_update').filter((u) => u.toolCallId === 'peek-1' || u.toolCallId === 'tour-read-2');
    assert.deepEqual(reads.map((u) => u.status), ['completed', 'completed']);
    assert.match(JSON.stringify(reads), /There is no `README\.md` in this folder/);
    // the card then links no README.md: the file the call named does not exist
    assert.deepEqual(reads.map((u) => u.locations), [[], []]);
    assert.doesNotMatch(JSON.stringify(c.updates), /-32002|Failed:/);
  });

  it('does not read files when the client does not offer fs', async () => {
    const c = open({ capabilities: noCapabilities });
    const { sessionId } = await c.start(cwd);
    await c.prompt(sessionId, 'hello');
    assert.deepEqual(c.requests, []);
    assert.ok(c.updatesOf('tool_call_update').some((u) => u.toolCallId === 'peek-1' && u.status === 'completed'));
  });

  it('answers "help" with an overview and no tool calls', async () => {
    const c = open();
    const { sessionId } = await c.start(cwd);
    await c.prompt(sessionId, 'help');
    assert.match(c.text(), /^I'm the \*\*Switchboard demo agent\*\*/);
    assert.match(c.text(), /\| `\/tour` \|/);
    assert.equal(c.updatesOf('tool_call').length, 0);
  });

  it('/tour: plan, read, permission before the edit, write, terminal, search, title, usage', async () => {
    const c = open();
    const { sessionId } = await c.start(cwd);
    assert.equal(await c.prompt(sessionId, '/tour'), 'end_turn');
    assert.match(c.text().slice(0, 80), /Switchboard demo agent/);
    const permission = c.requestsOf('session/request_permission')[0] as acp.RequestPermissionRequest;
    assert.equal(permission.toolCall.toolCallId, 'tour-edit-1');
    const edit = c.updatesOf('tool_call').find((t) => t.toolCallId === 'tour-edit-1');
    const diff = edit?.content?.[0];
    assert.ok(diff?.type === 'diff' && diff.oldText === null && diff.path === demoFile);
    assert.match(c.files.get(demoFile) ?? '', /written by the \*\*Switchboard demo agent\*\*/);
    assert.equal(c.files.get(demoFile), diff.newText, 'the file written is exactly the diff the permission showed (its time too)');
    const methods = c.requests.map((r) => r.method);
    const askedAt = methods.indexOf('session/request_permission');
    assert.ok(askedAt >= 0 && askedAt < methods.indexOf('fs/write_text_file'), 'permission before the write');
    const terminal = c.requestsOf('terminal/create')[0] as acp.CreateTerminalRequest;
    assert.equal(terminal.command, process.execPath);
    assert.deepEqual(terminal.env, [{ name: 'ELECTRON_RUN_AS_NODE', value: '1' }]);
    assert.ok(methods.includes('terminal/release'));
    const plans = c.updatesOf('plan');
    assert.equal(plans.length, 6);
    assert.ok(plans.at(-1)?.entries.every((e) => e.status === 'completed'));
    assert.equal(c.updatesOf('session_info_update').at(-1)?.title, 'Switchboard tour');
    assert.ok(c.updatesOf('tool_call').some((t) => t.kind === 'search'));
    assert.ok(c.updatesOf('tool_call_update').some((u) => u.toolCallId === 'tour-search-1' && u.locations?.[0]?.path === demoFile));
    assert.equal(c.updatesOf('usage_update').at(-1)?.cost?.currency, 'USD');
  });

  it('/tour shows the old text of the demo file the second time', async () => {
    const c = open();
    const { sessionId } = await c.start(cwd);
    await c.prompt(sessionId, '/tour');
    const first = c.files.get(demoFile);
    await c.prompt(sessionId, '/tour');
    const diff = c.updatesOf('tool_call').find((t) => t.toolCallId === 'tour-edit-2')?.content?.[0];
    assert.ok(diff?.type === 'diff');
    assert.equal(diff.oldText, first);
  });

  it('/tour respects a rejected permission', async () => {
    const c = open({ permission: choose('reject') });
    const { sessionId } = await c.start(cwd);
    await c.prompt(sessionId, '/tour');
    assert.equal(c.requestsOf('fs/write_text_file').length, 0);
    assert.ok(c.updatesOf('tool_call_update').some((u) => u.toolCallId === 'tour-edit-1' && u.status === 'failed'));
    assert.match(c.text(), /left your files alone/);
  });

  it('/tour without client capabilities only shows the tool calls', async () => {
    const c = open({ capabilities: noCapabilities });
    const { sessionId } = await c.start(cwd);
    assert.equal(await c.prompt(sessionId, '/tour'), 'end_turn');
    assert.deepEqual(c.requests.map((r) => r.method), ['session/request_permission']);
    assert.ok(c.updatesOf('tool_call_update').some((u) => u.toolCallId === 'tour-run-1' && u.status === 'completed'));
  });

  it('edits without asking in Auto-edit mode', async () => {
    const c = open();
    const { sessionId } = await c.start(cwd);
    await c.agent.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: 'mode', value: 'auto' });
    await c.prompt(sessionId, '/tour');
    assert.equal(c.requestsOf('session/request_permission').length, 0);
    assert.equal(c.requestsOf('fs/write_text_file').length, 1);
    assert.match(c.text(), /Auto-edit/);
  });

  it('honours a cancel while the tour waits for permission', async () => {
    let sessionId = '';
    const c = open({
      permission: async () => {
        await c.cancel(sessionId);
        return { outcome: { outcome: 'cancelled' } };
      },
    });
    ({ sessionId } = await c.start(cwd));
    assert.equal(await c.prompt(sessionId, '/tour'), 'cancelled');
    assert.equal(c.requestsOf('fs/write_text_file').length, 0);
    assert.equal(c.requestsOf('terminal/create').length, 0);
    assert.match(c.text(), /Tour stopped/);
  });

  it('honours a cancel in the middle of a streamed answer', async () => {
    const c = open({ env: {} });
    const { sessionId } = await c.start(cwd);
    const turn = c.prompt(sessionId, 'tell me everything');
    await c.waitFor(() => c.updatesOf('agent_message_chunk').length >= 4, 'streaming');
    await c.cancel(sessionId);
    assert.equal(await turn, 'cancelled');
    assert.doesNotMatch(c.text(), /Answering as/);
    assert.match(c.text(), /\*Stopped\.\*$/);
  });

  it('/plan updates a plan live, with or without a goal', async () => {
    const c = open();
    const { sessionId } = await c.start(cwd);
    await c.prompt(sessionId, '/plan add dark mode');
    assert.match(c.text(), /approach: \*add dark mode\*/);
    assert.equal(c.updatesOf('plan').length, 5);
    assert.ok(c.updatesOf('tool_call').some((t) => t.kind === 'think'));
    await c.prompt(sessionId, '/plan');
    assert.match(c.text(), /Give me a goal/);
  });

  it('answers with the selected model', async () => {
    const c = open();
    const { sessionId } = await c.start(cwd);
    await c.agent.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: 'model', value: 'sage' });
    await c.prompt(sessionId, 'hi');
    assert.match(c.text(), /Answering as \*\*Sage \(demo\)\*\*/);
  });

  it('lists, loads, resumes, closes and deletes its sessions in memory', async () => {
    const c = open();
    const { sessionId } = await c.start(cwd);
    await c.prompt(sessionId, 'hello');
    const second = await c.agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
    const listed = await c.agent.request(acp.methods.agent.session.list, {});
    assert.deepEqual(listed.sessions.map((s) => s.sessionId), [second.sessionId, sessionId]);
    assert.equal(listed.sessions[1].title, 'Hello');
    c.updates.length = 0;
    await c.agent.request(acp.methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
    assert.equal(c.text('user_message_chunk'), 'hello');
    assert.match(c.text(), /Switchboard demo agent/);
    await c.agent.request(acp.methods.agent.session.close, { sessionId });
    await c.agent.request(acp.methods.agent.session.resume, { sessionId, cwd });
    assert.equal(await c.prompt(sessionId, 'again'), 'end_turn');
    await c.agent.request(acp.methods.agent.session.delete, { sessionId });
    const after = await c.agent.request(acp.methods.agent.session.list, {});
    assert.deepEqual(after.sessions.map((s) => s.sessionId), [second.sessionId]);
  });
});

// @ts-check
// First-run trouble: an agent whose command is not installed. Picking it in New Session shows a clear error
// naming the command and the PATH that was searched, with a way to fix it (the settings) and the agent log.
export const name = 'agent-not-found';
export const sharedWindow = true;
export const settings = {
  'switchboard.agents': [{ id: 'missing', name: 'Missing Agent', command: 'switchboard-no-such-agent-cli', args: ['--acp'] }],
};

/** @param {import('../harness/runUi.mjs').UiTest} t */
export async function run(t) {
  const { page } = t;
  await t.runCommand(t.commandTitle('switchboard.newSession'));
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Missing Agent' });
  await row.first().waitFor({ timeout: 15_000 });
  await row.first().click();
  await t.notification(/Could not start Missing Agent: .*switchboard-no-such-agent-cli.*(PATH|Searched)/, { timeoutMs: 30_000 });
  t.expect(true, 'the error names the command and the PATH that was searched');
  await t.screenshot('agent-not-found');
}

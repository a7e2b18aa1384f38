/**
 * Benchmark: the editor's MCP tools (docs/editor-tools.md) in the real extension host, measured by the agent: a
 * scripted agent process calls `get_diagnostics` on a file with an unsaved error 100 times with the MCP SDK's
 * client and reports the median from its call to its answer, over HTTP and over the stdio bridge; the baseline is
 * the same agent's bare MCP round trip (`tools/list`) in the same run. Also: session start with the editor's
 * server against without it (median of 10, alternating), and that the MCP SDK's bundle is not loaded until the
 * first request.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { agentText, api, setSetting, until, useScriptedAgent, workspaceRoot } from '../../integration/helpers';

const diagnosticsTargetMs = 50;
const startTargetMs = 20;

const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
};

/** True when the editor tools' bundle (dist/editorTools.js) has been loaded into the extension host. */
const toolsLoaded = () => Object.keys(require.cache).some((k) => /[\\/]dist[\\/]editorTools\.js$/.test(k));

/** The `[timing] median=…` the agent reported for its last prompt. */
async function timing(sb: Awaited<ReturnType<typeof api>>, id: string, prompt: string): Promise<{ median: number; p95: number; text: string }> {
  const before = agentText(sb, id).length;
  await sb.prompt(id, prompt);
  const text = agentText(sb, id).slice(before);
  const m = /\[timing\] median=([\d.]+) p95=([\d.]+) n=(\d+)/.exec(text);
  assert.ok(m && text.includes('[call] ok:'), `the agent's timing for ${prompt}: ${text}`);
  return { median: Number(m[1]), p95: Number(m[2]), text };
}

/** Runs the benchmark; returns the lines to print. */
export async function benchEditorTools(): Promise<string[]> {
  const sb = await api();
  const dir = path.join(workspaceRoot(), 'bench-editor-tools');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'main.ts');
  fs.writeFileSync(file, 'export const count: number = 1;\n');
  const doc = await vscode.workspace.openTextDocument(file);
  const editor = await vscode.window.showTextDocument(doc);
  await editor.edit((e) => e.insert(new vscode.Position(1, 0), "const wrong: number = 'not a number';\n"));
  await until(() => vscode.languages.getDiagnostics(doc.uri).some((d) => d.severity === vscode.DiagnosticSeverity.Error), 'the unsaved error', 60000);

  // session start: with the editor's server and without it, alternating (the agent is already running)
  await sb.newSession(await useScriptedAgent('editorTools')); // starts the agent
  const loadedBeforeUse = toolsLoaded();
  const withTools: number[] = [];
  const without: number[] = [];
  for (let i = 0; i < 10; i++) {
    for (const on of [true, false]) {
      await setSetting('editorTools.enabled', on ? undefined : false);
      const t0 = performance.now();
      await sb.newSession(await useScriptedAgent('editorTools'));
      (on ? withTools : without).push(performance.now() - t0);
    }
  }
  await setSetting('editorTools.enabled', undefined);

  const rel = path.relative(workspaceRoot(), file).split(path.sep).join('/');
  const rows: string[] = [];
  const figures: number[] = [];
  for (const [scenario, transport] of [['editorTools', 'HTTP'], ['editorToolsStdio', 'stdio bridge']] as const) {
    const id = await sb.newSession(await useScriptedAgent(scenario));
    const list = await timing(sb, id, '/bench_list');
    const diag = await timing(sb, id, `/bench_diagnostics ${rel}`);
    assert.match(diag.text, /1 error/, 'the unsaved error is in the answer');
    figures.push(diag.median);
    rows.push(`  ${`get_diagnostics, one file, ${transport}`.padEnd(44)} ${diag.median.toFixed(2).padStart(7)} ms median, p95 ${diag.p95.toFixed(2)} ms (100 calls); bare round trip (tools/list) ${list.median.toFixed(2)} ms: ${(diag.median / list.median).toFixed(2)}x`);
  }
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  fs.rmSync(dir, { recursive: true, force: true });
  await sb.stopAll();

  const delta = median(withTools) - median(without);
  const worst = Math.max(...figures);
  return [
    `Benchmark: the editor's MCP tools, measured by a scripted agent process with the MCP SDK's client (VS Code ${vscode.version}, Node ${process.version})`,
    ...rows,
    `  ${'session/new with the editor\'s server'.padEnd(44)} ${median(withTools).toFixed(1).padStart(7)} ms median; without it ${median(without).toFixed(1)} ms (10 each): ${delta >= 0 ? '+' : '−'}${Math.abs(delta).toFixed(1)} ms`,
    `  the MCP SDK's bundle loaded before the first request: ${loadedBeforeUse ? 'yes' : 'no'}; after it: ${toolsLoaded() ? 'yes' : 'no'}`,
    `  target get_diagnostics ≤ ${diagnosticsTargetMs} ms (worst transport): ${worst <= diagnosticsTargetMs ? 'met' : 'MISSED'}`,
    `  target session start ≤ +${startTargetMs} ms: ${delta <= startTargetMs ? 'met' : 'MISSED'}`,
    `  target nothing more loaded at activation or session start: ${loadedBeforeUse ? 'MISSED' : 'met'}`,
  ];
}

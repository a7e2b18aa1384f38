/**
 * Benchmark of the permission rules (docs/approvals.md, "Rules"), in plain node: the decision for one request with
 * 60 rules of every kind, over 1,000 requests shaped like real agents' (shell lines with chains, substitutions and
 * `bash -lc` scripts, argv commands, edits and reads with paths, MCP tools, fetches). The baseline, same run, is
 * the shell parse of the same lines alone (the part of the decision that is tree-sitter's).
 *
 * | figure | target | baseline, same run |
 * |---|---|---|
 * | decision for one request (median, p95, max) | ≤ 1 ms (p95) | parsing its command line alone |
 * | the turn audit of 20 changed files, 200 answers, 60 rules | ≤ 150 ms over the checkpoint (checkpointBench.ts) | — |
 */
import * as path from 'node:path';
import { GrantLedger } from '../../src/host/permissions/grantLedger';
import { compileRules, ruleOnRequest, ruleOnWrite } from '../../src/host/permissions/rules/requestRules';
import type { RuledCall } from '../../src/host/permissions/rules/requestRules';
import { RuleSet } from '../../src/host/permissions/rules/ruleSet';
import type { Rule } from '../../src/host/permissions/rules/ruleSet';
import { bashParser, nodeModulesWasm } from '../../src/host/permissions/rules/shellParser';
import { TurnAudit } from '../../src/host/permissions/turnAudit';

const root = path.resolve('/work/project');
const repoRoot = path.resolve(__dirname, '../../..');

function rules(): Rule[] {
  const out: Rule[] = [];
  const commands = ['npm test', 'npm test *', 'npm run *', 'git status', 'git log *', 'git diff *', 'ls *', 'cat *', 'rg *', 'grep *', 'node *', 'npx tsc *', 'make *', 'cargo test *', 'pytest *', 'go test *'];
  for (const c of commands) out.push({ action: 'allow', kind: 'command', pattern: c, scope: 'user' });
  for (const c of ['rm -rf *', 'git push *', 'curl *', 'sudo *', 'git reset --hard *']) out.push({ action: 'deny', kind: 'command', pattern: c, scope: 'workspace' });
  for (const c of ['git commit *', 'npm publish *']) out.push({ action: 'ask', kind: 'command', pattern: c, scope: 'user' });
  for (let i = 0; i < 12; i++) out.push({ action: 'allow', kind: 'write', pattern: `pkg${i}/src/**`, scope: 'workspace' });
  for (const g of ['**/.env*', '**/*.pem', '.git/**', '**/id_rsa*']) out.push({ action: 'deny', kind: 'write', pattern: g, scope: 'user' });
  for (let i = 0; i < 10; i++) out.push({ action: 'allow', kind: 'read', pattern: `pkg${i}/**`, scope: 'user' });
  for (const t of ['github/get_*', 'github/list_*', 'linear/*', 'sentry/get_*']) out.push({ action: 'allow', kind: 'mcpTool', pattern: t, scope: 'user' });
  for (const h of ['*.github.com', 'docs.python.org', '*.npmjs.org', 'developer.mozilla.org', '*.rust-lang.org']) out.push({ action: 'allow', kind: 'host', pattern: h, scope: 'user' });
  return out;
}

function requests(): RuledCall[] {
  const lines = [
    'npm test', 'npm test -- --grep "rules"', 'git status && git diff --stat', 'ls -la src | head -20', 'cat package.json | jq .scripts',
    "bash -lc 'cd pkg1 && npm run build && npm test'", 'rg -n "TODO" src --glob "*.ts" | wc -l', 'git log --oneline -20 && git diff HEAD~1 -- src/a.ts',
    'node -e "console.log(process.version)"', 'FOO=1 npm run lint -- --fix > out/lint.txt 2>&1', 'find . -name "*.ts" -exec grep -l foo {} +',
    'make -j4 && ./bin/tool --check $(git rev-parse HEAD)', 'rm -rf node_modules && npm ci', 'for f in src/*.ts; do npx tsc --noEmit "$f"; done',
    'cargo test --workspace 2>&1 | tail -50', 'pytest -q tests/test_api.py::test_x', 'git push origin HEAD', 'sudo apt-get install -y jq',
  ];
  const out: RuledCall[] = [];
  for (let i = 0; i < 1000; i++) {
    const n = i % 5;
    if (n === 0 || n === 1) out.push({ rawInput: { command: lines[i % lines.length], cwd: root }, locations: [], content: [], toolKind: 'execute' });
    else if (n === 2) out.push({ rawInput: { file_path: path.join(root, `pkg${i % 15}/src/f${i}.ts`), old_string: 'a', new_string: 'b' }, locations: [{ path: path.join(root, `pkg${i % 15}/src/f${i}.ts`) }], content: [], toolKind: 'edit' });
    else if (n === 3) out.push({ rawInput: { path: path.join(root, `pkg${i % 12}/README.md`) }, locations: [], content: [], toolKind: 'read' });
    else out.push(i % 2 ? { rawInput: { server: 'github', tool: 'get_issue', arguments: { n: i } }, locations: [], content: [] } : { rawInput: { url: `https://api.github.com/repos/x/y/issues/${i}` }, locations: [], content: [], toolKind: 'fetch' });
  }
  return out;
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const ms = (n: number) => `${n.toFixed(3)} ms`;

/** Runs the benchmark; lines to print and whether every target was met. */
export async function runRuleBenchmark(): Promise<{ lines: string[]; ok: boolean }> {
  const lines: string[] = [];
  const l0 = performance.now();
  const parser = await bashParser(nodeModulesWasm(repoRoot));
  const loadMs = performance.now() - l0;
  const set = new RuleSet(rules(), [root], true);
  const c0 = performance.now();
  const compiled = compileRules(set, parser);
  const compileMs = performance.now() - c0;
  const reqs = requests();
  for (const r of reqs.slice(0, 200)) ruleOnRequest(compiled, r, root); // warm up
  const times: number[] = [];
  const parses: number[] = [];
  const outcome = { allow: 0, ask: 0, deny: 0, none: 0 };
  for (const r of reqs) {
    const s = performance.now();
    const v = ruleOnRequest(compiled, r, root).verdict?.action ?? 'none';
    times.push(performance.now() - s);
    outcome[v]++;
    const command = (r.rawInput as { command?: unknown }).command;
    if (typeof command === 'string') {
      const p = performance.now();
      parser.analyze(command);
      parses.push(performance.now() - p);
    }
  }
  const p95 = pct(times, 0.95);
  const ok1 = p95 <= 1;
  lines.push(`Benchmark: permission rules, ${set.active.length} rules, ${reqs.length} requests (parser load ${Math.round(loadMs)} ms, compile ${ms(compileMs)}; allow ${outcome.allow}, ask ${outcome.ask}, deny ${outcome.deny}, none ${outcome.none})`);
  lines.push(`  ${'decision for one request (median / p95 / max)'.padEnd(52)} ${`${ms(pct(times, 0.5))} / ${ms(p95)} / ${ms(Math.max(...times))}`}  (target p95 ≤ 1 ms) ${ok1 ? 'met' : 'MISSED'}   baseline: parsing its command line alone, median ${ms(pct(parses, 0.5))}, p95 ${ms(pct(parses, 0.95))}`);

  // the audit of a turn that touched 20 files, with 200 answers in the ledger and the rules above
  const grants = new GrantLedger();
  for (let i = 0; i < 200; i++) grants.record({ commands: [], paths: [path.join(root, `pkg${i % 20}/src/a${i}.ts`)], writes: i % 3 !== 0 }, i % 7 !== 0, 'turn');
  const changed = Array.from({ length: 20 }, (_, i) => ({ path: path.join(root, `pkg${i}/src/f${i}.ts`), rel: `pkg${i}/src/f${i}.ts`, change: 'modified' as const }));
  const audits: number[] = [];
  for (let round = 0; round < 20; round++) {
    const audit = new TurnAudit();
    const s = performance.now();
    await audit.endTurn(changed, 'cp', grants, (p) => Promise.resolve(ruleOnWrite(compiled, p, p).verdict?.action === 'allow'));
    audits.push(performance.now() - s);
  }
  const auditMs = pct(audits, 0.5);
  const ok2 = auditMs <= 150;
  lines.push(`  ${'turn audit: 20 changed files, 200 answers (median)'.padEnd(52)} ${ms(auditMs).padStart(12)}  (target ≤ 150 ms over the checkpoint) ${ok2 ? 'met' : 'MISSED'}   baseline: the checkpoint of 20 changed files in a 10,000-file tree (checkpoints benchmark above)`);
  return { lines, ok: ok1 && ok2 };
}

if (require.main === module) {
  void runRuleBenchmark().then((r) => {
    for (const line of r.lines) console.log(line);
    if (!r.ok) process.exitCode = 1;
  });
}

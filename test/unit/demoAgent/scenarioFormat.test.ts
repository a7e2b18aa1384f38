import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { demoScenario } from '../../../src/demoAgent/demoScenario';
import { parseScenario, parseScenarioText, ScenarioError } from '../../../src/demoAgent/scenario';
import { expandTemplates } from '../../../src/demoAgent/templates';
import { textChunks } from '../../../src/demoAgent/textChunks';
import { scenarioDir, scriptedAgentJs } from './acpTestClient';

describe('demoAgent / scenario format', () => {
  it('accepts every scenario file under test/fixtures/agents/scenarios', () => {
    const files = fs.readdirSync(scenarioDir).filter((f) => f.endsWith('.json'));
    assert.ok(files.length >= 25, `only ${files.length} scenario files`);
    const names = new Set<string>();
    for (const file of files) {
      const scenario = parseScenarioText(fs.readFileSync(path.join(scenarioDir, file), 'utf8'), file);
      assert.ok(scenario.description, `${file} has no description`);
      assert.ok(!names.has(scenario.name), `duplicate scenario name ${scenario.name}`);
      names.add(scenario.name);
    }
  });

  it('accepts the built-in demo scenario', () => {
    assert.equal(demoScenario.name, 'switchboard-demo');
    assert.ok(demoScenario.turns.length >= 4);
  });

  it('applies defaults (name, turns)', () => {
    const scenario = parseScenario({});
    assert.equal(scenario.name, 'scripted-agent');
    assert.deepEqual(scenario.turns, []);
  });

  it('rejects an unknown step kind with the path of the problem', () => {
    assert.throws(() => parseScenario({ turns: [{ steps: [{ step: 'teleport' }] }] }, 'bad.json'), (error: unknown) => {
      assert.ok(ScenarioError.is(error));
      assert.match(error.message, /Invalid scenario bad\.json/);
      assert.match(error.message, /turns\[0\]\.steps\[0\]/);
      return true;
    });
  });

  it('rejects a misspelt field (objects are strict)', () => {
    assert.throws(() => parseScenario({ turns: [{ steps: [{ step: 'text', text: 'x', chunk: 3 }] }] }), /chunk/);
  });

  it('rejects a bad regex and a bad stop reason', () => {
    assert.throws(() => parseScenario({ turns: [{ match: '(', steps: [] }] }), /regular expression/);
    assert.throws(() => parseScenario({ turns: [{ steps: [{ step: 'stop', stopReason: 'done' }] }] }), /stopReason/);
  });

  it('rejects text that is not JSON', () => {
    assert.throws(() => parseScenarioText('{ nope', 'x.json'), /not valid JSON/);
  });

  it('fails fast as a process: message on stderr, exit code 2', function () {
    if (!fs.existsSync(scriptedAgentJs)) {
      this.skip();
    }
    const file = path.join(os.tmpdir(), `bad-scenario-${process.pid}.json`);
    fs.writeFileSync(file, JSON.stringify({ turns: [{ steps: [{ step: 'txet' }] }] }));
    try {
      const result = spawnSync(process.execPath, [scriptedAgentJs, file], { encoding: 'utf8', input: '' });
      assert.equal(result.status, 2);
      assert.match(result.stderr, /Invalid scenario/);
      assert.equal(result.stdout, '');
      const missing = spawnSync(process.execPath, [scriptedAgentJs], { encoding: 'utf8', input: '', env: { ...process.env, SCENARIO: '' } });
      assert.equal(missing.status, 2);
      assert.match(missing.stderr, /usage/);
    } finally {
      fs.rmSync(file, { force: true });
    }
  });

  it('splits text into exactly N chunks at word boundaries', () => {
    const text = 'one two three four five six seven';
    const chunks = textChunks(text, 3);
    assert.equal(chunks.length, 3);
    assert.equal(chunks.join(''), text);
    assert.ok(chunks.every((c) => c.length > 0));
    assert.deepEqual(textChunks('abc', 5), ['a', 'b', 'c']);
    assert.deepEqual(textChunks('x', 1), ['x']);
    assert.equal(textChunks('😀😀', 2).join(''), '😀😀');
  });

  it('expands templates deeply and leaves unknown ones', () => {
    const lookup = (name: string): string | undefined => ({ cwd: '/w', n: '1' })[name];
    assert.deepEqual(
      expandTemplates({ a: '{{cwd}}/x', b: ['{{ n }}', 3, null], c: '{{unknown}}' }, lookup),
      { a: '/w/x', b: ['1', 3, null], c: '{{unknown}}' },
    );
  });
});

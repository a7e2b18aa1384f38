import * as assert from 'node:assert/strict';
import {
  CmdQuotingError, escapeBatchArgument, escapeCmdMetaChars, quoteWindowsArgument, toCmdCommandLine,
} from '../../../src/agents/windowsCommandLine';

/** One cmd.exe parsing pass as far as quoting goes: `^x` → `x` outside quotes; quotes toggle. */
function cmdCaretPass(line: string): string {
  let out = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '"') quoted = !quoted;
    if (c === '^' && !quoted) {
      i++;
      out += line[i] ?? '';
      continue;
    }
    out += c;
  }
  return out;
}

/** CommandLineToArgvW / MSVCRT (2008+) argument splitting. */
function parseArgv(line: string): string[] {
  const args: string[] = [];
  let current = '';
  let inArg = false;
  let quoted = false;
  for (let i = 0; i < line.length;) {
    const c = line[i];
    if (c === '\\') {
      let n = 0;
      while (line[i] === '\\') { n++; i++; }
      if (line[i] === '"') {
        current += '\\'.repeat(Math.floor(n / 2));
        if (n % 2 === 1) { current += '"'; i++; }
      } else {
        current += '\\'.repeat(n);
      }
      inArg = true;
    } else if (c === '"') {
      inArg = true;
      if (quoted && line[i + 1] === '"') { current += '"'; i += 2; continue; }
      quoted = !quoted;
      i++;
    } else if ((c === ' ' || c === '\t') && !quoted) {
      if (inArg) args.push(current);
      current = '';
      inArg = false;
      i++;
    } else {
      current += c;
      inArg = true;
      i++;
    }
  }
  if (inArg) args.push(current);
  return args;
}

const nasty = [
  'plain', 'with space', '', 'a"b', 'a\\"b', 'C:\\dir\\', 'C:\\dir with space\\', '&|<>^()%!', '"quoted"', 'a^b',
  'x=y;z,w', 'tab\there', '%PATH%', '--flag="value with spaces"', 'ünïcödé ✓', '\\\\server\\share', '^"', '" & calc & "',
];

describe('windowsCommandLine', () => {
  it('quotes arguments for the C runtime', () => {
    assert.equal(quoteWindowsArgument('abc'), '"abc"');
    assert.equal(quoteWindowsArgument(''), '""');
    assert.equal(quoteWindowsArgument('a b'), '"a b"');
    assert.equal(quoteWindowsArgument('a"b'), '"a\\"b"');
    assert.equal(quoteWindowsArgument('a\\b'), '"a\\b"');
    assert.equal(quoteWindowsArgument('a\\"b'), '"a\\\\\\"b"');
    assert.equal(quoteWindowsArgument('C:\\dir\\'), '"C:\\dir\\\\"');
    for (const arg of nasty) assert.deepEqual(parseArgv(quoteWindowsArgument(arg)), [arg], arg);
  });

  it('escapes cmd.exe metacharacters with carets', () => {
    assert.equal(escapeCmdMetaChars('a&b|c<d>e^f(g)h%i!j"k'), 'a^&b^|c^<d^>e^^f^(g^)h^%i^!j^"k');
    assert.equal(escapeCmdMetaChars('safe-text_1.2/x:y'), 'safe-text_1.2/x:y');
  });

  it('double-escapes batch arguments, since an npm shim re-parses them through %*', () => {
    assert.equal(escapeBatchArgument('a&b'), '^^^"a^^^&b^^^"');
    assert.equal(escapeBatchArgument('%PATH%'), '^^^"^^^%PATH^^^%^^^"');
    assert.equal(escapeBatchArgument(''), '^^^"^^^"');
  });

  it('round-trips every nasty argument through two cmd.exe passes and the C runtime', () => {
    const line = nasty.map(escapeBatchArgument).join(' ');
    assert.deepEqual(parseArgv(cmdCaretPass(cmdCaretPass(line))), nasty);
  });

  it('builds the cmd.exe invocation for a shim', () => {
    const shim = 'C:\\Program Files\\nodejs\\npx.cmd';
    const line = toCmdCommandLine(shim, ['-y', '@zed-industries/claude-code-acp'], 'C:\\WINDOWS\\system32\\cmd.exe');
    assert.equal(line.file, 'C:\\WINDOWS\\system32\\cmd.exe');
    assert.equal(line.windowsVerbatimArguments, true);
    assert.deepEqual(line.args, ['/d', '/s', '/v:off', '/c', `""${shim}" ^^^"-y^^^" ^^^"@zed-industries/claude-code-acp^^^""`]);
    // /s strips exactly the outer quotes; the first pass keeps the quoted program path intact
    const inner = line.args[4].slice(1, -1);
    assert.equal(parseArgv(cmdCaretPass(inner))[0], shim);
  });

  it('refuses what cmd.exe cannot carry', () => {
    assert.throws(() => toCmdCommandLine('C:\\a.cmd', ['two\nlines']), (ex) => CmdQuotingError.is(ex, 'lineBreak'));
    assert.throws(() => toCmdCommandLine('C:\\a.cmd', ['nul\0']), (ex) => CmdQuotingError.is(ex, 'nulCharacter'));
    assert.throws(() => toCmdCommandLine('C:\\100%\\a.cmd', []), (ex) => CmdQuotingError.is(ex, 'unsafePath'));
  });
});

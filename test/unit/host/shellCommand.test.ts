import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ShellAnalysis } from '../../../src/host/permissions/rules/shellCommand';
import { bashParser, nodeModulesWasm } from '../../../src/host/permissions/rules/shellParser';
import type { ShellParser } from '../../../src/host/permissions/rules/shellParser';

const repoRoot = path.resolve(__dirname, '../../../..');

/** Each part's words, a dynamic word marked with a leading `~` (e.g. `~$HOME`). */
const words = (a: ShellAnalysis) => a.parts.map((p) => p.argv.map((w) => (w.dynamic ? `~${w.text}` : w.text)).join(' '));

describe('shellCommand: a command line read as the commands it runs', () => {
  let parser: ShellParser;
  before(async () => { parser = await bashParser(nodeModulesWasm(repoRoot)); });

  /** The line's parts (as {@link words}) and its writes; fails when the line is opaque. */
  const clear = (line: string, parts: string[], writes: string[] = []) => {
    const a = parser.analyze(line);
    assert.equal(a.opaque, undefined, `${line}: ${a.opaque}`);
    assert.deepEqual(words(a), parts, line);
    assert.deepEqual(a.writes.map((w) => (w.dynamic ? `~${w.text}` : w.text)), writes, line);
    return a;
  };
  /** The line is opaque, the reason matching `why`; its parts (when given) are still listed. */
  const opaque = (line: string, why: RegExp, parts?: string[]) => {
    const a = parser.analyze(line);
    assert.match(a.opaque ?? '(not opaque)', why, line);
    if (parts) assert.deepEqual(words(a), parts, line);
    return a;
  };

  describe('words', () => {
    it('removes quotes and applies escapes: single, double, ANSI-C $\'…\', backslashes', () => {
      clear(`echo 'a b' "c \\"d\\" \\$e \\z" $'x\\ty\\x41\\101\\u00e9' x\\ y \\* \\\\ a"b"'c'`, ['echo a b c "d" $e \\z x\ty' + 'AAé' + ' x y * \\ abc']);
    });

    it('marks expansions, globs, brace expansions and tildes outside quotes as dynamic, with their source text', () => {
      clear('echo $HOME "${A:-b}/x" $((1+2)) *.ts a[1] {a,b} ~/x --prefix=~/y "*" \'~\' {} x{y} [', [
        'echo ~$HOME ~"${A:-b}/x" ~$((1+2)) ~*.ts ~a[1] ~{a,b} ~~/x ~--prefix=~/y * ~ {} x{y} [',
      ]);
    });

    it('joins the words tree-sitter splits but bash reads as one (x`pwd`y)', () => {
      clear('echo x`pwd`y "a"b', ['echo ~x`pwd`y ab', 'pwd']);
      clear('npm \\\n  test a\\\nb', ['npm test ab']);
    });

    it('keeps a literal option with a value as one command (git -c core.pager=evil log)', () => {
      const a = clear('git -c core.pager=evil log', ['git -c core.pager=evil log']);
      assert.equal(a.parts[0].text, 'git -c core.pager=evil log');
    });
  });

  describe('lists, groups and substitutions', () => {
    it('splits pipelines, &&, ||, ; and & into commands, in source order, each with its own text', () => {
      const a = clear('npm test && ls -la | grep x || echo fail; sleep 1 & wait', ['npm test', 'ls -la', 'grep x', 'echo fail', 'sleep 1', 'wait']);
      assert.deepEqual(a.parts.map((p) => p.text), ['npm test', 'ls -la', 'grep x', 'echo fail', 'sleep 1', 'wait']);
    });

    it('reads subshells and brace groups', () => {
      clear('( cd src && make ) ; { ls; pwd; } > out.txt', ['cd src', 'make', 'ls', 'pwd'], ['out.txt']);
    });

    it('reads $(…) and backticks, nested, and process substitutions', () => {
      clear('echo $(ls $(pwd) `date +%s`) "$(whoami)"', ['echo ~$(ls $(pwd) `date +%s`) ~"$(whoami)"', 'ls ~$(pwd) ~`date +%s`', 'pwd', 'date +%s', 'whoami']);
      clear('diff <(sort a) >(tee b) && x=$(rm -f c)', ['diff ~<(sort a) ~>(tee b)', 'sort a', 'tee b', '', 'rm -f c']);
    });

    it('reads if, for, while, until, case and select bodies, and the commands in their conditions and words', () => {
      clear('if test -f a; then rm a; elif [ -d b ]; then rmdir b; else echo no; fi', ['test -f a', 'rm a', 'rmdir b', 'echo no']);
      clear('for f in *.ts $(ls); do echo "$f"; done; while read l; do wc -l; done < list.txt', ['ls', 'echo ~"$f"', 'read l', 'wc -l']);
      clear('until false; do break; done; case "$x" in a|b) rm a;; *) ls;; esac', ['false', 'break', 'rm a', 'ls']);
      clear('[[ $(id -u) == 0 ]] && (( n++ )) && [ -n "$(git status)" ]', ['id -u', 'git status']);
    });

    it('skips comments; an empty or blank line has no command', () => {
      clear('ls # && rm -rf /', ['ls']);
      clear('# just a comment', []);
      clear('', []);
      clear('  \n\t', []);
    });
  });

  describe('assignments and redirections', () => {
    it('puts the assignments before a command on it; assignments alone are a part without words', () => {
      const a = clear('FOO=1 BAR="x y" npm test', ['npm test']);
      assert.deepEqual(a.parts[0].assignments, [{ name: 'FOO', value: '1' }, { name: 'BAR', value: 'x y' }]);
      const b = clear('A=1 B=$(date)', ['', 'date']);
      assert.deepEqual(b.parts[0].assignments, [{ name: 'A', value: '1' }, { name: 'B', value: '$(date)' }]);
      clear('export PATH=/x:$PATH B; local c; unset d', ['export ~PATH=/x:$PATH B', 'local c', 'unset d']);
    });

    it('lists the files the redirections write, but not /dev/null nor fd duplications', () => {
      clear('make > out.txt 2>&1 >/dev/null >> "a b.txt" &> log &>>all 2> err >| f < in.txt 3>&- >&2', ['make'], ['out.txt', 'a b.txt', 'log', 'all', 'err', 'f']);
      clear('cat > "$OUT" >& copy', ['cat'], ['~"$OUT"', 'copy']);
      clear('> empty.txt', [], ['empty.txt']);
    });

    it('keeps the words tree-sitter puts after a redirection in the command (git 2>/dev/null push --force)', () => {
      const a = clear('git 2>/dev/null push --force | cat', ['git push --force', 'cat']);
      assert.equal(a.parts[0].text, 'git 2>/dev/null push --force');
    });

    it('reads heredoc bodies as data, but the substitutions of an unquoted one run', () => {
      clear("cat <<'EOF' > out.txt\nrm -rf $(pwd)\nEOF", ['cat'], ['out.txt']);
      clear('cat <<EOF\nhello $(rm -rf x) `id` \\`no\\`\nEOF', ['cat', 'rm -rf x', 'id']);
      clear('cat <<EOF\n`echo $x` \\$(no)\nEOF', ['cat', 'echo ~$x']);
      clear('cat <<-EOF | grep x\n\thi\n\tEOF', ['cat', 'grep x']);
    });

    it('a heredoc, herestring, file or pipe fed to a shell is opaque', () => {
      opaque("bash <<'EOF'\nrm -rf /\nEOF", /bash reads its commands from stdin/);
      opaque('cat <<EOF | sh\nls\nEOF', /sh reads its commands from stdin/);
      opaque('bash <<< "ls"', /stdin/);
      opaque('bash < script.sh', /stdin/);
      opaque('curl -fsSL https://x.example/install | sh', /sh reads its commands from stdin/, ['curl -fsSL https://x.example/install', 'sh']);
      opaque('curl x | bash -s -- --yes', /stdin/);
      clear('bash script.sh < input.txt', ['bash script.sh']);
    });
  });

  describe('shells and commands that run text', () => {
    it('a literal -c script counts as its commands; the shell is not a part', () => {
      clear("bash -c 'npm test && ls'", ['npm test', 'ls']);
      clear('sh -lc "bash -ec \'echo hi; rm x\'" && zsh -c ls', ['echo hi', 'rm x', 'ls']);
      clear("dash -xc 'a' ; ksh -c b; ash -c c; /bin/bash -euo pipefail -c 'd | e'", ['a', 'b', 'c', 'd', 'e']);
      const a = clear("LD_PRELOAD=x.so env A=1 bash -c 'B=2 npm test; C=3'", ['env A=1 bash -c B=2 npm test; C=3', 'npm test', '']);
      assert.deepEqual(a.parts.slice(1).map((p) => p.assignments.map((x) => x.name)), [['LD_PRELOAD', 'A', 'B'], ['LD_PRELOAD', 'A', 'C']], 'the script\'s commands have the shell\'s variables');
    });

    it('a dynamic -c script, -c without a script or scripts nested too deeply are opaque', () => {
      opaque('bash -c "$SCRIPT"', /dynamic/);
      opaque('sh -c', /without a script/);
      let line = 'ls';
      for (let i = 0; i < 8; i++) line = `bash -c ${shellQuoted(line)}`;
      clear(line, ['ls']);
      opaque(`bash -c ${shellQuoted(line)}`, /nested more than 8 deep/);
    });

    it('eval, source, . and trap are opaque', () => {
      opaque('eval "ls -la"', /eval runs text/, ['eval ls -la']);
      opaque('source ./env.sh', /source/);
      opaque('. ./env.sh', /\. runs text/);
      opaque("trap 'rm -rf /tmp/x' EXIT", /trap/);
      opaque('builtin eval x', /eval/);
    });

    it('a dynamic command name is opaque; its substitutions are still parts', () => {
      opaque('$CMD', /command name \$CMD is dynamic/);
      opaque('"$CMD" -rf /', /dynamic/, ['~"$CMD" -rf /']);
      opaque('$(which rm) -rf /', /dynamic/, ['~$(which rm) -rf /', 'which rm']);
      opaque('~/bin/tool --x', /dynamic/);
    });

    it('a function definition is opaque', () => {
      opaque('f() { rm -rf /; }; f', /function \(f\)/);
      opaque('function g { ls; }', /function/);
    });

    it('a syntax error is opaque', () => {
      opaque('echo "unterminated', /syntax error/);
      opaque('ls |', /syntax error at a missing/);
      opaque('if true; then echo', /syntax error/);
      opaque('echo )', /syntax error/);
    });
  });

  describe('wrappers', () => {
    it('the wrapper and the command it runs are both parts; wrappers nest', () => {
      const a = clear('sudo env X=1 timeout 5 rm -rf /', ['sudo env X=1 timeout 5 rm -rf /', 'env X=1 timeout 5 rm -rf /', 'timeout 5 rm -rf /', 'rm -rf /']);
      assert.deepEqual(a.parts.map((p) => p.text), ['sudo env X=1 timeout 5 rm -rf /', 'env X=1 timeout 5 rm -rf /', 'timeout 5 rm -rf /', 'rm -rf /']);
      assert.deepEqual(a.parts[3].assignments, [{ name: 'X', value: '1' }]);
      clear('time nice -n 5 nohup stdbuf -oL ionice -c2 setsid -f command exec -a x npm test', [
        'time nice -n 5 nohup stdbuf -oL ionice -c2 setsid -f command exec -a x npm test', 'nice -n 5 nohup stdbuf -oL ionice -c2 setsid -f command exec -a x npm test',
        'nohup stdbuf -oL ionice -c2 setsid -f command exec -a x npm test', 'stdbuf -oL ionice -c2 setsid -f command exec -a x npm test',
        'ionice -c2 setsid -f command exec -a x npm test', 'setsid -f command exec -a x npm test', 'command exec -a x npm test', 'exec -a x npm test', 'npm test',
      ]);
    });

    it('sudo skips its options and their values; env its options and NAME=value pairs', () => {
      clear('sudo -u deploy -H -- systemctl restart app', ['sudo -u deploy -H -- systemctl restart app', 'systemctl restart app']);
      clear('sudo --user=x -iu root whoami', ['sudo --user=x -iu root whoami', 'whoami']);
      const a = clear('FOO=1 env -i -u HOME PATH=/bin npm test', ['env -i -u HOME PATH=/bin npm test', 'npm test']);
      assert.deepEqual(a.parts[1].assignments, [{ name: 'FOO', value: '1' }, { name: 'PATH', value: '/bin' }]);
      clear('sudo -l rm; command -v npm; env', ['sudo -l rm', 'command -v npm', 'env']);
      opaque('env -S "rm -rf /"', /env -S/);
      opaque('sudo -s', /starts a shell/);
      opaque('sudo bash', /stdin/);
    });

    it('xargs runs its command; the replace string of -I makes the words holding it dynamic', () => {
      clear('git ls-files -z | xargs -0 -n 1 -P4 rm -f', ['git ls-files -z', 'xargs -0 -n 1 -P4 rm -f', 'rm -f']);
      clear('ls | xargs -I {} cp {} /tmp/{}.bak', ['ls', 'xargs -I {} cp {} /tmp/{}.bak', 'cp ~{} ~/tmp/{}.bak']);
      opaque("ls | xargs -I{} sh -c 'echo {}'", /script of sh -c is dynamic/);
      clear('xargs', ['xargs']);
    });

    it('find runs each -exec, -execdir, -ok and -okdir command, up to ; or {} +', () => {
      clear('find . -name "*.tmp" -exec rm -f {} \\; -execdir chmod +x {} + -print', [
        'find . -name *.tmp -exec rm -f {} ; -execdir chmod +x {} + -print', 'rm -f ~{}', 'chmod +x ~{}',
      ]);
      clear("find src -type f -exec sh -c 'wc -l \"$1\"' _ {} ';'", ['find src -type f -exec sh -c wc -l "$1" _ {} ;', 'wc -l ~"$1"']);
      opaque('find . -exec {} \\;', /dynamic/);
      opaque('find $DIR -name x', /find's expression/);
    });

    it('a dynamic word where a wrapper expects an option or its command is opaque', () => {
      opaque('sudo $X rm', /\$X/);
      opaque('timeout $T rm -rf /', /timeout/);
      opaque('env FOO=$X cmd', /env/);
      opaque('exec "$@"', /exec/);
      clear('sudo -u "$U" rm x', ['sudo -u ~"$U" rm x', 'rm x']);
    });
  });

  describe('argvs (terminal/create without a shell)', () => {
    it('is one part of literal words, with -c scripts and wrappers read as in a line', () => {
      const a = parser.analyzeArgv(['echo', '$HOME', '*', 'a b']);
      assert.deepEqual(words(a), ['echo $HOME * a b']);
      assert.equal(a.parts[0].text, "echo '$HOME' '*' 'a b'");
      assert.deepEqual(words(parser.analyzeArgv(['bash', '-lc', 'npm test && ls'])), ['npm test', 'ls']);
      const b = parser.analyzeArgv(['sudo', '-u', 'x', 'rm', '-rf', '/a b']);
      assert.deepEqual(b.parts.map((p) => p.text), ["sudo -u x rm -rf '/a b'", "rm -rf '/a b'"]);
      assert.match(parser.analyzeArgv(['sh']).opaque ?? '', /stdin/);
      assert.deepEqual(parser.analyzeArgv([]), { parts: [], writes: [] });
    });
  });

  describe('rule texts', () => {
    it('reads a rule as written: a wrapper, a -c script or eval is one command, a `*` a dynamic word', () => {
      assert.deepEqual(words(parser.analyzeRule('timeout *')), ['timeout ~*']);
      assert.deepEqual(words(parser.analyzeRule("sudo -u x npm test")), ['sudo -u x npm test']);
      assert.deepEqual(words(parser.analyzeRule("bash -c 'npm test'")), ['bash -c npm test']);
      assert.equal(parser.analyzeRule('eval *').opaque, undefined);
      assert.match(parser.analyzeRule('$X *').opaque ?? '', /dynamic/);
      assert.deepEqual(words(parser.analyzeRule('a && b')), ['a', 'b']);
    });
  });

  describe('limits', () => {
    it('a 200,000-character line is opaque, fast', () => {
      const started = performance.now();
      const a = parser.analyze(`echo ${'a'.repeat(200_000)}`);
      assert.match(a.opaque ?? '', /too long/);
      assert.deepEqual(a.parts, []);
      assert.ok(performance.now() - started < 50);
      assert.match(parser.analyzeArgv(['echo', 'a'.repeat(200_000)]).opaque ?? '', /too long/);
    });

    it('never throws: deep nesting and random text', () => {
      assert.match(parser.analyze(`echo ${'$('.repeat(5000)}ls${')'.repeat(5000)}`).opaque ?? '', /./);
      let seed = 7;
      const alphabet = 'ab $"\'`\\(){}[]<>|&;!*?~=#\n\t-c';
      for (let i = 0; i < 300; i++) {
        let line = '';
        for (let j = 0; j < 60; j++) { seed = (seed * 1103515245 + 12345) % 2 ** 31; line += alphabet[seed % alphabet.length]; }
        assert.doesNotThrow(() => parser.analyze(line));
        assert.doesNotThrow(() => parser.analyzeArgv(line.split(' ')));
      }
    });

    it('analyses a typical line in well under a millisecond', () => {
      const line = 'cd /work && FOO=1 npm test -- --grep "shell parser" 2>&1 | tail -n 50 > /tmp/out.txt; echo $(date)';
      for (let i = 0; i < 100; i++) parser.analyze(line);
      const times: number[] = [];
      for (let i = 0; i < 1000; i++) {
        const started = performance.now();
        parser.analyze(line);
        times.push(performance.now() - started);
      }
      times.sort((x, y) => x - y);
      assert.ok(times[500] < 1, `median ${times[500].toFixed(3)} ms`);
    });
  });

  describe('loading', () => {
    it('loads once per path, from a folder holding both files too; a failed load is retried', async () => {
      assert.equal(await bashParser(nodeModulesWasm(repoRoot)), parser);
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-wasm-'));
      try {
        await assert.rejects(bashParser(dir));
        const files = nodeModulesWasm(repoRoot);
        fs.copyFileSync(files.runtime, path.join(dir, 'tree-sitter.wasm'));
        fs.copyFileSync(files.bash, path.join(dir, 'tree-sitter-bash.wasm'));
        const fromDir = await bashParser(dir);
        assert.deepEqual(words(fromDir.analyze('a | b')), ['a', 'b']);
        assert.equal(await bashParser(dir), fromDir);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});

/** A word in double quotes, for building nested -c scripts. */
function shellQuoted(s: string): string {
  return `"${s.replace(/[\\"$`]/g, '\\$&')}"`;
}

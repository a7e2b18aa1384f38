/**
 * Environment variables that change what a command line runs (a preloaded library, a Node or Python option, a
 * shell's start file, the search path): the same line with one of them set is not the command the user allowed
 * (docs/approvals.md), and no rule allows it (src/host/permissions/rules/commandRules.ts).
 */
const commandChangingEnv = new Set([
  'LD_PRELOAD', 'LD_LIBRARY_PATH', 'LD_AUDIT', 'DYLD_INSERT_LIBRARIES', 'DYLD_LIBRARY_PATH', 'DYLD_FRAMEWORK_PATH', 'NODE_OPTIONS',
  'NODE_PATH', 'BASH_ENV', 'ENV', 'ZDOTDIR', 'PROMPT_COMMAND', 'SHELLOPTS', 'BASHOPTS', 'IFS', 'PATH', 'PYTHONPATH', 'PYTHONSTARTUP',
  'PYTHONHOME', 'PERL5OPT', 'PERL5LIB', 'RUBYOPT', 'RUBYLIB', 'GIT_SSH_COMMAND', 'GIT_EXEC_PATH', 'GIT_CONFIG_PARAMETERS',
  'GIT_CONFIG_GLOBAL', 'JAVA_TOOL_OPTIONS', '_JAVA_OPTIONS', 'NPM_CONFIG_SCRIPT_SHELL', 'COMSPEC', 'PSMODULEPATH',
]);

/** True when a variable of this name changes what a command runs (names compare case-insensitively). */
export function changesCommand(name: string): boolean {
  return commandChangingEnv.has(name.toUpperCase()) || /^GIT_CONFIG_(KEY|VALUE)_\d+$/i.test(name);
}

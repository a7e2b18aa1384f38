// @ts-check
// Switchboard's end-to-end harness: runs the real VS Code server + web workbench that ship in the npm
// package `code-server` (installed by test/harness/setup.sh into a cache outside the repo), and Debian's
// chromium driven by playwright-core. Nothing is downloaded at run time.
//
// Used by codeShim.mjs (the `code` stand-in for @vscode/test-electron), runIntegration.mjs, runUi.mjs
// and start.mjs. Every process it starts is registered with a reaper process that kills it (with its
// whole process tree) if this node process dies without cleaning up, even by SIGKILL.
//
// The harness is split by concern; this module re-exports all of it, so callers import from one place.
export * from './base.mjs';
export * from './processes.mjs';
export * from './workspace.mjs';
export * from './server.mjs';
export * from './browser.mjs';
export * from './extensionTests.mjs';

/**
 * Events and disposables for the runtime-neutral layers (acp, agents, thread), which may not use
 * `vscode.EventEmitter`. Re-exported from vscode-jsonrpc so every layer shares one implementation.
 */
export { Emitter, Disposable, CancellationTokenSource, CancellationToken } from 'vscode-jsonrpc';
export type { Event } from 'vscode-jsonrpc';

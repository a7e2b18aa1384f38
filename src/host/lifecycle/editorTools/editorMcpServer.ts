/**
 * The editor's MCP server itself, built on the official MCP TypeScript SDK (`@modelcontextprotocol/server`,
 * served through `@modelcontextprotocol/node`): a fresh server per request, as the SDK requires, with the editor's
 * tools (docs/editor-tools.md). Every tool but run_task (which asks first) is read-only, caps its answer, stops when the agent cancels, and logs
 * each call in the session's log. Its own bundle (dist/editorTools.js), loaded on the first request
 * (editorMcp.ts); the SDK validates with classic zod, so this bundle does too (scripts/checkLayers.mjs).
 */
import { toNodeHandler } from '@modelcontextprotocol/node';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { fromMcpServer, type McpServerAdapter } from '@agentclientprotocol/sdk/experimental/mcp-server';
import { MCP_META_CLIENT_CAPABILITIES, MCP_META_CLIENT_INFO, MCP_META_PROTOCOL_VERSION } from '@agentclientprotocol/sdk/unstable';
import * as z from 'zod/v4';
import type { MessageMcpResponse } from '../../../acp/schema/types.gen';
import type { AcpMessageServer } from './acpServers';
import { definition, diagnostics, documentSymbols, hover, openEditors, readFile, references, workspaceSymbols } from './editorToolsApi';
import type { EditorGrant, EditorToolsHandler, ToolCall } from './grant';
import { listTasks, runTask } from './tasks';
import { searchWorkspace } from './textSearch';
import { EditorToolError, severityNames } from './toolText';

const position = {
  path: z.string().describe('The file: relative to the session\'s folder, or absolute.'),
  line: z.number().int().min(1).describe('Line, counted from 1.'),
  column: z.number().int().min(1).describe('Column, counted from 1.'),
};

/** One tool: its name, what the agent reads about it, its arguments, and what it runs (args validated by the SDK). */
interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly input: Readonly<Record<string, z.ZodType>>;
  readonly run: (call: ToolCall, args: never) => Promise<string>;
  /** False for a tool that changes something (run_task): it asks first. */
  readonly readOnly?: false;
}

const tools: readonly ToolSpec[] = [
  {
    name: 'get_diagnostics',
    description: 'Problems (errors, warnings) that the editor\'s language servers report, for one file or for every file in the session\'s folders. Reflects unsaved changes in the editor.',
    input: { path: z.string().optional().describe('A file; absent: every file with problems.'), severity: z.enum(severityNames).optional().describe('The least severe kind to list (default: hint, i.e. all).') },
    run: diagnostics,
  },
  {
    name: 'read_file',
    description: 'A file\'s text as the editor holds it, unsaved changes included, with line numbers.',
    input: { path: z.string(), startLine: z.number().int().min(1).optional(), endLine: z.number().int().min(1).optional() },
    run: readFile,
  },
  {
    name: 'get_document_symbols',
    description: 'The outline of a file: classes, functions, methods, variables, with their kinds and lines.',
    input: { path: z.string() },
    run: documentSymbols,
  },
  {
    name: 'search_symbols',
    description: 'Symbols in the workspace whose names match a query (the editor\'s Go to Symbol in Workspace).',
    input: { query: z.string().min(1) },
    run: workspaceSymbols,
  },
  { name: 'go_to_definition', description: 'Where the symbol at a position is defined.', input: position, run: definition },
  { name: 'find_references', description: 'Every reference to the symbol at a position, with the text of each line.', input: position, run: references },
  { name: 'get_hover', description: 'What the editor shows on hover at a position: types and documentation.', input: position, run: hover },
  {
    name: 'get_open_editors',
    description: 'The files open in the editor (which have unsaved changes, which is active) and the user\'s current selection with its text.',
    input: {},
    run: (call: ToolCall) => openEditors(call),
  },
  {
    name: 'search_text',
    description: 'Text search in the session\'s folders, as the editor\'s search does it (respects .gitignore and files.exclude; unsaved changes included).',
    input: {
      query: z.string().min(1), isRegex: z.boolean().optional(), caseSensitive: z.boolean().optional(),
      include: z.string().optional().describe('A glob of files to search, e.g. "src/**/*.ts".'), maxResults: z.number().int().min(1).max(500).optional(),
    },
    run: searchWorkspace,
  },
  {
    name: 'list_tasks',
    description: 'The workspace\'s VS Code tasks (tasks.json, npm scripts, …) with the command line each runs.',
    input: {},
    run: (call: ToolCall) => listTasks(call),
  },
  {
    name: 'run_task',
    description: 'Runs a VS Code task by name (see list_tasks) and answers with its exit code and the problems afterwards. The user is asked first, as for any command, unless their rules allow it.',
    input: { name: z.string().min(1).describe('The task\'s name as list_tasks gives it.') },
    run: runTask,
    readOnly: false,
  },
];

/** The grant of the request: the one the listener attached, or the one the server was made for (MCP over ACP). */
function grantOf(ctx: { http?: { authInfo?: { extra?: Record<string, unknown> } } }, own?: EditorGrant): EditorGrant {
  const grant = own ?? ctx.http?.authInfo?.extra?.grant as EditorGrant | undefined;
  if (!grant?.live) throw new EditorToolError('The session of this token has ended.');
  return grant;
}

const short = (args: unknown) => {
  const text = JSON.stringify(args) ?? '';
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
};

/** One MCP server with every tool registered; `own`: the grant of every request it serves (MCP over ACP). */
function editorServer(own?: EditorGrant): McpServer {
  const server = new McpServer({ name: 'vscode', title: 'VS Code (Switchboard)', version: '1.0.0' }, {
    instructions: 'Tools of the editor the user works in: diagnostics, symbols, definitions, references, hover, open editors, the selection, files as the editor holds them, and search. Paths are relative to the session\'s folder; lines and columns count from 1.',
  });
  for (const tool of tools) {
    server.registerTool(tool.name, { description: tool.description, inputSchema: z.object(tool.input), annotations: { readOnlyHint: tool.readOnly !== false, openWorldHint: false } }, async (args: Record<string, unknown>, ctx) => {
      const started = performance.now();
      let grant: EditorGrant | undefined;
      try {
        grant = grantOf(ctx, own);
        const text = await (tool.run as (call: ToolCall, args: Record<string, unknown>) => Promise<string>)({ grant, signal: ctx.mcpReq.signal }, args);
        grant.log(`${tool.name} ${short(args)} → ${Buffer.byteLength(text)} bytes in ${Math.round(performance.now() - started)} ms`);
        return { content: [{ type: 'text' as const, text }] };
      } catch (error) {
        const message = EditorToolError.is(error) ? error.message : `The editor could not answer: ${error instanceof Error ? error.message : String(error)}`;
        grant?.log(`${tool.name} ${short(args)} → error: ${message}`);
        return { content: [{ type: 'text' as const, text: message }], isError: true };
      }
    });
  }
  return server;
}

/** The node request handler of the editor's MCP server (modern and 2025-era clients alike). */
export function editorToolsHandler(): EditorToolsHandler {
  const handler = createMcpHandler(() => editorServer());
  return toNodeHandler(handler) as EditorToolsHandler;
}

const adapters = new WeakMap<EditorGrant, McpServerAdapter>();

/**
 * Serves one `mcp/message` of MCP over ACP with the same server, through the ACP SDK's adapter of the MCP SDK's
 * server (`fromMcpServer`: the SDK's own request pipeline, MCP 2026-07-28), one adapter per grant.
 */
export const acpMessage: AcpMessageServer = async (grant, p, signal) => {
  let adapter = adapters.get(grant);
  if (!adapter) {
    adapter = fromMcpServer(() => editorServer(grant));
    adapters.set(grant, adapter);
  }
  const meta = p.params?._meta as Record<string, unknown> | undefined;
  const capabilities = meta?.[MCP_META_CLIENT_CAPABILITIES];
  const outcome = await adapter.handler({
    serverId: p.serverId, requestId: String(p.requestId), method: p.method, params: p.params ?? undefined,
    protocolVersion: typeof meta?.[MCP_META_PROTOCOL_VERSION] === 'string' ? meta[MCP_META_PROTOCOL_VERSION] : '',
    clientCapabilities: typeof capabilities === 'object' && capabilities !== null ? capabilities as Record<string, unknown> : {},
    clientInfo: meta?.[MCP_META_CLIENT_INFO], envelopeMeta: p._meta ?? undefined, signal, notify: () => Promise.resolve(),
  });
  return outcome as MessageMcpResponse; // the inner outcome: { result } or { error }, as the ACP schema carries it
};

/** The tools' names, for the chat header and tests. */
export const editorToolNames: readonly string[] = tools.map((t) => t.name);

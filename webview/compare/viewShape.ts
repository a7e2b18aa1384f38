/**
 * The compare view's check of what it is given (pure, no DOM): a message from the host, or the view it kept in
 * its state, is drawn only when it has the shape of src/shared/compareView.ts. Anything else is ignored whole,
 * never half-drawn. Hand-written rather than zod: the page stays a few KB (esbuild.mjs, the compare bundle).
 */
import type { CompareCheckView, CompareFileView, CompareMessage, CompareRunStatus, CompareRunView, CompareView } from '../../src/shared/compareView';

/** More runs than anyone fans out to: a view with more is not drawn. */
export const maxRuns = 64;

const statuses: ReadonlySet<string> = new Set<CompareRunStatus>(['starting', 'running', 'waiting', 'done', 'failed', 'interrupted', 'merged', 'discarded']);
const changes: ReadonlySet<string> = new Set<CompareFileView['change']>(['added', 'modified', 'deleted']);
const checkStates: ReadonlySet<string> = new Set<CompareCheckView['state']>(['pending', 'running', 'passed', 'failed', 'skipped']);

type Fields = Readonly<Record<string, unknown>>;

const isObject = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === 'string';
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;
const optional = (v: unknown, test: (x: unknown) => boolean): boolean => v === undefined || test(v);

function isFile(v: unknown): v is CompareFileView {
  return isObject(v) && isString(v.path) && isString(v.change) && changes.has(v.change) && isCount(v.added) && isCount(v.removed);
}

function isCheck(v: unknown): v is CompareCheckView {
  return isObject(v) && isString(v.state) && checkStates.has(v.state) && isString(v.command) && isString(v.output)
    && optional(v.exitCode, (x) => typeof x === 'number' && Number.isInteger(x)) && optional(v.durationMs, isCount);
}

function isCost(v: unknown): boolean {
  return isObject(v) && typeof v.amount === 'number' && Number.isFinite(v.amount) && isString(v.currency);
}

function isRun(v: unknown): v is CompareRunView {
  return isObject(v) && isString(v.id) && v.id !== '' && isString(v.agentName) && isString(v.title) && isString(v.branch)
    && isString(v.status) && statuses.has(v.status) && isString(v.statusText)
    && optional(v.durationMs, isCount) && optional(v.tokens, isCount) && optional(v.cost, isCost)
    && Array.isArray(v.files) && v.files.every(isFile) && isString(v.diff) && typeof v.diffTruncated === 'boolean'
    && optional(v.check, isCheck) && optional(v.error, isString);
}

/** The view, when `value` is one (runs with unique ids, at most {@link maxRuns}); otherwise undefined. */
export function compareViewOf(value: unknown): CompareView | undefined {
  if (!isObject(value)) return undefined;
  const { id, prompt, base, check, runs, merged, createdAt } = value;
  if (!isString(id) || id === '' || !isString(prompt) || !isString(base) || !optional(check, isString) || !optional(merged, isString)) return undefined;
  if (typeof createdAt !== 'number' || !Number.isFinite(createdAt)) return undefined;
  if (!Array.isArray(runs) || runs.length > maxRuns || !runs.every(isRun)) return undefined;
  if (new Set(runs.map((r) => r.id)).size !== runs.length) return undefined; // rows are keyed by run id
  return value as unknown as CompareView;
}

/** The view a host message carries (`{type: 'view', view}`), or undefined for anything else. */
export function viewOfMessage(data: unknown): CompareView | undefined {
  if (!isObject(data) || data.type !== 'view') return undefined;
  return compareViewOf((data as Partial<CompareMessage>).view);
}

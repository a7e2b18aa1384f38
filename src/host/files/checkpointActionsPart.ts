/**
 * A session's checkpoint actions (Restore, Diff, Undo, Revert), built at their first use: checkpointActions.ts is a
 * part of its own (esbuild.mjs `lazyModules`; docs/performance.md, "Start fast, ship small").
 */
import type * as Module from './checkpointActions';

type Args = ConstructorParameters<typeof Module.CheckpointActions>;

/** The actions over a session's context and checkpoints (an AgentSession). */
export function checkpointActionsFor(session: { readonly context: Args[0]; readonly checkpoints: Args[1]; readonly isWorking: boolean }): Module.CheckpointActions {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy part, loaded on first use (see above)
  const { CheckpointActions } = require('./checkpointActions') as typeof Module;
  return new CheckpointActions(session.context, session.checkpoints, () => session.isWorking);
}

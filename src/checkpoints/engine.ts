/**
 * What the checkpoints run on: the store (shadow git repositories and manifests) and a session's checkpoints. Its
 * own bundle (esbuild.mjs, `lazyModules`), required when a session first needs its checkpoints, not with the core
 * (docs/performance.md, "Start fast, ship small"). No vscode import.
 */
export { CheckpointStore } from './checkpointStore';
export { SessionCheckpoints } from './sessionCheckpoints';

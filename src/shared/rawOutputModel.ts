/**
 * A tool call's `rawOutput` as the chat shows it (https://agentclientprotocol.com/protocol/tool-calls): some agents
 * (codex-acp among them) send a command's output or a patch's changes only there. src/thread/view/rawOutput.ts maps the
 * free-form value to this view, capped; the webview renders it as inert text (docs/chat.md "Raw output of a
 * tool call"). Types only.
 */

/** One hunk of a unified diff, as the `diff` package parses it: each line starts with `+`, `-`, ` ` or `\`. */
export interface DiffHunkView {
  readonly oldStart: number;
  readonly oldLines: number;
  readonly newStart: number;
  readonly newLines: number;
  readonly lines: readonly string[];
}

/** The diff of one file from `rawOutput` (a `changes` map entry, or a unified diff). */
export interface RawDiffView {
  readonly path: string;
  /** `added` (a new file), `deleted`, or `modified`. */
  readonly change: 'added' | 'deleted' | 'modified';
  /** Where the file was moved to, when the agent says so. */
  readonly movePath?: string;
  readonly hunks: readonly DiffHunkView[];
  /** Lines of this diff left out by the cap. */
  readonly omittedLines?: number;
}

/** A text the command printed (terminal text: ANSI kept, the webview renders it). */
export interface RawTextView {
  /** `output` (one stream, or stdout and stderr interleaved), `stdout` or `stderr`. */
  readonly label: 'output' | 'stdout' | 'stderr';
  /** The kept tail of the text. */
  readonly text: string;
  /** Characters before `text` that were dropped (the chat keeps a tail, like terminal output). */
  readonly droppedChars?: number;
}

/** What the card shows of a `rawOutput`. */
export interface RawOutputView {
  /** The command line (`command` or `cmd`: a string, or an argv array shell-quoted). */
  readonly command?: string;
  readonly exitCode?: number;
  readonly texts: readonly RawTextView[];
  readonly diffs: readonly RawDiffView[];
  /** Files of a `changes` map left out by the cap. */
  readonly omittedDiffs?: number;
  /** Everything else (all of it when the tool call has content of its own), pretty-printed JSON, capped. */
  readonly json?: string;
  /** Characters of {@link json} left out by the cap. */
  readonly jsonDroppedChars?: number;
}

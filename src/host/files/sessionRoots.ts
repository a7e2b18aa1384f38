/**
 * The roots of one session (https://agentclientprotocol.com/protocol/session-setup): exactly its `cwd` and
 * the `additionalDirectories` it was opened with (docs/sessions.md "Session roots"), each resolved to its
 * real path. Resolved once, and again when the directories change.
 */
import { isInside, realRoots } from './pathPolicy';
import type { SessionContext } from '../sessionContext';

/** The folders a session may use without asking. */
export class SessionRoots {
  private _roots: Promise<string[]> | undefined;

  constructor(private readonly ctx: Pick<SessionContext, 'cwd' | 'additionalDirectories'>) {}

  /** The roots as given (absolute paths), before symlinks are resolved. */
  get declared(): string[] {
    return [this.ctx.cwd, ...this.ctx.additionalDirectories];
  }

  /** Forgets the resolved roots (the session's directories changed). */
  reset(): void {
    this._roots = undefined;
  }

  /** The real paths of the roots, deduplicated. */
  real(): Promise<string[]> {
    this._roots ??= realRoots(this.declared).catch((error: unknown) => {
      this._roots = undefined;
      throw error;
    });
    return this._roots;
  }

  /** True when a real path is one of the roots or inside one. */
  async contains(realPath: string): Promise<boolean> {
    return isInside(realPath, await this.real());
  }
}

/**
 * PromptQueue: the prompts a user wrote while the agent was working, sent one per turn when the turn ends
 * (as users of every agent panel ask: keep typing while the agent works). It lives on the host, in the
 * session, so it survives a webview reload; it is plain data (`toJSON()` / {@link PromptQueue.restoreStored})
 * so it can be persisted. No vscode import: unit-tested in plain node.
 *
 * The attachment schema lives here because attachments cross two boundaries: from the webview (the chat's
 * IPC schemas use it) and from disk (a queue read back from the transcript store).
 */
import * as z from 'zod/mini';
import { Emitter } from '../../acp/events';
import type { Event } from '../../acp/events';
import { embeddedTextMaxChars, imageMaxBase64, imageMimeTypes } from '../../shared/composerModel';
import type { AttachmentView, QueuedPromptView } from '../../shared/composerModel';
import type { SessionPart } from '../sessionContext';

const short = z.string().check(z.maxLength(256));
const uri = z.string().check(z.minLength(1), z.maxLength(4096), z.regex(/^[a-z][a-z0-9+.-]*:/i, 'a URI'));
const line = z.int().check(z.positive(), z.maximum(10_000_000));

/** One attachment chip: bounded count, URI and text lengths, image type and size (images are base64). */
export const attachmentSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('file'), id: short, uri, name: z.string().check(z.maxLength(1024)) }),
  z.strictObject({ kind: z.literal('selection'), id: short, uri, name: z.string().check(z.maxLength(1024)), startLine: line, endLine: line, text: z.string().check(z.maxLength(embeddedTextMaxChars)) }),
  z.strictObject({ kind: z.literal('image'), id: short, name: z.string().check(z.maxLength(1024)), mimeType: z.enum(imageMimeTypes), data: z.string().check(z.maxLength(imageMaxBase64), z.regex(/^[A-Za-z0-9+/]*={0,2}$/, 'base64')) }),
]);

/** A queue as the transcript store keeps it. */
const persistedQueueSchema = z.array(z.strictObject({ id: short, text: z.string().check(z.maxLength(1_000_000)), attachments: z.array(attachmentSchema) }));

/** The queued prompts of one session, oldest first. */
export class PromptQueue {
  private _items: QueuedPromptView[] = [];
  private _nextId = 0;
  private readonly _onDidChange = new Emitter<void>();
  /** Fires after every change (add, edit, remove, take, restore). */
  readonly onDidChange: Event<void> = this._onDidChange.event;

  /** The queued prompts, oldest first. */
  get items(): readonly QueuedPromptView[] {
    return this._items;
  }

  /** Number of queued prompts. */
  get size(): number {
    return this._items.length;
  }

  /** Queues a prompt (`first`: before the others) and returns its id. */
  add(text: string, attachments: readonly AttachmentView[] = [], first = false): string {
    const id = `q${Date.now().toString(36)}-${++this._nextId}`;
    const item = { id, text, attachments: [...attachments] };
    this._items = first ? [item, ...this._items] : [...this._items, item];
    this._onDidChange.fire();
    return id;
  }

  /**
   * Replaces the text of a queued prompt. An empty text with no attachments removes it. False when the id
   * is unknown (e.g. it was sent in the meantime).
   */
  update(id: string, text: string): boolean {
    const index = this._items.findIndex((i) => i.id === id);
    if (index === -1) return false;
    const item = this._items[index];
    if (!text.trim() && !item.attachments.length) return this.remove(id);
    this._items = this._items.map((i) => (i.id === id ? { ...i, text } : i));
    this._onDidChange.fire();
    return true;
  }

  /** Removes a queued prompt; false when the id is unknown. */
  remove(id: string): boolean {
    const before = this._items.length;
    this._items = this._items.filter((i) => i.id !== id);
    if (this._items.length === before) return false;
    this._onDidChange.fire();
    return true;
  }

  /** Removes and returns the oldest prompt. */
  take(): QueuedPromptView | undefined {
    const [first, ...rest] = this._items;
    if (!first) return undefined;
    this._items = rest;
    this._onDidChange.fire();
    return first;
  }

  /** Removes every queued prompt. */
  clear(): void {
    if (!this._items.length) return;
    this._items = [];
    this._onDidChange.fire();
  }

  /** The serializable state. */
  toJSON(): QueuedPromptView[] {
    return this._items.map((i) => ({ ...i, attachments: [...i.attachments] }));
  }

  /** Replaces the queue with persisted state (items without text and attachments are dropped). */
  restore(items: readonly QueuedPromptView[]): void {
    this._items = items.filter((i) => i.text.trim() || i.attachments.length).map((i) => ({ ...i, attachments: [...i.attachments] }));
    this._onDidChange.fire();
  }

  /** Restores a queue read back from disk after validating it; returns why it was dropped when it is not valid. */
  restoreStored(data: unknown): string | undefined {
    const parsed = persistedQueueSchema.safeParse(data);
    if (!parsed.success) return parsed.error.message;
    this.restore(parsed.data);
    return undefined;
  }

  /** Releases listeners. */
  dispose(): void {
    this._onDidChange.dispose();
  }
}

/** Each session's queue of prompts written while its agent works. */
export const queuePart: SessionPart<PromptQueue> = { name: 'prompt queue', create: () => new PromptQueue() };

/**
 * The attachment chips of the composer: files, selections and images (as thumbnails from `data:` URLs,
 * which the CSP allows for images only). Each chip has a remove button. Also reads pasted or dropped
 * images into base64, refusing what is too big or of a type agents do not take.
 */
import { imageMaxBytes, imageMimeTypes } from '../../src/shared/composerModel';
import type { AttachmentView } from '../../src/shared/composerModel';
import { h } from '../views/dom';

/** A short label of an attachment. */
export function attachmentLabel(a: AttachmentView): string {
  if (a.kind === 'selection') return a.startLine === a.endLine ? `${a.name}:${a.startLine}` : `${a.name}:${a.startLine}-${a.endLine}`;
  return a.name;
}

/** Renders the chips. */
export function renderChips(root: HTMLElement, attachments: readonly AttachmentView[], remove: (id: string) => void): void {
  root.hidden = attachments.length === 0;
  root.replaceChildren(...attachments.map((a) => {
    const label = attachmentLabel(a);
    const button = h('button', { type: 'button', class: 'chip-remove', 'data-testid': 'attachment-remove', 'aria-label': `Remove ${label}`, title: `Remove ${label}` },
      h('span', { class: 'codicon codicon-close', 'aria-hidden': 'true' }));
    button.addEventListener('click', () => remove(a.id));
    // images show a thumbnail (a data: URL, allowed for images by the CSP); files and selections their name
    const icon = a.kind === 'image' ? h('img', { class: 'chip-thumb', src: `data:${a.mimeType};base64,${a.data}`, alt: '' }) : undefined;
    return h('span', { class: `attachment-chip ${a.kind}`, 'data-testid': 'attachment-chip', 'data-kind': a.kind, title: 'uri' in a ? a.uri : a.name }, icon, h('span', { class: 'chip-label' }, label), button);
  }));
}

let nextId = 0;
/** A new attachment id. */
export function attachmentId(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${++nextId}`;
}

/** Reads an image file into an attachment, or returns why it cannot be attached. */
export async function readImage(file: File): Promise<AttachmentView | string> {
  if (!(imageMimeTypes as readonly string[]).includes(file.type)) return `${file.name || 'This file'} is not a PNG, JPEG, GIF or WebP image.`;
  if (file.size > imageMaxBytes) return `${file.name || 'The image'} is too large (${Math.round(file.size / 1024 / 1024)} MB; at most ${imageMaxBytes / 1024 / 1024} MB).`;
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return { kind: 'image', id: attachmentId('img'), name: file.name || 'pasted image', mimeType: file.type, data: btoa(binary) };
}

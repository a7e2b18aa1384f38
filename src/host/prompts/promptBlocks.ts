/**
 * Pure helpers that build the `ContentBlock[]` of a prompt and restrict it to what the agent accepts: clients
 * MUST restrict prompt content to the agent's `promptCapabilities`
 * (https://agentclientprotocol.com/protocol/content). No vscode import: unit-tested in plain node.
 */
import type { ContentBlock, PromptCapabilities } from '../../acp/schema/types.gen';
import type { AttachmentView, PromptCapabilitiesView } from '../../shared/composerModel';

/**
 * The agent's prompt capabilities with absent flags meaning unsupported (omitted capabilities are
 * unsupported, https://agentclientprotocol.com/protocol/initialization).
 */
export function promptCapabilitiesView(caps: PromptCapabilities | undefined | null): PromptCapabilitiesView {
  return { image: caps?.image === true, audio: caps?.audio === true, embeddedContext: caps?.embeddedContext === true };
}

/** The file name of a URI (its last path segment, decoded). */
export function uriName(uri: string): string {
  const path = uri.replace(/[?#].*$/, '');
  const last = path.slice(path.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(last) || uri;
  } catch {
    return last || uri;
  }
}

/**
 * A selection as a prompt block. With `embeddedContext` it is an embedded `resource` whose URI carries the
 * range as a GitHub-style fragment (`file:///a.ts#L10-L20`, the form models know from links, as Zed sends
 * selections as resources with a line fragment); otherwise a text block naming the path and lines with the code
 * fenced, which every agent understands (text is the baseline every agent must accept,
 * https://agentclientprotocol.com/protocol/content). A bare `resource_link` with a fragment is not used: agents
 * open the whole file and ignore the fragment.
 */
export function selectionBlock(a: Extract<AttachmentView, { kind: 'selection' }>, caps: PromptCapabilitiesView, path: string): ContentBlock {
  const range = a.startLine === a.endLine ? `L${a.startLine}` : `L${a.startLine}-L${a.endLine}`;
  if (caps.embeddedContext) {
    return { type: 'resource', resource: { uri: `${a.uri}#${range}`, text: a.text, mimeType: 'text/plain' } };
  }
  const lines = a.startLine === a.endLine ? `line ${a.startLine}` : `lines ${a.startLine}-${a.endLine}`;
  const fence = a.text.includes('```') ? '````' : '```';
  return { type: 'text', text: `${path} (${lines}):\n${fence}\n${a.text}\n${fence}` };
}

/**
 * Drops or converts the blocks the agent does not accept: embedded resources become `resource_link`s
 * without `embeddedContext`, images and audio are dropped without their capability. Returns the allowed
 * blocks and a description of what was dropped (for a notice).
 */
export function restrictToCapabilities(blocks: readonly ContentBlock[], caps: PromptCapabilitiesView): { blocks: ContentBlock[]; dropped: string[] } {
  const out: ContentBlock[] = [];
  const dropped: string[] = [];
  for (const b of blocks) {
    switch (b.type) {
      case 'text':
      case 'resource_link':
        out.push(b);
        break;
      case 'image':
        if (caps.image) out.push(b);
        else dropped.push(`an image (${b.mimeType})`);
        break;
      case 'audio':
        if (caps.audio) out.push(b);
        else dropped.push(`audio (${b.mimeType})`);
        break;
      case 'resource': {
        if (caps.embeddedContext) {
          out.push(b);
          break;
        }
        const uri = (b.resource as { uri: string }).uri;
        out.push({ type: 'resource_link', uri, name: uriName(uri) });
        break;
      }
      default:
        dropped.push(`a '${(b as { type: string }).type}' block`);
    }
  }
  return { blocks: out, dropped };
}

/**
 * The opening tag of a continuation's context block (continuationContext.ts): `<context source="switchboard"
 * from="<title>" turns="N" files="M">`. The chat reads it back from the first message's text to show that
 * message collapsed, and the thread to title the session; the text is what the transcript store keeps, so
 * both survive a reload. Pure, and apart from the block's builder so the thread model can use it.
 */

/** What the opening tag says. */
export interface ContextHeader {
  readonly title: string;
  readonly turns: number;
  readonly files: number;
}

const openTag = '<context source="switchboard"';
/** The end of the block. */
export const contextCloseTag = '</context>';

/** The opening tag for a block from the session titled `title`. */
export function contextOpenTag(h: ContextHeader): string {
  return `${openTag} from="${attr(h.title)}" turns="${h.turns}" files="${h.files}">`;
}

/** The header of a context block that makes up a whole message, or undefined for any other message. */
export function parseContextHeader(text: string): ContextHeader | undefined {
  if (!text.startsWith(openTag)) return undefined;
  const tag = /^<context source="switchboard" from="([^"]*)" turns="(\d+)" files="(\d+)">\n/.exec(text);
  if (!tag || !text.trimEnd().endsWith(contextCloseTag)) return undefined;
  return { title: unattr(tag[1]), turns: Number(tag[2]), files: Number(tag[3]) };
}

function attr(text: string): string {
  return text.replace(/[&"<>\n\r]/g, (c) => `&#${c.charCodeAt(0)};`);
}

function unattr(text: string): string {
  return text.replace(/&#(\d+);/g, (_m, n: string) => String.fromCharCode(Number(n)));
}

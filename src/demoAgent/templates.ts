import { capAtWord } from '../shared/inertText';

const templatePattern = /\{\{\s*([\w.-]+)\s*\}\}/g;

/**
 * Replaces `{{name}}` in every string inside `value` (objects and arrays are copied, other values
 * kept). Names that `lookup` does not know (returns undefined) stay as they are.
 */
export function expandTemplates<T>(value: T, lookup: (name: string) => string | undefined): T {
  return expand(value, lookup) as T;
}

function expand(value: unknown, lookup: (name: string) => string | undefined): unknown {
  if (typeof value === 'string') {
    if (!value.includes('{{')) {
      return value;
    }
    return value.replace(templatePattern, (whole, name: string) => lookup(name) ?? whole);
  }
  if (Array.isArray(value)) {
    return value.map((item) => expand(item, lookup));
  }
  if (typeof value === 'object' && value !== null) {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      copy[key] = expand(item, lookup);
    }
    return copy;
  }
  return value;
}

/** Longest `{{topic}}`, in characters (the client shortens further where it must). */
export const topicMax = 40;

/**
 * A short title for a chat about `text` (the `{{topic}}` template; a real agent names a chat after what it is
 * about): the first line, whitespace collapsed, cut at a word boundary with an ellipsis, first letter upper case.
 * Empty for an empty text.
 */
export function promptTopic(text: string): string {
  const line = (text.split('\n').find((l) => l.trim()) ?? '').replace(/\s+/g, ' ').trim();
  const topic = capAtWord(line, topicMax);
  return topic.charAt(0).toUpperCase() + topic.slice(1);
}

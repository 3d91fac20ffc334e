/**
 * GraphiQL keeps its tabs and its history in localStorage. With `shouldPersistHeaders` off it
 * leaves the headers out of its tabs, but its history plugin still writes each operation's
 * headers (an API key typed under Headers) into `graphiql:queries`. This storage writes through
 * to localStorage with every `headers` value removed from what GraphiQL stores, so no
 * credential stays on the disk after the page is closed.
 */
import type { GraphiQLProps } from 'graphiql';

type GraphiqlStorage = NonNullable<GraphiQLProps['storage']>;

/** `value` (GraphiQL's JSON) with every `headers` property set to null, at any depth; text that is not JSON as it is. */
export function withoutHeaders(value: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return value;
  }
  const strip = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(strip);
    if (node && typeof node === 'object') {
      return Object.fromEntries(Object.entries(node).map(([key, child]) => [key, key === 'headers' ? null : typeof child === 'string' ? stripNested(child) : strip(child)]));
    }
    return node;
  };
  // GraphiQL stores some values as JSON text inside JSON (tab state): those are stripped too
  const stripNested = (text: string): string => (text.startsWith('{') || text.startsWith('[') ? withoutHeaders(text) : text);
  return JSON.stringify(strip(parsed));
}

export function storageWithoutHeaders(backing: Storage = window.localStorage): GraphiqlStorage {
  return {
    getItem: (key) => backing.getItem(key),
    setItem: (key, value) => backing.setItem(key, withoutHeaders(value)),
    removeItem: (key) => backing.removeItem(key),
    clear: () => backing.clear(),
    get length() {
      return backing.length;
    },
  };
}

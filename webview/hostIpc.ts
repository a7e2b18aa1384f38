/**
 * The only place that talks to the VS Code webview API, so that the rest of the webview runs anywhere (a test
 * page, the render benchmark); actions.ts is its only user for messages to the host. Tests swap the
 * transport with {@link setHostIpcFactory} (docs/chat.md).
 */
import type { PostCommand } from '../src/shared/chatProtocol';

/** What the webview needs from its host. */
export interface HostIpc {
  post: PostCommand;
  /** Every message the host posts, as it comes: the inbox (inbox.ts) checks and routes it. */
  onMessage(listener: (data: unknown) => void): void;
  getState<T>(): T | undefined;
  setState<T>(state: T): void;
}

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

let factory: () => HostIpc = () => {
  const api = acquireVsCodeApi();
  return {
    post: (type, params) => api.postMessage({ method: type.method, params }),
    onMessage: (listener) => addEventListener('message', (e: MessageEvent<unknown>) => listener(e.data)),
    getState: <T>() => api.getState() as T | undefined,
    setState: (state) => api.setState(state),
  };
};

/** Replaces the transport (tests). */
export function setHostIpcFactory(f: () => HostIpc): void {
  factory = f;
}

let instance: HostIpc | undefined;
/** The host transport (created once). */
export function hostIpc(): HostIpc {
  instance ??= factory();
  return instance;
}

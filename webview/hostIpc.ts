/**
 * The only place that talks to the VS Code webview API, so that the rest of the webview runs anywhere (a test
 * page, the render benchmark); actions.ts is its only user for messages to the host. Tests swap the
 * transport with {@link setHostIpcFactory} (docs/chat.md).
 */
import type { IpcMessage, IpcMessageType } from '../src/shared/chatProtocol';

/** What the webview needs from its host. */
export interface HostIpc {
  post<P>(type: IpcMessageType<P>, params: P): void;
  onMessage(listener: (msg: IpcMessage) => void): void;
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
    onMessage: (listener) => window.addEventListener('message', (e: MessageEvent) => {
      const data = e.data as unknown;
      if (typeof data === 'object' && data !== null && typeof (data as { method?: unknown }).method === 'string') listener(data as IpcMessage);
    }),
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

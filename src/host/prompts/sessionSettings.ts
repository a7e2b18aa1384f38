/**
 * A session's settings the user changes from the composer: config options
 * (https://agentclientprotocol.com/protocol/session-config-options) and legacy modes
 * (https://agentclientprotocol.com/protocol/session-modes). On failure, or without an answer within
 * {@link settingAnswerMs}, the thread's state is sent again, so the chat shows the old value.
 */
import { settingAnswerMs, withAnswerTimeout } from '../../acp/answerTimeout';
import type { AcpConnection } from '../../acp/connection';
import type { AcpThread } from '../../thread/thread';

/** Changes a config option (`session/set_config_option`); the response's complete set replaces the local state. */
export async function setConfigOption(connection: AcpConnection, thread: AcpThread, sessionId: string, configId: string, value: string | boolean): Promise<void> {
  const base = { sessionId, configId };
  try {
    const params = typeof value === 'boolean' ? { ...base, type: 'boolean' as const, value } : { ...base, value };
    const res = await withAnswerTimeout('session/set_config_option', settingAnswerMs, (token) => connection.request('session/set_config_option', params, token));
    thread.setConfigOptions(res.configOptions);
  } catch (error) {
    thread.setConfigOptions(thread.configOptions);
    throw error;
  }
}

/** Changes the legacy mode (`session/set_mode`), used when no config option has category `mode`. */
export async function setMode(connection: AcpConnection, thread: AcpThread, sessionId: string, modeId: string): Promise<void> {
  try {
    await withAnswerTimeout('session/set_mode', settingAnswerMs, (token) => connection.request('session/set_mode', { sessionId, modeId }, token));
    thread.setCurrentMode(modeId);
  } catch (error) {
    thread.setCurrentMode(thread.currentModeId ?? modeId);
    throw error;
  }
}

/**
 * A session's settings the user changes from the composer: config options
 * (https://agentclientprotocol.com/protocol/session-config-options) and legacy modes
 * (https://agentclientprotocol.com/protocol/session-modes). While a config option's change waits, the chat shows
 * the chosen value (src/thread/model/configChanges.ts); on failure, or without an answer within {@link settingAnswerMs},
 * it shows the agent's value again.
 */
import { settingAnswerMs, withAnswerTimeout } from '../../acp/answerTimeout';
import type { AcpConnection } from '../../acp/connection';
import type { SessionConfigOption } from '../../acp/schema/types.gen';
import type { ConfigChanges } from '../../thread/model/configChanges';
import type { AcpThread } from '../../thread/model/thread';

/** Changes a config option (`session/set_config_option`); the response's complete set replaces the local state. */
export async function setConfigOption(connection: AcpConnection, changes: ConfigChanges, sessionId: string, configId: string, value: string | boolean): Promise<void> {
  const base = { sessionId, configId };
  changes.begin(configId, value);
  let answer: SessionConfigOption[] | undefined;
  try {
    const params = typeof value === 'boolean' ? { ...base, type: 'boolean' as const, value } : { ...base, value };
    answer = (await withAnswerTimeout('session/set_config_option', settingAnswerMs, (token) => connection.request('session/set_config_option', params, token))).configOptions;
  } finally {
    changes.end(configId, answer);
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

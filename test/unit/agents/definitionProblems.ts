import * as assert from 'node:assert/strict';
import { AgentDefinitionError, parseAgentDefinition } from '../../../src/agents/agentDefinition';

/** The message of the AgentDefinitionError that an entry is rejected with (fails the test if it is accepted). */
export function problems(value: unknown): string {
  try {
    parseAgentDefinition(value);
  } catch (ex) {
    assert.ok(AgentDefinitionError.is(ex, 'invalid'));
    return ex.message;
  }
  return assert.fail('expected AgentDefinitionError');
}

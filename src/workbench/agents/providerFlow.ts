/**
 * The Set flow of a model provider (docs/acp-features.md#accounts-and-model-providers), a multi-step quick input:
 * the protocol (from the provider's `supported`; skipped when there is one), the base URL (http or https), what
 * to do with a saved API key (when there is one), and the key (a password box; optional). The key is kept in
 * SecretStorage by the host, never in settings. Agent text (names, ids, protocols) goes through inertText.
 */
import * as vscode from 'vscode';
import { protocolLabel } from '../../shared/accountModel';
import { inert, inertText } from '../../shared/inertText';
import { baseUrlError, providerHeaders } from '../../host/auth/providerConfig';
import type { ProviderAnswer, ProviderPrompter } from '../../host/auth/modelProviders';
import { pickStep, textStep } from './quickSteps';
import type { StepResult } from './quickSteps';

type StepId = 'protocol' | 'url' | 'keep' | 'key';
type KeyChoice = 'keep' | 'new' | 'none';

/** Example endpoints, as placeholders. */
const examples: Readonly<Record<string, string>> = {
  anthropic: 'https://api.anthropic.com', openai: 'https://api.openai.com/v1', azure: 'https://my-resource.openai.azure.com/openai/v1',
  vertex: 'https://us-central1-aiplatform.googleapis.com', bedrock: 'https://bedrock-runtime.us-east-1.amazonaws.com',
};

/** The header name a key goes in for a protocol, in words. */
function headerName(apiType: string): string {
  const name = Object.keys(providerHeaders(apiType, 'x') ?? {})[0] ?? 'Authorization';
  return name === 'Authorization' ? 'Authorization: Bearer' : name;
}

/** The VS Code input flow. */
export const vscodeProviderPrompter: ProviderPrompter = {
  async ask(agentName, provider, saved) {
    const current = saved?.apiType;
    const protocols = provider.supported.length ? [...provider.supported] : current ? [current] : [];
    if (!protocols.length) {
      void vscode.window.showErrorMessage(inert.message`${agentName} names no protocol for the model provider '${provider.providerId}'.`);
      return undefined;
    }
    if (current && protocols.includes(current)) protocols.sort((a, b) => Number(b === current) - Number(a === current)); // the current one first
    const title = inert.label`${agentName}: model provider ${provider.providerId}`;
    const answer: { apiType: string; baseUrl: string; keep: KeyChoice; apiKey: string } = {
      apiType: protocols[0] ?? '', baseUrl: saved?.baseUrl ?? '', keep: saved?.hasKey ? 'keep' : 'new', apiKey: '',
    };
    const steps = (): StepId[] => [...(protocols.length > 1 ? ['protocol' as const] : []), 'url', ...(saved?.hasKey ? ['keep' as const] : []), ...(answer.keep === 'new' ? ['key' as const] : [])];
    let index = 0;
    for (;;) {
      const all = steps();
      const id = all[index];
      if (!id) break;
      const common = { title, step: index + 1, totalSteps: all.length, back: index > 0 };
      let result: StepResult<string>;
      switch (id) {
        case 'protocol':
          result = await pickStep({
            ...common, placeholder: 'Choose the protocol (API type) of the endpoint',
            items: protocols.map((p) => ({ label: inertText(protocolLabel(p), 'label'), description: inertText(p === current ? `${p} · current` : p, 'label'), value: p })),
          });
          if (result.kind === 'value') answer.apiType = result.value;
          break;
        case 'url':
          result = await textStep({
            ...common, value: answer.baseUrl, placeholder: examples[answer.apiType] ?? 'https://llm.example.com/v1',
            prompt: inert.label`Base URL of the ${protocolLabel(answer.apiType)} endpoint (http:// or https://)`, validate: baseUrlError,
          });
          if (result.kind === 'value') answer.baseUrl = result.value.trim();
          break;
        case 'keep':
          result = await pickStep({
            ...common, placeholder: 'An API key is saved for this provider',
            items: [
              { label: 'Keep the saved API key', value: 'keep' },
              { label: 'Enter a new API key', value: 'new' },
              { label: 'Send no API key', value: 'none' },
            ],
          });
          if (result.kind === 'value') answer.keep = result.value as KeyChoice;
          break;
        case 'key':
          result = await textStep({
            ...common, value: '', password: true, placeholder: 'API key (optional)', validate: () => undefined,
            prompt: inert.label`API key, optional: leave empty to send none. Kept in VS Code's secret storage; sent to the agent as the ${headerName(answer.apiType)} header.`,
          });
          if (result.kind === 'value') answer.apiKey = result.value.trim();
          break;
      }
      if (result.kind === 'cancel') return undefined;
      index = result.kind === 'back' ? Math.max(0, index - 1) : index + 1;
    }
    const done: ProviderAnswer = { apiType: answer.apiType, baseUrl: answer.baseUrl };
    if (answer.keep === 'keep') return { ...done, keepSavedKey: true };
    return answer.keep === 'new' && answer.apiKey ? { ...done, apiKey: answer.apiKey } : done;
  },
};

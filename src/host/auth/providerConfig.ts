/**
 * The pure parts of model providers (`providers/*`, UNSTABLE: https://agentclientprotocol.com/rfds/custom-llm-endpoint,
 * docs/acp-features.md#accounts-and-model-providers): which header carries an API key for a protocol, what a base
 * URL must look like, and the chat's view of a `providers/list` answer. No vscode: unit tests run it in plain node.
 */
import type { ProviderInfo, SetProviderRequest } from '../../acp/schema/types.gen';
import type { ProviderView } from '../../shared/accountModel';

/**
 * The header that carries an API key, the way each protocol's API expects it:
 * - `anthropic`: `x-api-key: <key>` (Anthropic's Messages API);
 * - `openai`, `azure` (the Azure OpenAI v1 API takes the key as a bearer token too), `vertex` (an OAuth access
 *   token), `bedrock` (Bedrock API keys are bearer tokens) and any other protocol: `Authorization: Bearer <key>`.
 * No key: no header (`providers/set` replaces the whole configuration, so an omitted map means none).
 */
export function providerHeaders(apiType: string, apiKey: string | undefined): Record<string, string> | undefined {
  if (!apiKey) return undefined;
  return apiType === 'anthropic' ? { 'x-api-key': apiKey } : { Authorization: `Bearer ${apiKey}` };
}

/**
 * Why a base URL cannot be used, or undefined when it can: an absolute `http:` or `https:` URL with a host and
 * without credentials (the URL is shown and kept as plain configuration; a key goes in the API key step).
 */
export function baseUrlError(value: string): string | undefined {
  const text = value.trim();
  if (!text) return 'Enter the base URL of the endpoint, e.g. https://llm.example.com/v1.';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'Not a URL: enter an absolute http:// or https:// URL.';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `Only http:// and https:// URLs can be used, not ${url.protocol}.`;
  if (!url.hostname) return 'The URL needs a host.';
  if (url.username || url.password) return 'Do not put credentials in the URL: the API key has its own step and is kept in the secret storage.';
  return undefined;
}

/** The params of `providers/set` for an answer of the user. */
export function setProviderParams(providerId: string, apiType: string, baseUrl: string, apiKey: string | undefined): SetProviderRequest {
  const headers = providerHeaders(apiType, apiKey);
  return { providerId, apiType, baseUrl: baseUrl.trim(), ...(headers ? { headers } : {}) };
}

/** The chat's view of a `providers/list` answer. */
export function providerViews(providers: readonly ProviderInfo[]): ProviderView[] {
  return providers.map((p) => ({
    providerId: p.providerId,
    supported: [...(p.supported ?? [])],
    required: p.required,
    ...(p.current ? { current: { apiType: p.current.apiType, baseUrl: p.current.baseUrl } } : {}),
  }));
}

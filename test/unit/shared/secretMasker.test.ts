import * as assert from 'node:assert/strict';
import { maskStrings, maskTokens, namesSecret, SecretMasker } from '../../../src/shared/secretMasker';

// token shapes and what they become; the fake keys are built from pieces so that no scanner mistakes this file for a leak
const body = (n: number, alphabet = 'aB3dE6gH9jK2mN5pQ8sT1vW4yZ7'): string => Array.from({ length: n }, (_, i) => alphabet[(i * 7) % alphabet.length]).join('');
const jwt = `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.${body(43)}`;

const masked: readonly (readonly [string, string])[] = [
  [`key ${'sk-ant-api03-'}${body(40)} end`, 'key *** end'],
  [`${'sk-proj-'}${body(48)}`, '***'],
  [`OPENAI=${'sk-'}${body(48)}`, 'OPENAI=***'],
  [`stripe ${'sk_live_'}${body(24)}.`, 'stripe ***.'],
  [`push with ${'ghp_'}${body(36)}`, 'push with ***'],
  [`(${'gho_'}${body(36)})`, '(***)'],
  [`${'github_pat_'}11ABCDEFG0_${body(50)}`, '***'],
  [`gitlab: ${'glpat-'}${body(20)}`, 'gitlab: ***'],
  [`slack ${'xoxb-'}1234567890-0987654321-${body(24)}`, 'slack ***'],
  [`aws ${'AKIA'}IOSFODNN7EXAMPLE ok`, 'aws *** ok'],
  [`google ${'AIza'}${body(35)}`, 'google ***'],
  [`oauth ${'ya29.'}${body(60)}`, 'oauth ***'],
  [`hf ${'hf_'}${body(34)}`, 'hf ***'],
  [`jwt=${jwt};`, 'jwt=***;'],
  ['Authorization: Bearer abc123DEF456ghi789', 'Authorization: Bearer ***'],
  ['curl -H "Authorization: Basic dXNlcjpwYXNzd29yZA=="', 'curl -H "Authorization: Basic ***"'],
  ['authorization: 9f8e7d6c5b4a3928', 'authorization: ***'],
  ['{"Authorization":"Token 0a1b2c3d4e5f6a7b"}', '{"Authorization":"Token ***"}'],
  ['api_key=0123456789abcdef0123', 'api_key=***'],
  ['{"token": "f3a9c1d2e4b5a6978877665544332211"}', '{"token": "***"}'],
  ['export OPENAI_API_KEY="Zm9vYmFyYmF6cXV4MTIzNDU2"', 'export OPENAI_API_KEY="***"'],
  ['run --api-key 9f8e7d6c5b4a39281726354453627181', 'run --api-key ***'],
  ['clientSecret: AbCdEfGhIjKlMnOpQrStUvWxYz', 'clientSecret: ***'],
  ['x-api-key: 123e4567-e89b-12d3-a456-426614174000', 'x-api-key: ***'],
  ['db.password=s3cr3tPassw0rdV4lue', 'db.password=***'],
];

const untouched: readonly string[] = [
  'the tokenizer splits text into tokens',
  'tokenizer=0123456789abcdef0123',
  'keyboard layout: 0123456789abcdef0123 is not a key',
  'monkey=0123456789abcdef0123',
  'fixed in commit 1a2b3c4, see 9f8e7d6c5b4a39281726354453627181aabbccdd',
  'opened /home/me/.cache/sessions/123e4567-e89b-12d3-a456-426614174000/log.txt',
  'data: SGVsbG8gd29ybGQsIHRoaXMgaXMgYmFzZTY0IQ==',
  'key_file=/home/me/.ssh/id_ed25519_0123456789',
  'token_path=config/secrets/token1234567890.txt',
  'Bearer authentication is required',
  'Token expired, log in again',
  'Authorization: required',
  'max_tokens: 4096',
  'task-1234567890123456789012 and disk-usage-abcdefghijklmnopqrstuvwxyz',
  'sk-learn is a library',
  'AKIA is the prefix of AWS key ids',
  'eyJ is how base64 JSON starts',
  'the secret to good code is deleting it',
  'password: correct horse battery staple',
  'short hex deadbeef and 0xCAFEBABE',
];

describe('secret masker: token shapes', () => {
  for (const [input, expected] of masked) {
    it(`masks ${expected}`, () => assert.equal(maskTokens(input), expected));
  }
  for (const input of untouched) {
    it(`leaves alone: ${input}`, () => assert.equal(maskTokens(input), input));
  }

  it('masks inside JSON text, after an escaped newline, without breaking the JSON', () => {
    const key = `${'sk-ant-'}${body(40)}`;
    const json = JSON.stringify({ line: `auth failed\n${key}`, nested: `{"api_key":"0123456789abcdef0123"}` });
    const out = maskTokens(json);
    assert.ok(!out.includes(key) && !out.includes('0123456789abcdef0123'), out);
    assert.deepEqual(JSON.parse(out), { line: 'auth failed\n***', nested: '{"api_key":"***"}' });
  });

  it('names a secret by a whole segment of the identifier, not by a part of a word', () => {
    for (const n of ['api_key', 'apiKey', 'X-Api-Key', 'MY_API_TOKEN', 'accessToken', 'APIKEY', 'client_secret', 'db.password']) assert.ok(namesSecret(n), n);
    for (const n of ['tokenizer', 'keyboard', 'monkey', 'author', 'passage', 'max_tokenizer_len']) assert.ok(!namesSecret(n), n);
  });
});

describe('secret masker: known values', () => {
  it('masks every value, longest first, inside words and JSON-escaped, and keeps the text around', () => {
    const m = new SecretMasker();
    m.add('plain-value-1', 'plain-value-1-longer', 'q"uo\\ted');
    assert.equal(m.redact('a=plain-value-1-longer;b=xplain-value-1x'), 'a=***;b=x***x');
    assert.equal(m.redact(JSON.stringify({ v: 'q"uo\\ted' })), '{"v":"***"}');
    m.remove('plain-value-1');
    assert.equal(m.redact('plain-value-1'), 'plain-value-1');
  });

  it('does not mask values under 6 characters, and names them once per scope', () => {
    const m = new SecretMasker();
    m.addNamed('agent-a', { DEBUG: '1', REGION: 'eu', TOKEN: 'long-enough-value', EMPTY: '' });
    assert.equal(m.redact('DEBUG=1 REGION=eu TOKEN=long-enough-value'), 'DEBUG=1 REGION=eu TOKEN=***');
    assert.deepEqual(m.takeShortNames('agent-a'), ['DEBUG', 'REGION']);
    assert.deepEqual(m.takeShortNames('agent-a'), [], 'said once');
    m.addNamed('agent-a', { DEBUG: '2', MODE: 'x' });
    assert.deepEqual(m.takeShortNames('agent-a'), ['MODE'], 'only the new name');
    assert.deepEqual(m.takeShortNames('agent-b'), []);
  });

  it('also masks token shapes that were never registered', () => {
    assert.equal(new SecretMasker().redact('Authorization: Bearer abc123DEF456ghi789'), 'Authorization: Bearer ***');
  });

  it('maskStrings masks every string of a JSON value, not the keys', () => {
    const m = new SecretMasker();
    m.add('the-secret-value');
    const value = { k: 'e', i: 2, e: { kind: 'notice', text: 'got the-secret-value', list: ['the-secret-value', 3, null, true] }, 'the-secret-value': 1 };
    assert.deepEqual(maskStrings(value, (t) => m.redact(t)), { k: 'e', i: 2, e: { kind: 'notice', text: 'got ***', list: ['***', 3, null, true] }, 'the-secret-value': 1 });
    assert.equal(value.e.text, 'got the-secret-value', 'the original is not changed');
  });
});

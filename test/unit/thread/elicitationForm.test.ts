import * as assert from 'node:assert/strict';
import type { ElicitationSchema } from '../../../src/acp/schema/types.gen';
import { zElicitationSchema } from '../../../src/acp/schema/zod.gen';
import type { ElicitationFormView } from '../../../src/shared/elicitationModel';
import { defaultValues, fieldError, formFromSchema, validateForm } from '../../../src/thread/view/elicitationForm';

/** The schema as the connection hands it over: validated by the generated zod schema. */
function form(schema: unknown): ElicitationFormView {
  const built = formFromSchema(zElicitationSchema.parse(schema) as ElicitationSchema);
  assert.ok(built.ok, built.ok ? '' : built.error);
  return built.form;
}

const every = {
  type: 'object', title: 'Project', description: 'Details',
  properties: {
    name: { type: 'string', title: 'Name', minLength: 3, maxLength: 8, pattern: '^[a-z-]+$' },
    email: { type: 'string', format: 'email' },
    home: { type: 'string', format: 'uri' },
    day: { type: 'string', format: 'date' },
    at: { type: 'string', format: 'date-time' },
    license: { type: 'string', enum: ['MIT', 'Apache-2.0'], default: 'MIT' },
    env: { type: 'string', oneOf: [{ const: 'stg', title: 'Staging' }, { const: 'prd', title: 'Production' }] },
    size: { type: 'number', minimum: 0, maximum: 10.5 },
    seats: { type: 'integer', minimum: 1, maximum: 5, default: 2 },
    private: { type: 'boolean', default: true },
    langs: { type: 'array', items: { anyOf: [{ const: 'ts', title: 'TypeScript' }, { const: 'rs', title: 'Rust' }] }, minItems: 1, maxItems: 1, default: ['ts'] },
    tags: { type: 'array', items: { type: 'string', enum: ['web', 'cli'] } },
  },
  required: ['name', 'email', 'langs'],
};

describe('elicitation form: schema → form model', () => {
  it('turns every property type into its field, in order, with titles, choices, bounds and defaults', () => {
    const f = form(every);
    assert.equal(f.title, 'Project');
    assert.equal(f.description, 'Details');
    assert.deepEqual(f.fields.map((x) => [x.name, x.kind, x.required]), [
      ['name', 'text', true], ['email', 'text', true], ['home', 'text', false], ['day', 'text', false], ['at', 'text', false],
      ['license', 'select', false], ['env', 'select', false], ['size', 'number', false], ['seats', 'number', false],
      ['private', 'boolean', false], ['langs', 'multiSelect', true], ['tags', 'multiSelect', false],
    ]);
    const [name, email] = f.fields;
    assert.deepEqual(name, { name: 'name', title: 'Name', required: true, kind: 'text', minLength: 3, maxLength: 8, pattern: '^[a-z-]+$' });
    assert.equal(email.title, 'email', 'the property name when there is no title');
    assert.deepEqual(f.fields[6].kind === 'select' && f.fields[6].options, [{ value: 'stg', title: 'Staging' }, { value: 'prd', title: 'Production' }]);
    assert.deepEqual(f.fields[11].kind === 'multiSelect' && f.fields[11].options, [{ value: 'web', title: 'web' }, { value: 'cli', title: 'cli' }]);
    assert.equal(f.fields[8].kind === 'number' && f.fields[8].integer, true);
    assert.deepEqual(defaultValues(f), { license: 'MIT', seats: 2, private: true, langs: ['ts'] });
  });

  it('refuses a pattern that is not a regular expression; shows an unknown property type as unsupported', () => {
    const bad = formFromSchema(zElicitationSchema.parse({ properties: { x: { type: 'string', pattern: '(' } } }) as ElicitationSchema);
    assert.equal(bad.ok, false);
    const f = form({ properties: { when: { type: 'x-color' } }, required: ['when'] });
    assert.deepEqual(f.fields[0], { name: 'when', title: 'when', required: true, kind: 'unsupported', type: 'x-color' });
    assert.match(fieldError(f.fields[0], '#fff') ?? '', /cannot fill a field of type "x-color"/);
  });
});

describe('elicitation form: validation', () => {
  const f = form(every);
  const good = { name: 'my-app', email: 'me@example.com', langs: ['ts'] };

  it('accepts valid values: empty optional fields left out, numbers typed as text become numbers', () => {
    const r = validateForm(f, { ...good, home: '', size: '2.5', seats: '3', private: false, tags: [], at: '2026-01-02T10:00:00Z', day: '2026-01-02' });
    assert.deepEqual(r, { ok: true, content: { name: 'my-app', email: 'me@example.com', langs: ['ts'], size: 2.5, seats: 3, private: false, at: '2026-01-02T10:00:00Z', day: '2026-01-02' } });
  });

  it('reports each refused value at its field', () => {
    const r = validateForm(f, { name: 'AB', email: 'nope', home: 'not a uri', day: '02/01/2026', at: 'tomorrow', license: 'GPL', size: '11', seats: '2.5', langs: [], tags: ['web', 'gui'] });
    assert.equal(r.ok, false);
    const errors = r.ok ? {} : r.errors;
    assert.deepEqual(Object.keys(errors).sort(), ['at', 'day', 'email', 'home', 'langs', 'license', 'name', 'seats', 'size', 'tags']);
    assert.match(errors.name, /at least 3 characters/);
    assert.match(errors.email, /email address/);
    assert.match(errors.day, /YYYY-MM-DD/);
    assert.match(errors.size, /10\.5 or less/);
    assert.match(errors.seats, /whole number/);
    assert.match(errors.langs, /Pick at least 1/);
  });

  it('checks the pattern and maxLength, required fields and unknown keys', () => {
    assert.match(fieldError(f.fields[0], 'abc1') ?? '', /pattern/);
    assert.match(fieldError(f.fields[0], 'abcdefghij') ?? '', /at most 8/);
    const r = validateForm(f, { email: 'me@example.com', langs: ['rs'], extra: 'x' });
    assert.deepEqual(r.ok ? {} : r.errors, { name: 'Required.', extra: 'Not a field of this form.' });
    assert.equal(fieldError(f.fields[7], 'abc'), 'Enter a number.');
  });
});

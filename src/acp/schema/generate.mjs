#!/usr/bin/env node
// @ts-check
// Generates the ACP wire types and zod schemas from the official JSON Schema that ships inside the
// pinned @agentclientprotocol/sdk (schema/v1/schema.unstable.json: the stable schema plus the unstable
// additions, so that unstable messages are tolerated; schema.json tells which methods are stable).
//
//   npm run generate            writes zod.gen.ts, types.gen.ts, methods.gen.ts next to this file, and the same
//                               three for the ACP v2 draft (schema/v2) into v2/ (`--v2`: that one only)
//   node generate.mjs --check   exits 1 when the committed files differ from a fresh generation (with --v2: of v2)
//
// Fix-ups live here, never as hand edits of the output (the next generation would drop them, and --check
// fails on them):
//  - the schemas use zod's functional `zod/mini` API: bundled, it is a few KB where zod's classic API brings
//    the whole library (docs/performance.md, "Start fast, ship small"); validation is the same;
//  - every object is a loose object (runtime.ts `looseObject`: zod/mini's, on zod's compiled object parser):
//    unknown fields pass through (ACP extensibility,
//    https://agentclientprotocol.com/protocol/extensibility);
//  - `x-deserialize-default-on-error` / `-default-on-null` / `-skip-invalid-items` are honoured the way the
//    SDK's resilient deserializer does, so one malformed optional field or array item never loses a message;
//  - unions whose alternatives all carry a string `const` on one key become z.discriminatedUnion (one map
//    lookup instead of trying every alternative, the SDK's hot-path cost), and their variants are exported as
//    a `<Name>Variants` record so callers can tell an unknown tag (log and ignore) from a malformed known one.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
// the SDK's `exports` hide package.json and schema/, so locate the package folder on disk
const sdkDir = path.join(path.dirname(createRequire(import.meta.url).resolve('zod')).replace(/node_modules[\\/]zod.*$/, 'node_modules'), '@agentclientprotocol', 'sdk');
const sdkPkg = JSON.parse(fs.readFileSync(path.join(sdkDir, 'package.json'), 'utf8'));
// `--v2`: the ACP v2 draft's schemas, into v2/ (the client speaks it behind switchboard.experimental.protocolV2:
// docs/acp-v2.md)
const schemaVersion = process.argv.includes('--v2') ? 'v2' : 'v1';
const outDir = schemaVersion === 'v2' ? path.join(here, 'v2') : here;
const runtimeImport = schemaVersion === 'v2' ? '../runtime' : './runtime';
const unstable = JSON.parse(fs.readFileSync(path.join(sdkDir, `schema/${schemaVersion}/schema.unstable.json`), 'utf8'));
const stable = JSON.parse(fs.readFileSync(path.join(sdkDir, `schema/${schemaVersion}/schema.json`), 'utf8'));
/** @type {Record<string, any>} */
const defs = unstable.$defs;
const stableDefs = new Set(Object.keys(stable.$defs));

const refName = (/** @type {string} */ ref) => ref.split('/').pop() ?? ref;
const isObj = (/** @type {unknown} */ v) => typeof v === 'object' && v !== null && !Array.isArray(v);

// ---- dependency order (the schema has no cycles; checked below) ----
/** @param {unknown} node @param {Set<string>} acc */
function collectRefs(node, acc = new Set()) {
  if (Array.isArray(node)) node.forEach((n) => collectRefs(n, acc));
  else if (isObj(node)) {
    const o = /** @type {Record<string, unknown>} */ (node);
    if (typeof o.$ref === 'string') acc.add(refName(o.$ref));
    Object.values(o).forEach((v) => collectRefs(v, acc));
  }
  return acc;
}
/** @type {string[]} */
const order = [];
/** @type {Record<string, number>} */
const state = {};
function visit(/** @type {string} */ name, /** @type {string[]} */ stack) {
  if (state[name] === 2) return;
  if (state[name] === 1) throw new Error(`schema cycle: ${[...stack, name].join(' > ')} (generator needs z.lazy support)`);
  state[name] = 1;
  for (const dep of [...collectRefs(defs[name])].sort()) visit(dep, [...stack, name]);
  state[name] = 2;
  order.push(name);
}
Object.keys(defs).sort().forEach((n) => visit(n, []));

// ---- which defs produce a plain loose object (so variants can `z.extend` them) ----
/** @type {Map<string, 'object' | 'other'>} */
const defKind = new Map();

/** Property schema of a discriminated alternative: the key and its const, or undefined. */
function tagOf(/** @type {any} */ alt) {
  if (!isObj(alt) || !isObj(alt.properties)) return undefined;
  for (const [k, v] of Object.entries(alt.properties)) {
    if (isObj(v) && typeof v.const === 'string' && (alt.required ?? []).includes(k)) return { key: k, value: v.const };
  }
  return undefined;
}

const str = (/** @type {unknown} */ v) => JSON.stringify(v);

/**
 * Zod expression for a schema node.
 * @param {any} node
 * @returns {{ expr: string, object: boolean }} object: the expression is a loose object (extendable)
 */
function gen(node) {
  // no constraint but annotations (e.g. `rawInput`, `rawOutput`: any JSON value, also a string or an array)
  if (node === true || node === undefined || (isObj(node) && Object.keys(node).every((k) => k === 'description' || k === 'title' || k.startsWith('x-')))) {
    return { expr: 'z.unknown()', object: false };
  }
  if (node.$ref) {
    const n = refName(node.$ref);
    return { expr: `z${n}`, object: defKind.get(n) === 'object' };
  }
  if (node.const !== undefined) return { expr: `z.literal(${str(node.const)})`, object: false };
  if (Array.isArray(node.enum)) {
    return node.enum.every((/** @type {unknown} */ e) => typeof e === 'string')
      ? { expr: `z.enum(${str(node.enum)})`, object: false }
      : { expr: `z.union([${node.enum.map((/** @type {unknown} */ e) => `z.literal(${str(e)})`).join(', ')}])`, object: false };
  }
  const alts = node.oneOf ?? node.anyOf;
  if (Array.isArray(alts) && !node.properties) return genUnion(alts, node);
  if (Array.isArray(node.allOf) && !node.properties && !alts) {
    if (node.allOf.length === 1) return gen(node.allOf[0]);
    return { expr: node.allOf.map((/** @type {any} */ a) => gen(a).expr).reduce((a, b) => `z.intersection(${a}, ${b})`), object: false };
  }
  const type = node.type;
  if (Array.isArray(type)) {
    const nonNull = type.filter((t) => t !== 'null');
    const inner = nonNull.length === 1 ? gen({ ...node, type: nonNull[0] }) : { expr: `z.union([${nonNull.map((t) => gen({ ...node, type: t }).expr).join(', ')}])`, object: false };
    return type.includes('null') ? { expr: `z.nullable(${inner.expr})`, object: false } : inner;
  }
  switch (type) {
    case 'string': return { expr: 'z.string()', object: false };
    case 'integer': return { expr: 'z.int()', object: false };
    case 'number': return { expr: 'z.number()', object: false };
    case 'boolean': return { expr: 'z.boolean()', object: false };
    case 'null': return { expr: 'z.null()', object: false };
    case 'array': {
      const item = gen(node.items ?? true).expr;
      return { expr: node['x-deserialize-skip-invalid-items'] ? `skipInvalidItems(${item})` : `z.array(${item})`, object: false };
    }
    case 'object':
    case undefined: {
      if (node.properties || node.allOf || alts) return genObject(node);
      const ap = node.additionalProperties;
      return { expr: `z.record(z.string(), ${isObj(ap) ? gen(ap).expr : 'z.unknown()'})`, object: false };
    }
    default: throw new Error(`unsupported type ${str(type)}`);
  }
}

/** Shape entries (`key: expr`) for an object node's own properties. */
function shapeOf(/** @type {any} */ node) {
  const required = new Set(node.required ?? []);
  return Object.entries(node.properties ?? {}).map(([k, p]) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : str(k)}: ${property(p, required.has(k))}`);
}

/** A property expression with optionality and the x-deserialize-* fix-ups. */
function property(/** @type {any} */ p, /** @type {boolean} */ required) {
  let expr = gen(p).expr;
  const hasDefault = p.default !== undefined;
  if (p['x-deserialize-default-on-null']) expr = `nullAsDefault(${expr}, ${hasDefault ? str(p.default) : 'undefined'})`;
  if (!required) expr = `z.optional(${expr})`;
  if (p['x-deserialize-default-on-error']) {
    expr = required ? `requiredDefaultOnError(${expr}, ${str(p.default ?? (p.type === 'array' || [p.type].flat().includes('array') ? [] : null))})` : `z.catch(${expr}, ${hasDefault ? str(p.default) : 'undefined'})`;
  }
  return expr;
}

/** An object, possibly built on refs (allOf) and split into variants (oneOf/anyOf with a tag). */
function genObject(/** @type {any} */ node) {
  const built = build('', node.allOf ?? [], shapeOf(node));
  const alts = node.oneOf ?? node.anyOf;
  if (!Array.isArray(alts)) return built;
  if (!built.object) throw new Error('a union over a non-object base is not supported');
  return genUnion(alts, node, built.expr);
}

/**
 * An object from an optional base object, `allOf` parts and own properties: loose objects are merged with
 * `z.extend(base, part.shape)` (so the result stays extendable and loose); anything else becomes an intersection.
 * @param {string} base @param {any[]} parts @param {string[]} shape
 */
function build(base, parts, shape) {
  let expr = base;
  let object = true;
  for (const part of parts) {
    if (!expr) { const g = gen(part); expr = g.object ? g.expr : `z.intersection(looseObject({}), ${g.expr})`; object = g.object; continue; }
    const g = gen(part);
    if (object && g.object) expr = `z.extend(${expr}, ${g.expr}.shape)`;
    else { expr = `z.intersection(${expr}, ${g.expr})`; object = false; }
  }
  if (!expr) return { expr: `looseObject({ ${shape.join(', ')} })`, object: true };
  if (shape.length) expr = object ? `z.extend(${expr}, { ${shape.join(', ')} })` : `z.intersection(${expr}, looseObject({ ${shape.join(', ')} }))`;
  return { expr, object };
}

/**
 * A union. Tagged alternatives ({properties:{tag:{const}}, allOf:[{$ref}]}) become a discriminated union;
 * `base`, when given, is the shared object the variants extend (objects with common fields plus oneOf).
 */
function genUnion(/** @type {any[]} */ alts, /** @type {any} */ node, base = '') {
  const nonNull = alts.filter((a) => !(isObj(a) && a.type === 'null'));
  const nullable = nonNull.length !== alts.length;
  const wrap = (/** @type {string} */ e) => (nullable ? `z.nullable(${e})` : e);
  if (nonNull.length === 1 && !base) return { expr: wrap(gen(nonNull[0]).expr), object: false };
  // open or closed string enums written as oneOf of consts (+ maybe a free string)
  if (!base && nonNull.every((a) => (isObj(a) && (a.const !== undefined || a.type === 'string') && !a.properties))) {
    if (nonNull.some((a) => a.const === undefined)) return { expr: wrap('z.string()'), object: false };
    return { expr: wrap(`z.enum(${str(nonNull.map((a) => a.const))})`), object: false };
  }
  const tags = nonNull.map(tagOf);
  const variant = (/** @type {any} */ a) => build(base, a.allOf ?? [], shapeOf(a)).expr;
  const key = tags[0]?.key;
  if (key && tags.every((t) => t && t.key === key)) {
    const list = nonNull.map(variant);
    variantRecords.push({ key, values: tags.map((t) => /** @type {{value: string}} */ (t).value), list });
    return { expr: wrap(`z.discriminatedUnion(${str(key)}, [${list.join(', ')}])`), object: false };
  }
  // partially tagged (e.g. AuthMethod: a missing `type` means "agent"): try tagged variants first
  const ordered = nonNull.map((a, i) => ({ a, t: tags[i] })).sort((x, y) => Number(!x.t) - Number(!y.t));
  return { expr: wrap(`z.union([${ordered.map(({ a }) => (a.properties || a.allOf ? variant(a) : gen(a).expr)).join(', ')}])`), object: false };
}

/** @type {{key: string, values: string[], list: string[]}[]} */
let variantRecords = [];

const doc = (/** @type {unknown} */ d) => {
  if (typeof d !== 'string' || !d.trim()) return '';
  const first = d.split('\n\n')[0].replace(/\*\//g, '*\\/').split('\n').map((l) => ` * ${l}`.trimEnd()).join('\n');
  return `/**\n${first}\n */\n`;
};

const header = `// GENERATED by src/acp/schema/generate.mjs from @agentclientprotocol/sdk@${sdkPkg.version} schema/${schemaVersion}/schema.unstable.json.
// Do not edit by hand: change the generator and run \`npm run generate\`.
/* eslint-disable */
`;

let zod = `${header}import * as z from 'zod/mini';\nimport { looseObject, nullAsDefault, requiredDefaultOnError, skipInvalidItems } from '${runtimeImport}';\n\n`;
let types = `${header}import type * as z from 'zod/mini';\nimport type * as s from './zod.gen';\n\n`;
for (const name of order) {
  variantRecords = [];
  const g = gen(defs[name]);
  defKind.set(name, g.object ? 'object' : 'other');
  const d = doc(defs[name].description);
  const status = stableDefs.has(name) ? '' : ' (UNSTABLE: only in the draft schema)';
  zod += `${d}export const z${name} = ${g.expr};\n`;
  if (variantRecords.length === 1 && !defs[name].properties) {
    // exported per-tag variants, e.g. zSessionUpdateVariants.agent_message_chunk
    const { values, list } = variantRecords[0];
    zod += `/** The variants of {@link z${name}}, by their \`${variantRecords[0].key}\` tag. */\nexport const z${name}Variants = { ${values.map((v, i) => `${str(v)}: ${list[i]}`).join(', ')} } as const;\n`;
  }
  zod += '\n';
  types += `${d ? d.replace(/\n \*\/\n$/, `${status}\n */\n`) : status ? `/**${status} */\n` : ''}export type ${name} = z.output<typeof s.z${name}>;\n`;
}

// ---- methods: direction, params/result schemas, stable or not ----
/** @type {Record<string, {side: string, request?: string, response?: string, notification?: string}>} */
const methods = {};
for (const [name, d] of Object.entries(defs)) {
  const m = d['x-method'];
  if (!m) continue;
  const kind = name.endsWith('Request') ? 'request' : name.endsWith('Response') ? 'response' : 'notification';
  methods[`${d['x-side']}:${m}`] ??= { side: d['x-side'] };
  methods[`${d['x-side']}:${m}`][kind] = name;
}
const stableMethods = new Set(Object.values(stable.$defs).map((/** @type {any} */ d) => d['x-method']).filter(Boolean));
const table = (/** @type {string} */ side, /** @type {'request'|'notification'} */ kind) => Object.entries(methods)
  .filter(([, m]) => m.side === side && m[kind])
  .map(([k, m]) => {
    const method = k.slice(k.indexOf(':') + 1);
    const res = kind === 'request' ? `, result: s.z${m.response}` : '';
    return `  ${str(method)}: { params: s.z${m[kind]}${res}, stable: ${stableMethods.has(method)} },`;
  }).sort().join('\n');
const methodsTs = `${header}import * as s from './zod.gen';

/** Requests the agent serves (the client calls them), with their zod schemas. */
export const agentRequests = {
${table('agent', 'request')}
} as const;

/** Requests the client serves (the agent calls them). */
export const clientRequests = {
${table('client', 'request')}
} as const;

/** Notifications the agent receives. */
export const agentNotifications = {
${table('agent', 'notification')}
} as const;

/** Notifications the client receives. */
export const clientNotifications = {
${table('client', 'notification')}
} as const;

/** Notifications either side may send (\`$/cancel_request\`). */
export const protocolNotifications = {
${table('protocol', 'notification')}
} as const;

/** The protocol version these schemas describe. */
export const protocolVersion = ${schemaVersion === 'v2' ? 2 : Number(stable.$defs.ProtocolVersion?.default ?? 1) || 1};
/** The SDK release the schemas were generated from. */
export const schemaSource = ${str(`@agentclientprotocol/sdk@${sdkPkg.version}`)};
`;

const out = { 'zod.gen.ts': zod, 'types.gen.ts': types, 'methods.gen.ts': methodsTs };
if (process.argv.includes('--check')) {
  const drift = Object.entries(out).filter(([f, text]) => {
    const p = path.join(outDir, f);
    return !fs.existsSync(p) || fs.readFileSync(p, 'utf8') !== text;
  }).map(([f]) => f);
  if (drift.length) {
    console.error(`schema drift: ${drift.join(', ')} differ from a fresh generation; run \`npm run generate\``);
    process.exit(1);
  }
  console.log(`schema ${schemaVersion} up to date (${Object.keys(defs).length} definitions from ${schemaSource()})`);
} else {
  fs.mkdirSync(outDir, { recursive: true });
  for (const [f, text] of Object.entries(out)) fs.writeFileSync(path.join(outDir, f), text);
  console.log(`generated ${path.relative(here, outDir) || '.'}/{${Object.keys(out).join(', ')}}: ${Object.keys(defs).length} definitions from ${schemaSource()}`);
}
function schemaSource() { return `@agentclientprotocol/sdk@${sdkPkg.version}`; }

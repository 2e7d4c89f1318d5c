// Tint, Chromium's WGSL compiler, as a checker for the translator's WGSL (tests/tint.rs drives it).
//
// Dawn's node binding with its null backend runs Tint's whole front end (parsing, resolution,
// const-expression evaluation, uniformity analysis) and WebGPU's pipeline validation, with no GPU.
// One long-lived process speaks newline-delimited JSON: one request per stdin line, one reply per
// stdout line carrying the request's `id`, in request order.
//
// Requests:
//   {"id": N, "op": "module", "code": WGSL}
//     -> {"id": N, "messages": [MESSAGE...]}
//   {"id": N, "op": "pipeline", "vertex": {"code", "entry"}, "fragment": {"code", "entry"},
//    "groups": [[ENTRY...]...], "vertex_locations": [N...], "targets": [{"format", "write": BOOL}...],
//    "depth": FORMAT|null}
//     -> {"id": N, "vertex": [MESSAGE...], "fragment": [MESSAGE...], "error": TEXT|null}
//   ENTRY: {"binding", "visibility": "vertex"|"fragment", "kind": "uniform", "min_size"}
//        | {"binding", "visibility", "kind": "texture", "dimension": "2d"|"cube"|"3d", "depth": BOOL}
//        | {"binding", "visibility", "kind": "sampler", "comparison": BOOL}
//   MESSAGE: {"type": "error"|"warning"|"info", "line", "column", "message"}
// A request that cannot be handled gets {"id": N, "fatal": TEXT}.

import readline from 'node:readline';
import { create, globals } from 'webgpu';

Object.assign(globalThis, globals);

const gpu = create(['backend=null']);
const adapter = await gpu.requestAdapter();
if (!adapter) {
  process.stderr.write('tint check: Dawn found no adapter for backend=null\n');
  process.exit(2);
}
// User clip planes need the optional feature `clip-distances` (ShaderKey::clip_planes says the
// pipeline must allow clip distances); everything else is core WebGPU with the adapter's limits.
const requiredLimits = {};
for (const name in adapter.limits) requiredLimits[name] = adapter.limits[name];
const device = await adapter.requestDevice({ requiredFeatures: ['clip-distances'], requiredLimits });

// Every call that can fail runs inside an error scope, pushed and popped with no `await` between:
// dawn.node prints uncaptured errors on stdout, which would corrupt the replies.
//
// The last few modules are kept by source text: pipelines often share a stage (fuzz-diff's
// partner shaders, vkd3d's pass-through vertex shaders), which is then compiled once.
const MODULE_CACHE_SIZE = 64;
const modules = new Map();

function shaderModule(code) {
  const cached = modules.get(code);
  if (cached) return cached;
  device.pushErrorScope('validation');
  const module = device.createShaderModule({ code });
  device.popErrorScope(); // the module's compilation messages carry the same errors
  modules.set(code, module);
  if (modules.size > MODULE_CACHE_SIZE) modules.delete(modules.keys().next().value);
  return module;
}

async function messages(module) {
  const info = await module.getCompilationInfo();
  return info.messages.map((m) => ({ type: m.type, line: m.lineNum, column: m.linePos, message: m.message }));
}

async function compileModule(req) {
  return { messages: await messages(shaderModule(req.code)) };
}

const STAGES = { vertex: GPUShaderStage.VERTEX, fragment: GPUShaderStage.FRAGMENT };

function layoutEntry(e) {
  const visibility = STAGES[e.visibility];
  if (visibility === undefined) throw new Error(`binding ${e.binding}: unknown visibility ${e.visibility}`);
  const base = { binding: e.binding, visibility };
  switch (e.kind) {
    case 'uniform':
      return { ...base, buffer: { type: 'uniform', minBindingSize: e.min_size ?? 0 } };
    case 'texture':
      return {
        ...base,
        texture: { sampleType: e.depth ? 'depth' : 'float', viewDimension: e.dimension, multisampled: false },
      };
    case 'sampler':
      return { ...base, sampler: { type: e.comparison ? 'comparison' : 'filtering' } };
    default:
      throw new Error(`binding ${e.binding}: unknown kind ${e.kind}`);
  }
}

function vertexBuffers(locations) {
  if (locations.length === 0) return [];
  const attributes = locations.map((loc, i) => ({ format: 'float32x4', offset: 16 * i, shaderLocation: loc }));
  return [{ arrayStride: 16 * locations.length, stepMode: 'vertex', attributes }];
}

const BYTES_PER_SAMPLE = { rgba8unorm: 4, rgba16float: 8, rgba32float: 16 };

// The colour targets. Dawn's null adapter grants WebGPU's default 32 colour-attachment bytes per
// sample; a case with more (fuzz-diff's four rgba32float targets) is checked with rgba16float
// instead: the same sample type (float), so the same shader outputs match it.
function colorTargets(targets) {
  const bytes = targets.reduce((n, t) => n + (BYTES_PER_SAMPLE[t.format] ?? 16), 0);
  const narrow = bytes > device.limits.maxColorAttachmentBytesPerSample;
  return targets.map((t) => ({
    format: narrow && t.format === 'rgba32float' ? 'rgba16float' : t.format,
    // A target the pixel shader does not write keeps its contents: an empty write mask.
    writeMask: t.write ? GPUColorWrite.ALL : 0,
  }));
}

function pipelineDescriptor(req, vs, fs, layout) {
  return {
    layout,
    vertex: { module: vs, entryPoint: req.vertex.entry, buffers: vertexBuffers(req.vertex_locations) },
    fragment: {
      module: fs,
      entryPoint: req.fragment.entry,
      targets: colorTargets(req.targets),
    },
    primitive: { topology: 'triangle-list' },
    depthStencil: req.depth ? { format: req.depth, depthWriteEnabled: true, depthCompare: 'always' } : undefined,
  };
}

async function createPipeline(req) {
  const vs = shaderModule(req.vertex.code);
  const fs = shaderModule(req.fragment.code);
  const entries = req.groups.map((group) => group.map(layoutEntry));
  device.pushErrorScope('validation');
  let scope;
  try {
    const bindGroupLayouts = entries.map((e) => device.createBindGroupLayout({ entries: e }));
    const layout = device.createPipelineLayout({ bindGroupLayouts });
    device.createRenderPipeline(pipelineDescriptor(req, vs, fs, layout));
  } finally {
    scope = device.popErrorScope();
  }
  const [vertex, fragment, error] = await Promise.all([messages(vs), messages(fs), scope]);
  return { vertex, fragment, error: error ? error.message : null };
}

const OPS = { module: compileModule, pipeline: createPipeline };

function reply(obj) {
  process.stdout.write(JSON.stringify(obj) + '\n');
}

async function handle(line) {
  let req;
  try {
    req = JSON.parse(line);
  } catch (e) {
    reply({ id: null, fatal: `bad JSON: ${e.message}` });
    return;
  }
  try {
    const op = OPS[req.op];
    if (!op) throw new Error(`unknown op ${req.op}`);
    reply({ id: req.id, ...(await op(req)) });
  } catch (e) {
    reply({ id: req.id, fatal: String(e && e.message ? e.message : e) });
  }
}

// Requests run one at a time: dawn.node 0.6.2 crashes (or hangs) with a few dozen
// getCompilationInfo calls in flight at once.
const queue = [];
let closed = false;
let wake = null;
const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on('line', (line) => {
  if (line.trim() === '') return;
  queue.push(line);
  if (wake) wake();
});
lines.on('close', () => {
  closed = true;
  if (wake) wake();
});
for (;;) {
  if (queue.length > 0) {
    await handle(queue.shift());
  } else if (closed) {
    break;
  } else {
    await new Promise((resolve) => {
      wake = () => {
        wake = null;
        resolve();
      };
    });
  }
}
// Dawn keeps the event loop alive: leave explicitly once every reply is written.
process.stdout.write('', () => process.exit(0));

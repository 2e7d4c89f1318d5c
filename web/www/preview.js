// The live preview: a full-screen quad drawn with WebGPU, using the translated pixel shader and
// either the given vertex shader or a pass-through that feeds every input the pixel shader reads.
// Bindings follow the translator's documented layout (README, "Binding layout"): the vertex
// shader's resources in group 0, the pixel shader's in group 1; constants at bindings 0–2, the
// render-state block at 3, sampler n's texture at 16 + 2n and its sampler at 17 + 2n.

import { load, translatePair } from "./pkg/d3d9_shader_web.js";

const SIZE = 256;
// Full-screen quad as a triangle strip: clip-space position, then (u, v, 0.5, 1), which the
// pass-through gives to every texture coordinate and colour.
const QUAD = new Float32Array([
  -1, -1, 0, 1, 0, 1, 0.5, 1,
  1, -1, 0, 1, 1, 1, 0.5, 1,
  -1, 1, 0, 1, 0, 0, 0.5, 1,
  1, 1, 0, 1, 1, 0, 0.5, 1,
]);
// Big enough for every declaration of the integer and boolean constants (2048 registers of the
// `_sw` versions) and the render-state block.
const INT_BOOL_BYTES = 2048 * 16;
const RENDER_STATE_BYTES = 1024;

export class Preview {
  constructor(canvas, status) {
    this.canvas = canvas;
    this.status = status;
    this.device = null;
    this.adapterName = "";
    this.pixels = null;
  }

  say(text, error = false) {
    this.status.textContent = text;
    this.status.classList.toggle("error", error);
  }

  /** Finds a WebGPU device; says plainly when there is none. */
  async init() {
    if (!("gpu" in navigator)) {
      this.say("WebGPU is unavailable in this browser (no navigator.gpu): no preview.", true);
      return false;
    }
    const adapter = await navigator.gpu.requestAdapter();
    if (!adapter) {
      this.say("WebGPU is unavailable: the browser offers no adapter, so there is no preview.", true);
      return false;
    }
    const info = adapter.info ?? {};
    this.adapterName = [info.vendor, info.architecture, info.description].filter(Boolean).join(" ");
    this.device = await adapter.requestDevice();
    this.format = navigator.gpu.getPreferredCanvasFormat();
    this.context = this.canvas.getContext("webgpu");
    this.context.configure({ device: this.device, format: this.format, usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC, alphaMode: "premultiplied" });
    this.say("WebGPU ready.");
    return true;
  }

  /** Draws `ps` (a Shader) with `vsText` (assembly or hex, optional) under the keys. */
  async draw(ps, vsText, psKey, constantsText) {
    if (!this.device) return;
    let vs;
    try {
      vs = load(vsText.trim() ? vsText : passThrough(ps.reflection()), { name: "" });
    } catch (e) {
      this.say(`Preview: the vertex shader does not load: ${e.message}`, true);
      return;
    }
    let vt, pt;
    try {
      [vt, pt] = translatePair(vs, ps, {}, psKey);
    } catch (e) {
      this.say(`Preview: cannot link the pair: ${e.message}`, true);
      return;
    }
    const constants = parseConstants(constantsText);
    this.device.pushErrorScope("validation");
    let readBuffer;
    try {
      readBuffer = this.render(vt, pt, constants);
    } catch (e) {
      this.say(`Preview failed: ${e.message}`, true);
      return;
    }
    const error = await this.device.popErrorScope();
    if (error) {
      this.say(`Preview: WebGPU refused the pipeline: ${error.message}`, true);
      return;
    }
    await this.readBack(readBuffer);
    this.say(`Preview: drawn with ${vs.version} + ${ps.version}.`);
  }

  render(vt, pt, constants) {
    const device = this.device;
    const vb = vt.bindings(), pb = pt.bindings();
    const module = (code) => device.createShaderModule({ code });
    const attributes = vb.interface.inputs.filter((s) => s.location != null).map((s) => ({
      shaderLocation: s.location,
      offset: s.usage === "position" ? 0 : 16,
      format: "float32x4",
    }));
    const outputs = pb.interface.outputs.filter((s) => s.location != null);
    const extra = outputs.filter((s) => s.location > 0).map(() => device.createTexture({ size: [SIZE, SIZE], format: "rgba8unorm", usage: GPUTextureUsage.RENDER_ATTACHMENT }));
    const writesDepth = pb.interface.outputs.some((s) => s.builtin === "frag_depth");
    const targets = [];
    for (const s of outputs) targets[s.location] = { format: s.location === 0 ? this.format : "rgba8unorm" };
    for (let i = 0; i < targets.length; i++) targets[i] ??= null;
    const pipeline = device.createRenderPipeline({
      layout: "auto",
      vertex: { module: module(vt.wgsl()), entryPoint: "vs_main", buffers: [{ arrayStride: 32, attributes }] },
      fragment: { module: module(pt.wgsl()), entryPoint: "ps_main", targets },
      primitive: { topology: "triangle-strip" },
      depthStencil: writesDepth ? { format: "depth32float", depthWriteEnabled: true, depthCompare: "always" } : undefined,
    });
    const vertexBuffer = device.createBuffer({ size: QUAD.byteLength, usage: GPUBufferUsage.VERTEX | GPUBufferUsage.COPY_DST });
    device.queue.writeBuffer(vertexBuffer, 0, QUAD);
    const groups = [
      this.bindGroup(pipeline, vb.layout, constants.vertex),
      this.bindGroup(pipeline, pb.layout, constants.pixel),
    ];
    const view = this.context.getCurrentTexture();
    const encoder = device.createCommandEncoder();
    const colorAttachments = [];
    colorAttachments[0] = { view: view.createView(), loadOp: "clear", storeOp: "store", clearValue: [0, 0, 0, 0] };
    outputs.filter((s) => s.location > 0).forEach((s, i) => {
      colorAttachments[s.location] = { view: extra[i].createView(), loadOp: "clear", storeOp: "store", clearValue: [0, 0, 0, 0] };
    });
    for (let i = 0; i < colorAttachments.length; i++) colorAttachments[i] ??= null;
    const depth = writesDepth ? device.createTexture({ size: [SIZE, SIZE], format: "depth32float", usage: GPUTextureUsage.RENDER_ATTACHMENT }) : null;
    const pass = encoder.beginRenderPass({
      colorAttachments,
      depthStencilAttachment: depth ? { view: depth.createView(), depthLoadOp: "clear", depthStoreOp: "store", depthClearValue: 1 } : undefined,
    });
    pass.setPipeline(pipeline);
    groups.forEach((g, i) => g && pass.setBindGroup(i, g));
    pass.setVertexBuffer(0, vertexBuffer);
    pass.draw(4);
    pass.end();
    // Each draw reads back into its own buffer: a later draw may start before this one's map ends.
    const readBuffer = device.createBuffer({ size: SIZE * SIZE * 4, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
    encoder.copyTextureToBuffer({ texture: view }, { buffer: readBuffer, bytesPerRow: SIZE * 4 }, [SIZE, SIZE]);
    device.queue.submit([encoder.finish()]);
    return readBuffer;
  }

  /** The bind group of one stage's layout (`null` when the stage binds nothing). */
  bindGroup(pipeline, layout, values) {
    const device = this.device;
    const entries = [];
    const buffer = (binding, bytes) => {
      const b = device.createBuffer({ size: Math.max(bytes.byteLength, 16), usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
      device.queue.writeBuffer(b, 0, bytes);
      entries.push({ binding, resource: { buffer: b } });
    };
    if (layout.float_constants) {
      const fc = layout.float_constants;
      const registers = Math.min(fc.count, 4096);
      buffer(fc.binding, values.floats.slice(0, registers * 4));
      if (fc.high_binding != null) buffer(fc.high_binding, values.floats.slice(4096 * 4, fc.count * 4));
    }
    if (layout.int_constants != null) buffer(layout.int_constants, values.ints);
    if (layout.bool_constants != null) buffer(layout.bool_constants, values.bools);
    if (layout.render_state != null) buffer(layout.render_state, new Uint8Array(RENDER_STATE_BYTES));
    for (const t of layout.textures) {
      const [texture, viewDimension] = makeTexture(device, t);
      entries.push({ binding: t.texture_binding, resource: texture.createView({ dimension: viewDimension }) });
      entries.push({ binding: t.sampler_binding, resource: makeSampler(device, t) });
    }
    if (entries.length === 0) return null;
    return device.createBindGroup({ layout: pipeline.getBindGroupLayout(layout.group), entries });
  }

  async readBack(buffer) {
    await buffer.mapAsync(GPUMapMode.READ);
    const bytes = new Uint8Array(buffer.getMappedRange().slice(0));
    buffer.unmap();
    buffer.destroy();
    // The canvas format is bgra8unorm or rgba8unorm; keep RGBA.
    if (this.format === "bgra8unorm") {
      for (let i = 0; i < bytes.length; i += 4) [bytes[i], bytes[i + 2]] = [bytes[i + 2], bytes[i]];
    }
    this.pixels = bytes;
  }

  /** The RGBA bytes of the last preview at (x, y), for tests and the page's readout. */
  pixel(x, y) {
    if (!this.pixels) return null;
    const i = (y * SIZE + x) * 4;
    return Array.from(this.pixels.slice(i, i + 4));
  }
}

/** A vs_3_0 program writing position and every varying the pixel shader reads. */
export function passThrough(reflection) {
  const decls = ["vs_3_0", "dcl_position v0", "dcl_texcoord v1", "dcl_position o0"];
  const moves = ["mov o0, v0"];
  const seen = new Set();
  for (const input of reflection.inputs) {
    // ps_1_x/ps_2_x inputs have no declared semantic: t# is TEXCOORD#, v# is COLOR#.
    let semantic = input.usage ? `${input.usage}${input.usage_index}` : null;
    if (!semantic && /^t\d/.test(input.register)) semantic = `texcoord${input.index}`;
    if (!semantic && /^v\d/.test(input.register)) semantic = `color${input.index}`;
    if (!semantic || seen.has(semantic) || semantic.startsWith("position")) continue;
    seen.add(semantic);
    const o = seen.size;
    decls.push(`dcl_${semantic} o${o}`);
    moves.push(`mov o${o}, v1`);
  }
  return decls.concat(moves).join("\n");
}

/**
 * Constants from text: `c0 = 1, 0.5, 0.25, 1`, `i0 = 3, 0, 1, 0`, `b0 = true`, one per line, for
 * the pixel shader; prefix `vs ` for the vertex shader's (which starts with c0–c3 the identity,
 * so that `m4x4 oPos, v0, c0` passes positions through).
 */
export function parseConstants(text) {
  const stage = () => ({ floats: new Float32Array(8192 * 4), ints: new Int32Array(INT_BOOL_BYTES / 4), bools: new Uint32Array(INT_BOOL_BYTES / 4) });
  const out = { vertex: stage(), pixel: stage() };
  for (let i = 0; i < 4; i++) out.vertex.floats[i * 4 + i] = 1;
  for (const raw of text.split("\n")) {
    const m = /^\s*(vs\s+)?([cib])(\d+)\s*=\s*(.*)$/i.exec(raw);
    if (!m) continue;
    const target = m[1] ? out.vertex : out.pixel;
    const n = Number(m[3]);
    const values = m[4].split(/[\s,]+/).filter(Boolean);
    const kind = m[2].toLowerCase();
    if (kind === "c" && n < 8192) values.slice(0, 4).forEach((v, k) => (target.floats[n * 4 + k] = Number(v)));
    if (kind === "i" && n < 2048) values.slice(0, 4).forEach((v, k) => (target.ints[n * 4 + k] = Number(v) | 0));
    if (kind === "b" && n < 2048) target.bools[n] = /^(true|1)$/i.test(values[0] ?? "") ? 1 : 0;
  }
  return out;
}

/** A generated texture for one sampler: a checkerboard with a gradient, a tint per cube face. */
function makeTexture(device, t) {
  const n = t.texture_type === "volume" ? 16 : 64;
  if (t.shadow) {
    // Depth formats that take writeTexture: depth16unorm. A horizontal ramp of depths.
    const dims = t.texture_type === "cube" ? [n, n, 6] : [n, n, 1];
    const texture = device.createTexture({ size: dims, format: "depth16unorm", usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST });
    const data = new Uint16Array(n * n * dims[2]);
    for (let i = 0; i < data.length; i++) data[i] = Math.round(((i % n) / (n - 1)) * 65535);
    device.queue.writeTexture({ texture }, data, { bytesPerRow: n * 2, rowsPerImage: n }, dims);
    return [texture, t.texture_type === "cube" ? "cube" : "2d"];
  }
  const layers = t.texture_type === "cube" ? 6 : t.texture_type === "volume" ? n : 1;
  const texture = device.createTexture({
    size: [n, n, layers],
    dimension: t.texture_type === "volume" ? "3d" : "2d",
    format: "rgba8unorm",
    usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST,
  });
  const data = new Uint8Array(n * n * layers * 4);
  for (let z = 0; z < layers; z++) {
    for (let y = 0; y < n; y++) {
      for (let x = 0; x < n; x++) {
        const i = ((z * n + y) * n + x) * 4;
        const check = ((x >> 3) ^ (y >> 3)) & 1;
        data[i] = (x * 255) / (n - 1);
        data[i + 1] = (y * 255) / (n - 1);
        data[i + 2] = check ? 255 : (z * 255) / Math.max(layers - 1, 1);
        data[i + 3] = 255;
      }
    }
  }
  device.queue.writeTexture({ texture }, data, { bytesPerRow: n * 4, rowsPerImage: n }, [n, n, layers]);
  const dimension = t.texture_type === "cube" ? "cube" : t.texture_type === "volume" ? "3d" : "2d";
  return [texture, dimension];
}

function makeSampler(device, t) {
  const common = { magFilter: "linear", minFilter: "linear", addressModeU: "repeat", addressModeV: "repeat", addressModeW: "repeat" };
  return device.createSampler(t.shadow ? { ...common, compare: "less-equal" } : common);
}

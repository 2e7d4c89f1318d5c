// The playground: the input editor, the key, and every view of the translation, updated as you
// type. All work happens in the page, in the library compiled to WebAssembly (web/src).

import init, { load } from "./pkg/d3d9_shader_web.js";
import examples from "./examples.js";
import { Preview } from "./preview.js";

const $ = (id) => document.getElementById(id);
const source = $("source");

/** Bytes of a dropped or chosen blob, shown in the editor as hex words and read back from it. */
function hexWords(bytes) {
  const words = [];
  for (let i = 0; i + 3 < bytes.length; i += 4) {
    const w = bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24);
    words.push("0x" + (w >>> 0).toString(16).padStart(8, "0"));
  }
  const lines = [];
  for (let i = 0; i < words.length; i += 6) lines.push(words.slice(i, i + 6).join(" "));
  return lines.join("\n") + "\n";
}

function keyObject() {
  const key = {};
  for (const select of document.querySelectorAll("#key [data-key]")) key[select.dataset.key] = select.value;
  for (const field of $("key-more").value.split(/[\s;]+/).filter(Boolean)) {
    const [name, value] = field.split("=");
    if (name && value !== undefined) key[name] = value;
  }
  if ($("swvp").checked) key.swvp = "true";
  return key;
}

function where(e) {
  if (e.token != null) return `token ${e.token} (byte ${e.token * 4})`;
  if (e.line != null) return `line ${e.line}, column ${e.column}`;
  return "";
}

/** The message with its place in front, once: the library's messages mostly name it already. */
function located(e) {
  const at = where(e);
  return !at || e.message.startsWith(at) ? e.message : `${at}: ${e.message}`;
}

function diagnostic(severity, text, onClick) {
  const li = document.createElement("li");
  li.className = severity;
  li.textContent = text;
  if (onClick) li.addEventListener("click", onClick);
  $("diagnostics").append(li);
}

/** Selects line `line` (from 1) of the editor. */
function selectSourceLine(line) {
  const lines = source.value.split("\n");
  const start = lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0);
  source.focus();
  source.setSelectionRange(start, start + (lines[line - 1] ?? "").length);
}

function showListing(text, marked) {
  const out = $("out-listing");
  out.textContent = "";
  text.split("\n").forEach((line, i) => {
    if (line === "" && i > 0) return;
    const span = document.createElement("span");
    span.className = "line" + (marked.has(i + 1) ? " marked" : "");
    span.dataset.line = i + 1;
    const no = document.createElement("span");
    no.className = "no";
    no.textContent = i + 1;
    span.append(no, line);
    out.append(span);
  });
}

function showTab(name) {
  for (const b of document.querySelectorAll("#tabs button")) b.classList.toggle("active", b.dataset.tab === name);
  for (const pre of document.querySelectorAll("pre.out")) pre.hidden = pre.id !== `out-${name}`;
}

function status(text, error = false) {
  $("status").textContent = text;
  $("status").classList.toggle("error", error);
}

const preview = new Preview($("preview"), $("gpu-status"));
let pending = null;

async function update() {
  $("diagnostics").textContent = "";
  for (const id of ["out-listing", "out-wgsl", "out-spirv", "out-reflection", "out-bindings"]) $(id).textContent = "";
  if (!source.value.trim()) {
    status("Paste assembly, hex words or an fxc header, or drop a blob.");
    return;
  }
  let shader;
  try {
    shader = load(source.value, { strict: $("strict").checked, swvp: $("swvp").checked });
  } catch (e) {
    status(`${e.kind} error: ${located(e)}`, true);
    diagnostic("error", located(e), e.line != null ? () => selectSourceLine(e.line) : null);
    return;
  }
  const messages = shader.messages();
  showListing(shader.listing(), new Set(messages.map((m) => m.line).filter((l) => l != null)));
  for (const m of messages) {
    const at = m.token != null ? `token ${m.token} (listing line ${m.line}): ` : "";
    diagnostic(m.severity, `${m.severity}: ${at}${m.message}`, () => {
      showTab("listing");
      document.querySelector(`#out-listing [data-line="${m.line}"]`)?.scrollIntoView({ block: "center" });
    });
  }
  if (!shader.valid) {
    status(`${shader.version}: invalid (${messages.filter((m) => m.severity === "error").length} errors).`, true);
    return;
  }
  $("out-reflection").textContent = JSON.stringify(shader.reflection(), null, 2);
  let translation;
  try {
    translation = shader.translate(keyObject());
    $("out-wgsl").textContent = translation.wgsl();
    $("out-spirv").textContent = translation.spirvText();
    $("out-bindings").textContent = JSON.stringify(translation.bindings(), null, 2);
  } catch (e) {
    status(`${e.kind} error: ${located(e)}`, true);
    diagnostic("error", located(e));
    return;
  }
  status(`${shader.version} (${shader.format}): translated; ${messages.length} message(s).`);
  if (shader.stage === "pixel") {
    const key = keyObject();
    delete key.swvp;
    await preview.draw(shader, $("vertex-source").value, key, $("constants").value);
  } else if (preview.device) {
    preview.say("Preview: draws pixel shaders; put a vertex shader in the field below the preview.");
  }
}

function schedule() {
  clearTimeout(pending);
  pending = setTimeout(() => {
    window.playground.done = update().catch((e) => status(`playground error: ${e.message}`, true));
  }, 120);
}

async function readFile(file) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const isBlob = bytes.length >= 4 && (bytes[3] === 0xff && (bytes[2] === 0xfe || bytes[2] === 0xff));
  source.value = isBlob ? hexWords(bytes) : new TextDecoder().decode(bytes);
  schedule();
}

async function main() {
  await init();
  window.playground = { preview, update, done: Promise.resolve() };
  for (const [i, e] of examples.entries()) $("example").append(new Option(e.name, String(i)));
  $("example").addEventListener("change", () => {
    const e = examples[Number($("example").value)];
    if (e) {
      source.value = e.text;
      schedule();
    }
  });
  $("file").addEventListener("change", () => $("file").files[0] && readFile($("file").files[0]));
  source.addEventListener("dragover", (e) => e.preventDefault());
  source.addEventListener("drop", (e) => {
    e.preventDefault();
    if (e.dataTransfer.files[0]) readFile(e.dataTransfer.files[0]);
  });
  for (const el of [source, $("constants"), $("vertex-source"), $("key-more")]) el.addEventListener("input", schedule);
  for (const el of document.querySelectorAll("#key select, #strict, #swvp")) el.addEventListener("change", schedule);
  for (const b of document.querySelectorAll("#tabs button")) b.addEventListener("click", () => showTab(b.dataset.tab));
  await preview.init();
  if (examples.length) {
    source.value = examples[0].text;
    $("example").value = "0";
  }
  window.playground.ready = true;
  schedule();
}

main().catch((e) => status(`The playground did not start: ${e.message}`, true));

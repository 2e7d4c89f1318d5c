//! Tint, Chromium's WGSL compiler, as a checker: a client of `tests/tint/check.mjs`, which runs
//! Dawn's node binding (npm package `webgpu`, pinned in `tests/tint/package.json`) on its null
//! backend. Tint's front end (const-expression evaluation and uniformity analysis included) and
//! WebGPU's pipeline validation run there without a GPU: what a browser would refuse, naga may
//! accept.
//!
//! One node process serves a whole test. Requests are written as they are made and replies are
//! read by a thread of their own, so that Tint compiles while the test translates the next shader
//! (the protocol is described at the top of `check.mjs`). `cargo xtask test` installs the package
//! (`npm ci` in `tests/tint`); without node or the package a test skips loudly, and fails when
//! `REQUIRE_TOOLS=1`.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};

use serde::{Deserialize, Serialize};

/// The `webgpu` package version `tests/tint/package.json` pins.
pub const WEBGPU_VERSION: &str = "0.6.2";

/// The folder of the node package.
pub fn package_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tint")
}

/// The command that installs the package.
pub const INSTALL: &str = "npm ci --prefix tests/tint";

/// One diagnostic of Tint's.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub struct Message {
    /// `error`, `warning` or `info`.
    #[serde(rename = "type")]
    pub kind: String,
    /// 1-based line (0 when the message has no position).
    pub line: u32,
    /// 1-based column.
    pub column: u32,
    /// The text.
    pub message: String,
}

impl Message {
    /// Whether Tint refuses the module for it.
    pub fn is_error(&self) -> bool {
        self.kind == "error"
    }

    /// `line:column: kind: message`, then the offending line of `code` with a caret under the
    /// column (a long line is cut to the 160 characters around the column).
    pub fn render(&self, code: &str) -> String {
        let mut s = format!("{}:{}: {}: {}", self.line, self.column, self.kind, self.message);
        if let Some(text) = (self.line as usize).checked_sub(1).and_then(|n| code.lines().nth(n)) {
            let chars: Vec<char> = text.chars().collect();
            let col = (self.column as usize).saturating_sub(1).min(chars.len());
            let from = col.saturating_sub(80);
            let to = (col + 80).min(chars.len());
            let head = if from > 0 { "…" } else { "" };
            let tail = if to < chars.len() { "…" } else { "" };
            let shown: String = chars[from..to].iter().collect();
            let caret = " ".repeat(col - from + head.chars().count());
            s.push_str(&format!("\n    {head}{shown}{tail}\n    {caret}^"));
        }
        s
    }
}

/// A bind-group layout entry, as `check.mjs` builds it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum LayoutEntry {
    /// A uniform buffer of at least `min_size` bytes (the size the binding layout documents).
    Uniform {
        /// Binding number.
        binding: u32,
        /// `vertex` or `fragment`.
        visibility: &'static str,
        /// The documented size: the shader may not declare more.
        min_size: u64,
    },
    /// A sampled texture.
    Texture {
        /// Binding number.
        binding: u32,
        /// `vertex` or `fragment`.
        visibility: &'static str,
        /// `2d`, `cube` or `3d`.
        dimension: &'static str,
        /// A depth texture (shadow sampler).
        depth: bool,
    },
    /// A sampler.
    Sampler {
        /// Binding number.
        binding: u32,
        /// `vertex` or `fragment`.
        visibility: &'static str,
        /// A comparison sampler (shadow sampler).
        comparison: bool,
    },
}

/// A WGSL module and its entry point.
#[derive(Clone, Debug, Serialize)]
pub struct Stage {
    /// WGSL source.
    pub code: String,
    /// Entry point name.
    pub entry: String,
}

/// A colour target.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Target {
    /// WebGPU format name (`rgba8unorm`, `rgba32float`).
    pub format: &'static str,
    /// Whether the pixel stage writes it (an unwritten target gets an empty write mask).
    pub write: bool,
}

/// A render pipeline to create.
#[derive(Clone, Debug, Serialize)]
pub struct Pipeline {
    /// Vertex stage.
    pub vertex: Stage,
    /// Fragment stage.
    pub fragment: Stage,
    /// Bind group layouts, by group number.
    pub groups: Vec<Vec<LayoutEntry>>,
    /// Vertex attribute locations, each `float32x4` in one interleaved buffer.
    pub vertex_locations: Vec<u32>,
    /// Colour targets 0..n.
    pub targets: Vec<Target>,
    /// Depth attachment format, if any.
    pub depth: Option<&'static str>,
}

/// A request.
#[derive(Clone, Debug)]
pub enum Request {
    /// Compile one module.
    Module(String),
    /// Create a render pipeline.
    Pipeline(Box<Pipeline>),
}

/// Tint's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// A module's messages.
    Module(Vec<Message>),
    /// A pipeline: both modules' messages and the pipeline validation error.
    Pipeline {
        /// Vertex module messages.
        vertex: Vec<Message>,
        /// Fragment module messages.
        fragment: Vec<Message>,
        /// The validation error of `createRenderPipeline`.
        error: Option<String>,
    },
    /// `check.mjs` could not handle the request.
    Fatal(String),
}

#[derive(Deserialize)]
struct RawReply {
    id: Option<u64>,
    messages: Option<Vec<Message>>,
    vertex: Option<Vec<Message>>,
    fragment: Option<Vec<Message>>,
    error: Option<String>,
    fatal: Option<String>,
}

impl RawReply {
    fn into_reply(self) -> Reply {
        match (self.fatal, self.messages, self.vertex, self.fragment) {
            (Some(f), ..) => Reply::Fatal(f),
            (None, Some(m), ..) => Reply::Module(m),
            (None, None, Some(vertex), Some(fragment)) => Reply::Pipeline { vertex, fragment, error: self.error },
            _ => Reply::Fatal("a reply with neither messages nor a pipeline result".into()),
        }
    }
}

/// Why the checker cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum TintError {
    /// node or the npm package is missing.
    #[error("Tint is not available: {0}")]
    Unavailable(String),
    /// The node process failed.
    #[error("the Tint checker process: {0}")]
    Process(String),
}

/// The running checker.
pub struct Tint {
    child: Child,
    stdin: Option<ChildStdin>,
    replies: Receiver<Result<(u64, Reply), String>>,
    next_id: u64,
    in_flight: usize,
}

fn installed_version() -> Option<String> {
    let text = std::fs::read_to_string(package_dir().join("node_modules/webgpu/package.json")).ok()?;
    let json: serde_json::Value = serde_json::from_str(&text).ok()?;
    json.get("version")?.as_str().map(str::to_string)
}

fn read_replies(stdout: std::process::ChildStdout, tx: std::sync::mpsc::Sender<Result<(u64, Reply), String>>) {
    for line in BufReader::new(stdout).lines() {
        let Ok(line) = line else { break };
        // Anything that is no reply (a library printing on stdout) is shown, not parsed.
        if !line.starts_with("{\"id\"") {
            eprintln!("tint check.mjs: {line}");
            continue;
        }
        let parsed = serde_json::from_str::<RawReply>(&line).map_err(|e| format!("bad reply `{line}`: {e}"));
        let sent = match parsed {
            Ok(RawReply { id: None, fatal, .. }) => tx.send(Err(fatal.unwrap_or_else(|| line.clone()))),
            Ok(r) => tx.send(Ok((r.id.unwrap_or_default(), r.into_reply()))),
            Err(e) => tx.send(Err(e)),
        };
        if sent.is_err() {
            break;
        }
    }
}

impl Tint {
    /// Starts `node tests/tint/check.mjs`.
    pub fn start() -> Result<Tint, TintError> {
        let node = Command::new("node").arg("--version").output();
        if !node.is_ok_and(|o| o.status.success()) {
            return Err(TintError::Unavailable(format!(
                "`node` is not installed (Debian: apt-get install nodejs npm; then {INSTALL})"
            )));
        }
        match installed_version() {
            Some(v) if v == WEBGPU_VERSION => {}
            Some(v) => {
                return Err(TintError::Unavailable(format!(
                    "tests/tint has webgpu {v}, not {WEBGPU_VERSION}: run `{INSTALL}`"
                )))
            }
            None => return Err(TintError::Unavailable(format!("tests/tint/node_modules is missing: run `{INSTALL}`"))),
        }
        let mut child = Command::new("node")
            .arg(package_dir().join("check.mjs"))
            .current_dir(package_dir())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| TintError::Process(format!("spawning node: {e}")))?;
        let stdout = child.stdout.take().expect("piped");
        let (tx, replies) = channel();
        std::thread::spawn(move || read_replies(stdout, tx));
        Ok(Tint { stdin: child.stdin.take(), child, replies, next_id: 0, in_flight: 0 })
    }

    /// The checker for test `test`, or `None` (said loudly) when node or the package is missing;
    /// with `REQUIRE_TOOLS=1` a missing checker is a failure.
    pub fn for_test(test: &str) -> Option<Tint> {
        match Tint::start() {
            Ok(t) => Some(t),
            Err(e) if std::env::var_os("REQUIRE_TOOLS").is_some_and(|v| v == "1") => {
                panic!("{test}: REQUIRE_TOOLS=1 but {e}")
            }
            Err(e) => {
                eprintln!("\n*** SKIPPED {test}: {e}; set REQUIRE_TOOLS=1 to make this a failure ***\n");
                None
            }
        }
    }

    /// Requests sent and not yet answered.
    pub fn in_flight(&self) -> usize {
        self.in_flight
    }

    /// Sends a request; its reply comes from [`Tint::poll`] or [`Tint::wait`] under the id returned.
    pub fn submit(&mut self, request: &Request) -> Result<u64, TintError> {
        self.next_id += 1;
        let id = self.next_id;
        let json = match request {
            Request::Module(code) => serde_json::json!({ "id": id, "op": "module", "code": code }),
            Request::Pipeline(p) => {
                let mut v = serde_json::to_value(p).map_err(|e| TintError::Process(e.to_string()))?;
                v["id"] = id.into();
                v["op"] = "pipeline".into();
                v
            }
        };
        let stdin = self.stdin.as_mut().ok_or_else(|| TintError::Process("stdin already closed".into()))?;
        let mut line = json.to_string();
        line.push('\n');
        stdin.write_all(line.as_bytes()).map_err(|e| TintError::Process(format!("writing a request: {e}")))?;
        self.in_flight += 1;
        Ok(id)
    }

    fn receive(&mut self, block: bool) -> Result<Option<(u64, Reply)>, TintError> {
        if self.in_flight == 0 {
            return Ok(None);
        }
        let got = if block {
            self.replies.recv().map_err(|_| TintError::Process("node exited before replying".into()))?
        } else {
            match self.replies.try_recv() {
                Ok(r) => r,
                Err(std::sync::mpsc::TryRecvError::Empty) => return Ok(None),
                Err(_) => return Err(TintError::Process("node exited before replying".into())),
            }
        };
        self.in_flight -= 1;
        got.map(Some).map_err(TintError::Process)
    }

    /// The replies that have arrived, without waiting.
    pub fn poll(&mut self) -> Result<Vec<(u64, Reply)>, TintError> {
        let mut out = Vec::new();
        while let Some(r) = self.receive(false)? {
            out.push(r);
        }
        Ok(out)
    }

    /// Every outstanding reply, by id.
    pub fn wait(&mut self) -> Result<BTreeMap<u64, Reply>, TintError> {
        let mut out = BTreeMap::new();
        while let Some((id, r)) = self.receive(true)? {
            out.insert(id, r);
        }
        Ok(out)
    }

    /// Compiles one module and waits for its messages (other outstanding replies are dropped).
    pub fn check_module(&mut self, code: &str) -> Result<Vec<Message>, TintError> {
        let id = self.submit(&Request::Module(code.to_string()))?;
        match self.wait()?.remove(&id) {
            Some(Reply::Module(m)) => Ok(m),
            Some(Reply::Fatal(f)) => Err(TintError::Process(f)),
            other => Err(TintError::Process(format!("unexpected reply {other:?}"))),
        }
    }

    /// Creates one pipeline and waits for the result (other outstanding replies are dropped).
    pub fn check_pipeline(&mut self, pipeline: Pipeline) -> Result<Reply, TintError> {
        let id = self.submit(&Request::Pipeline(Box::new(pipeline)))?;
        self.wait()?.remove(&id).ok_or_else(|| TintError::Process("no reply".into()))
    }
}

impl Drop for Tint {
    fn drop(&mut self) {
        // Closing stdin lets check.mjs finish what is in flight and exit.
        drop(self.stdin.take());
        let _ = self.child.wait();
    }
}

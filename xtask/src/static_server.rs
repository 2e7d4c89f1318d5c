//! `cargo xtask web --serve`: a static file server on 127.0.0.1 for the playground folder. The
//! page needs nothing from a server but files, with `application/wasm` for the module (browsers
//! compile a module as it streams in only with that type); any static server will do.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};

/// Serves `dir` until the process is stopped.
pub fn serve(dir: &Path, port: u16) -> i32 {
    let listener = match TcpListener::bind(("127.0.0.1", port)) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("xtask web: cannot listen on 127.0.0.1:{port}: {e}");
            return 1;
        }
    };
    println!("web: serving {} at http://127.0.0.1:{port}/ (Ctrl-C stops)", dir.display());
    for stream in listener.incoming().flatten() {
        if let Err(e) = answer(stream, dir) {
            eprintln!("xtask web: {e}");
        }
    }
    0
}

/// Serves `dir` on a free port of 127.0.0.1 from a background thread, for as long as the process
/// lives: the browser test loads the page from the same server `--serve` gives a person.
pub fn spawn(dir: &Path) -> Result<String, String> {
    let listener = TcpListener::bind(("127.0.0.1", 0)).map_err(|e| format!("cannot listen on 127.0.0.1: {e}"))?;
    let port = listener.local_addr().map_err(|e| e.to_string())?.port();
    let dir = dir.to_path_buf();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            if let Err(e) = answer(stream, &dir) {
                eprintln!("xtask web: {e}");
            }
        }
    });
    Ok(format!("http://127.0.0.1:{port}/"))
}

fn answer(mut stream: TcpStream, dir: &Path) -> std::io::Result<()> {
    let mut request = String::new();
    let mut reader = BufReader::new(&stream);
    reader.read_line(&mut request)?;
    // The rest of the head too: closing a socket with unread input sends a reset, which may cost
    // the browser the end of a large answer (the module).
    let mut header = String::new();
    while reader.read_line(&mut header)? > 2 {
        header.clear();
    }
    let target = request.split_whitespace().nth(1).unwrap_or("/");
    let path = target.split(['?', '#']).next().unwrap_or("/");
    let (status, body, kind) = match resolve(dir, path).and_then(|p| Some((std::fs::read(&p).ok()?, p))) {
        Some((body, file)) => ("200 OK", body, content_type(&file)),
        None => ("404 Not Found", b"not found\n".to_vec(), "text/plain"),
    };
    let header = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(header.as_bytes())?;
    stream.write_all(&body)
}

/// The file a request path names inside `dir`, or `None` for one that would leave it.
fn resolve(dir: &Path, path: &str) -> Option<PathBuf> {
    let mut file = dir.to_path_buf();
    for part in Path::new(path.trim_start_matches('/')).components() {
        match part {
            Component::Normal(p) => file.push(p),
            Component::CurDir => {}
            _ => return None,
        }
    }
    if file.is_dir() {
        file.push("index.html");
    }
    file.is_file().then_some(file)
}

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "wasm" => "application/wasm",
        "json" => "application/json",
        "ts" => "text/plain; charset=utf-8",
        "png" => "image/png",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_stay_inside_the_folder() {
        let dir = std::env::temp_dir().join(format!("xtask-serve-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("pkg")).unwrap();
        std::fs::write(dir.join("index.html"), "x").unwrap();
        std::fs::write(dir.join("pkg/a.wasm"), "x").unwrap();
        assert_eq!(resolve(&dir, "/"), Some(dir.join("index.html")));
        assert_eq!(resolve(&dir, "/pkg/a.wasm"), Some(dir.join("pkg/a.wasm")));
        assert_eq!(resolve(&dir, "/../etc/passwd"), None);
        assert_eq!(resolve(&dir, "/pkg/../../x"), None);
        assert_eq!(resolve(&dir, "/missing.js"), None);
        assert_eq!(content_type(Path::new("a.wasm")), "application/wasm");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

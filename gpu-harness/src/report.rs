//! The HTML report: `index.html` lists every case with its verdict, messages and notes; for each
//! failed case with images it shows PNGs of the GPU result, the CPU result and their difference.

use std::fmt::Write as _;
use std::io;
use std::path::Path;

use crate::runner::{CaseResult, Verdict};
use crate::targets::{to_byte, Image};

/// Encodes an image as an 8-bit RGBA PNG (float targets are saturated and quantized for viewing).
pub fn png_bytes(image: &Image) -> Vec<u8> {
    let rgba: Vec<u8> = image.pixels.iter().flat_map(|p| p.map(to_byte)).collect();
    encode(image.width, image.height, &rgba)
}

fn encode(width: u32, height: u32, rgba: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, width, height);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        let mut writer = enc.write_header().expect("PNG header into a Vec");
        writer.write_image_data(rgba).expect("PNG data into a Vec");
    }
    out
}

/// The difference image: pixels that differ by more than one 8-bit step in magenta (brighter for
/// larger differences), equal pixels as a dim grey copy of the CPU image.
pub fn diff_png(gpu: &Image, cpu: &Image) -> Vec<u8> {
    let mut rgba = Vec::with_capacity(gpu.pixels.len() * 4);
    for (a, b) in gpu.pixels.iter().zip(&cpu.pixels) {
        let d = (0..4).map(|k| to_byte(a[k]).abs_diff(to_byte(b[k]))).max().unwrap_or(0);
        let bad = d > 1 || (0..4).any(|k| a[k].is_nan() != b[k].is_nan());
        if bad {
            let v = 128u8.saturating_add(d / 2);
            rgba.extend_from_slice(&[v, 0, v, 255]);
        } else {
            let grey = ((to_byte(b[0]) as u32 + to_byte(b[1]) as u32 + to_byte(b[2]) as u32) / 12) as u8;
            rgba.extend_from_slice(&[grey, grey, grey, 255]);
        }
    }
    encode(gpu.width, gpu.height, &rgba)
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

fn file_name(s: &str) -> String {
    s.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect()
}

/// Writes `dir/index.html` and the images of failed cases.
pub fn write(dir: &Path, title: &str, summary: &str, results: &[CaseResult]) -> io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let mut html = String::new();
    let _ = write!(
        html,
        "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>{t}</title><style>\
         body{{font-family:sans-serif}} td{{vertical-align:top;padding:4px;border-bottom:1px solid #ccc}}\
         .pass{{color:#070}} .fail{{color:#b00;font-weight:bold}} .skip{{color:#a60}}\
         img{{image-rendering:pixelated;max-width:320px;border:1px solid #888}}</style></head><body>\
         <h1>{t}</h1><p>{s}</p><table><tr><th>case</th><th>verdict</th><th>details</th></tr>\n",
        t = escape(title),
        s = escape(summary)
    );
    for r in results {
        let (class, verdict, lines) = match &r.verdict {
            Verdict::Pass => ("pass", "pass", vec![]),
            Verdict::Fail(m) => ("fail", "FAIL", m.clone()),
            Verdict::Skip(s) => ("skip", "skipped", vec![s.clone()]),
        };
        let _ = write!(
            html,
            "<tr id=\"{}\"><td>{}<br><small>{}</small></td><td class=\"{class}\">{verdict}</td><td>",
            escape(&r.name),
            escape(&r.name),
            escape(&r.path.display().to_string())
        );
        for l in lines.iter().chain(&r.notes) {
            let _ = write!(html, "<div>{}</div>", escape(l));
        }
        for t in &r.images {
            let base = format!("{}_t{}", file_name(&r.name), t.index);
            let mut cells = Vec::new();
            if let Some(g) = &t.gpu {
                std::fs::write(dir.join(format!("{base}_gpu.png")), png_bytes(g))?;
                cells.push(("GPU", format!("{base}_gpu.png")));
            }
            if let Some(c) = &t.cpu {
                std::fs::write(dir.join(format!("{base}_cpu.png")), png_bytes(c))?;
                cells.push(("CPU", format!("{base}_cpu.png")));
            }
            if let (Some(g), Some(c)) = (&t.gpu, &t.cpu) {
                std::fs::write(dir.join(format!("{base}_diff.png")), diff_png(g, c))?;
                cells.push(("difference", format!("{base}_diff.png")));
            }
            if !cells.is_empty() {
                let _ = write!(html, "<div>target {}:<table><tr>", t.index);
                for (label, f) in &cells {
                    let _ = write!(html, "<td>{label}<br><a href=\"{f}\"><img src=\"{f}\"></a></td>");
                }
                html.push_str("</tr></table></div>");
            }
        }
        html.push_str("</td></tr>\n");
    }
    html.push_str("</table></body></html>\n");
    std::fs::write(dir.join("index.html"), html)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::TargetFormat;
    use crate::runner::TargetImages;

    #[test]
    fn report_lists_cases_and_writes_failure_images() {
        let dir = std::env::temp_dir().join(format!("d3d9-report-test-{}", std::process::id()));
        let g = Image::new(2, 2, TargetFormat::A8R8G8B8, 0xff00ff00);
        let c = Image::new(2, 2, TargetFormat::A8R8G8B8, 0xff0000ff);
        let results = vec![
            CaseResult {
                name: "ok<1>".into(),
                path: "a.toml".into(),
                verdict: Verdict::Pass,
                notes: vec![],
                images: vec![],
            },
            CaseResult {
                name: "bad".into(),
                path: "b.toml".into(),
                verdict: Verdict::Fail(vec!["probe 0".into()]),
                notes: vec![],
                images: vec![TargetImages { index: 0, gpu: Some(g), cpu: Some(c) }],
            },
        ];
        write(&dir, "t", "x: 1 passed, 1 failed, 0 skipped", &results).unwrap();
        let html = std::fs::read_to_string(dir.join("index.html")).unwrap();
        assert!(html.contains("ok&lt;1&gt;") && html.contains("FAIL") && html.contains("bad_t0_diff.png"));
        let png = std::fs::read(dir.join("bad_t0_gpu.png")).unwrap();
        assert_eq!(&png[1..4], b"PNG");
        let decoder = png::Decoder::new(std::io::Cursor::new(std::fs::read(dir.join("bad_t0_diff.png")).unwrap()));
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        reader.next_frame(&mut buf).unwrap();
        // Every pixel differs by 255 in green and blue: magenta.
        assert_eq!(&buf[0..4], &[255, 0, 255, 255]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

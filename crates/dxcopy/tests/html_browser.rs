//! `dxinfo --disasm-html` in a real browser: headless Chromium renders the
//! page, and the text it renders (`document.body.innerText`) is the plain
//! `dxinfo --disasm` listing, byte for byte; for a DXBC container whose
//! semantic names hold `<`, `&` and `"`, for a dxc-built DXIL container,
//! and for both in one page.
//! Ignored without Chromium (`$DXCOPY_CHROMIUM`, else `/usr/bin/chromium`).

use dxcopy_edit::{ContainerBuilder, DigestPolicy};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Replaces the page's body, once it is rendered, with its `innerText` as
/// JSON in `<pre id="innertext">`, which `--dump-dom` then prints.
const PROBE: &str = "<script>const t = document.body.innerText; \
document.body.replaceChildren(); const o = document.createElement('pre'); \
o.id = 'innertext'; o.textContent = JSON.stringify(t); document.body.appendChild(o);</script>\n";

fn chromium() -> PathBuf {
    std::env::var_os("DXCOPY_CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"))
}

fn dxinfo(args: &[&str]) -> Vec<u8> {
    let out = Command::new(env!("CARGO_BIN_EXE_dxinfo"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// The text Chromium renders for the page at `page` (with [`PROBE`] added
/// before `</body>`), given up after a minute.
fn rendered_text(page: &[u8], dir: &Path) -> String {
    let page = String::from_utf8(page.to_vec()).unwrap();
    assert_eq!(page.matches("</body>").count(), 1);
    let probed = dir.join("probed.html");
    std::fs::write(&probed, page.replace("</body>", &format!("{PROBE}</body>"))).unwrap();
    let dom = dir.join("dom.html");
    let mut child = Command::new(chromium())
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--dump-dom"])
        .arg(format!("--user-data-dir={}", dir.join("profile").display()))
        .arg(format!("file://{}", probed.display()))
        .stdout(std::fs::File::create(&dom).unwrap())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(60) {
            child.kill().unwrap();
            panic!("chromium did not finish in a minute");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let dom = std::fs::read_to_string(&dom).unwrap();
    let json = dom
        .split_once("<pre id=\"innertext\">")
        .and_then(|(_, rest)| rest.split_once("</pre>"))
        .unwrap_or_else(|| panic!("no rendered text in chromium's DOM: {dom}"))
        .0;
    // The DOM serializer's character references in text.
    let json = json
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&nbsp;", "\u{a0}")
        .replace("&amp;", "&");
    serde_json::from_str(&json).unwrap()
}

/// ps_4_0 `mov o0.x, l(0.0078125); ret` with an input semantic named
/// `a<b&"c` and another named `</pre>`.
fn hostile_dxbc() -> Vec<u8> {
    let mut isgn = vec![2, 0, 0, 0, 8, 0, 0, 0];
    for (name_at, register) in [(56u32, 0u32), (63, 1)] {
        for word in [name_at, 0, 0, 3, register] {
            isgn.extend_from_slice(&word.to_le_bytes());
        }
        isgn.extend_from_slice(&[0x0f, 0x0f, 0, 0]);
    }
    isgn.extend_from_slice(b"a<b&\"c\0</pre>\0\0");
    let shdr: Vec<u8> = [
        0x40u32,
        8,
        0x0500_0036,
        0x0010_2012,
        0,
        0x4001,
        0x3c00_0000,
        0x0100_003e,
    ]
    .iter()
    .flat_map(|w| w.to_le_bytes())
    .collect();
    ContainerBuilder::new()
        .part(b"ISGN", &isgn)
        .part(b"SHDR", &shdr)
        .digest(DigestPolicy::parse("retail").unwrap())
        .build()
        .unwrap()
}

#[cfg_attr(
    not(dxcopy_chromium),
    ignore = "needs chromium ($DXCOPY_CHROMIUM or /usr/bin/chromium; .ci/run installs it)"
)]
#[test]
fn chromium_renders_the_plain_listing() {
    let tmp = tempfile::tempdir().unwrap();
    let dxbc = tmp.path().join("names.dxbc");
    std::fs::write(&dxbc, hostile_dxbc()).unwrap();
    let dxil =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/learn-sdl-gpu/shader.frag.dxil");
    for file in [dxbc.as_path(), dxil.as_path()] {
        let file = file.to_str().unwrap();
        let plain = String::from_utf8(dxinfo(&["--disasm", file])).unwrap();
        let page = dxinfo(&["--disasm-html", file]);
        assert!(page.starts_with(b"<!DOCTYPE html>\n"), "{file}");
        assert_eq!(rendered_text(&page, tmp.path()), plain, "{file}");
    }
    // Several files: one page, its text what --disasm prints for them.
    let both = [dxbc.to_str().unwrap(), dxil.to_str().unwrap()];
    let plain = String::from_utf8(dxinfo(&["--disasm", both[0], both[1]])).unwrap();
    let page = dxinfo(&["--disasm-html", both[0], both[1]]);
    assert_eq!(rendered_text(&page, tmp.path()), plain);
    assert!(
        plain.contains("// a<b&\"c ") && plain.contains("// </pre> "),
        "{plain}"
    );
}

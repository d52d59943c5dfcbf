use super::*;

/// A contiguous container with a zero digest, version 1.0 and a true FileSize.
fn build(parts: &[(&[u8; 4], &[u8])]) -> Vec<u8> {
    parts
        .iter()
        .fold(dxcopy_edit::ContainerBuilder::new(), |b, (name, data)| {
            b.part(name, data)
        })
        .build()
        .expect("test containers have at most one PRIV")
}

/// Signs `bytes` with the retail digest.
fn sign(mut bytes: Vec<u8>) -> Vec<u8> {
    let (retail, _) = dxcopy_read::digest::container_digests(&bytes).expect("valid FileSize");
    bytes[4..20].copy_from_slice(&retail);
    bytes
}

fn args(list: &[&str]) -> Vec<OsString> {
    std::iter::once("dxinfo")
        .chain(list.iter().copied())
        .map(Into::into)
        .collect()
}

/// Runs dxinfo; returns (status, stdout, stderr).
fn dxinfo(list: &[&str]) -> (i32, String, String) {
    let opts = parse(args(list)).unwrap();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let status = run(
        &opts,
        &mut Io {
            out: &mut out,
            err: &mut err,
            color: false,
            stdout_color: false,
        },
    );
    (
        status,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

#[test]
fn usage_errors_exit_1_help_exits_0() {
    assert_eq!(parse(args(&[])).unwrap_err().1, 1);
    assert_eq!(parse(args(&["--json", "--parts", "a"])).unwrap_err().1, 1);
    assert_eq!(parse(args(&["--quiet", "a"])).unwrap_err().1, 1);
    assert_eq!(parse(args(&["--upstream-keys", "a"])).unwrap_err().1, 1);
    assert_eq!(parse(args(&["--yaml", "--json", "a"])).unwrap_err().1, 1);
    assert!(parse(args(&["--yaml", "--upstream-keys", "a"])).is_ok());
    assert_eq!(parse(args(&["--bogus", "a"])).unwrap_err().1, 1);
    assert_eq!(
        parse(args(&["--verify", "--hex=DXIL", "a"])).unwrap_err().1,
        1
    );
    assert_eq!(parse(args(&["--help"])).unwrap_err().1, 0);
    assert_eq!(parse(args(&["--version"])).unwrap_err().1, 0);
    assert!(parse(args(&["--verify", "--json", "a"])).is_ok());
}

/// Each view flag of the table, as given on a command line ([`TEXT`]:
/// none).
const VIEWS: &[(&str, &[&str])] = &[
    (TEXT, &[]),
    ("parts", &["--parts"]),
    ("json", &["--json"]),
    ("yaml", &["--yaml"]),
    ("hex", &["--hex=DXIL"]),
    ("dump_all", &["--dump-all=d"]),
    ("disasm", &["--disasm"]),
    ("disasm_html", &["--disasm-html"]),
    ("verify", &["--verify"]),
    ("reflect", &["--reflect"]),
    ("diff", &["--diff"]),
    ("stats", &["--stats"]),
    ("scan", &["--scan"]),
    ("rows", &["--rows=csv"]),
];

/// Every option of [`Opts`] is in exactly one of the two tables, so a
/// view or modifier added without its row cannot be silently accepted
/// beside another view; every view flag has its command line in
/// [`VIEWS`], and each resolves to a view of its own.
#[test]
fn every_option_is_a_row_of_one_table() {
    use clap::CommandFactory;
    let command = Opts::command();
    let outside = ["files", "help", "version"];
    for arg in command.get_arguments() {
        let id = arg.get_id().as_str();
        if outside.contains(&id) {
            continue;
        }
        let as_view = VIEW_FLAGS.iter().filter(|(f, _)| *f == id).count();
        let as_modifier = MODIFIERS.iter().filter(|(f, _)| *f == id).count();
        assert_eq!(
            as_view + as_modifier,
            1,
            "--{id} must be a row of VIEW_FLAGS or of MODIFIERS, once"
        );
    }
    for (flag, with) in VIEW_FLAGS.iter().chain(MODIFIERS) {
        assert!(
            command.get_arguments().any(|a| a.get_id() == *flag),
            "table row {flag} names no option"
        );
        for other in *with {
            assert!(
                *other == TEXT || VIEW_FLAGS.iter().any(|(f, _)| f == other),
                "{flag} names {other}, which is no view"
            );
        }
    }
    let mut seen = Vec::new();
    for (flag, _) in VIEW_FLAGS {
        let (_, line) = VIEWS
            .iter()
            .find(|(v, _)| v == flag)
            .unwrap_or_else(|| panic!("view flag {flag} has no command line in VIEWS"));
        let list: Vec<&str> = line.iter().copied().chain(["a"]).collect();
        let view = View::of(&parse(args(&list)).unwrap()).unwrap();
        let kind = std::mem::discriminant(&view);
        // `--rows` and `--scan` are one view (the survey reads the scan),
        // `--disasm-html` is the listing view as a page.
        if *flag != "rows" && *flag != "disasm_html" {
            assert!(
                !seen.contains(&kind),
                "{flag} resolves to a view already taken"
            );
        }
        seen.push(kind);
    }
}

/// `--disasm-format` takes fxc and dxc releases alike.
#[test]
fn disasm_format_takes_fxc_and_dxc_releases() {
    assert_eq!(
        parse_release("6.3").unwrap().fxc(),
        Some(dxbc::FxcRelease::V6_3)
    );
    let dxc = parse_release("1.8.2403").unwrap().dxc().unwrap();
    assert_eq!(dxc.to_string(), "1.8.2403");
    assert_eq!(
        parse_release("1.7").unwrap().dxc().unwrap().to_string(),
        "1.7"
    );
    assert!(parse_release("2.0")
        .unwrap_err()
        .contains("nor a dxc release"));
}

/// `--sources --disasm` exited 0 and ignored `--sources`
/// while `--sources --parts` was refused. Every modifier is now
/// accepted in exactly the views [`MODIFIERS`] gives it, and refused
/// (exit 1) beside any other.
#[test]
fn modifiers_are_refused_outside_their_views() {
    let modifiers = [
        ("sources", "--sources"),
        ("no_module_facts", "--no-module-facts"),
        ("upstream_keys", "--upstream-keys"),
        ("quiet", "--quiet"),
        ("strict", "--strict"),
        ("root_signature", "--root-signature=rs"),
        ("disasm_rounding", "--disasm-rounding=legacy"),
        ("disasm_format", "--disasm-format=6.3"),
        ("disasm_numbers", "--disasm-numbers"),
        ("disasm_offsets", "--disasm-offsets"),
        ("disasm_hex", "--disasm-hex"),
        ("disasm_no_debug_info", "--disasm-no-debug-info"),
        ("disasm_instruction_only", "--disasm-instruction-only"),
        ("disasm_instruction_cycle", "--disasm-instruction-cycle"),
        ("text", "--text"),
        ("disasm_with", "--disasm-with=llvm-dis"),
        ("color", "--color=always"),
        ("exact", "--exact"),
        ("jobs", "--jobs=2"),
        ("scan_all", "--scan-all"),
        ("scan_extract", "--scan-extract=d"),
        ("scan_limit", "--scan-limit=9"),
        ("recursive", "-r"),
    ];
    assert_eq!(modifiers.len(), MODIFIERS.len());
    for (id, flag) in modifiers {
        let (_, works_in) = MODIFIERS.iter().find(|(m, _)| *m == id).unwrap();
        for (view, flags) in VIEWS {
            let list: Vec<&str> = flags.iter().copied().chain([flag, "a"]).collect();
            match parse(args(&list)) {
                Ok(_) => assert!(works_in.contains(view), "{list:?} was accepted"),
                Err((text, code)) => {
                    assert!(!works_in.contains(view), "{list:?}: {text}");
                    assert_eq!(code, 1, "{list:?}");
                }
            }
        }
    }
    // `--scan-limit` also goes with `--rows` over a scan, never with
    // `--rows` alone.
    assert!(parse(args(&["--scan", "--rows=csv", "--scan-limit=9", "a"])).is_ok());
    assert_eq!(
        parse(args(&["--rows=csv", "--scan-limit=9", "a"]))
            .err()
            .map(|e| e.1),
        Some(1)
    );
    assert_eq!(
        parse(args(&["--scan", "--rows=csv", "--scan-all", "a"]))
            .err()
            .map(|e| e.1),
        Some(1)
    );
    for other in ["--disasm", "--parts"] {
        let (text, code) = parse(args(&["--sources", other, "x.dxil"])).unwrap_err();
        assert_eq!(code, 1);
        let refused = format!("error: the argument '--sources' cannot be used with '{other}");
        assert!(text.starts_with(&refused), "{text}");
    }
}

/// Two view flags are refused together, but `--json` with `--verify`,
/// `--diff`, `--stats` or `--scan`, `--scan` with `--rows`, and
/// `--disasm=PART` with `--disasm-html`.
#[test]
fn one_view_at_a_time() {
    for (i, (a, a_flags)) in VIEWS.iter().enumerate().skip(1) {
        for (b, b_flags) in VIEWS.iter().skip(i + 1) {
            let list: Vec<&str> = a_flags.iter().chain(*b_flags).copied().collect();
            let list: Vec<&str> = list.into_iter().chain(["a"]).collect();
            let together = matches!(
                (*a, *b),
                ("json", "verify" | "diff" | "stats" | "scan")
                    | ("scan", "rows")
                    | ("disasm", "disasm_html")
            );
            assert_eq!(parse(args(&list)).is_ok(), together, "{list:?}");
        }
    }
}

/// The flags resolve to one [`View`] holding its modifiers.
#[test]
fn flags_resolve_to_one_view() {
    let view = |list: &[&str]| View::of(&parse(args(list)).unwrap());
    let text = |sources, module_facts| {
        Ok(View::Text {
            sources,
            module_facts,
        })
    };
    assert_eq!(view(&["a"]), text(false, true));
    assert_eq!(
        view(&["--sources", "--no-module-facts", "a"]),
        text(true, false)
    );
    assert_eq!(view(&["--parts", "a"]), Ok(View::Parts));
    assert_eq!(view(&["--scan", "--json", "-r", "a"]), Ok(View::Scan));
    assert_eq!(view(&["--rows=jsonl", "a"]), Ok(View::Scan));
    assert_eq!(view(&["--reflect", "a"]), Ok(View::Reflect { text: false }));
    assert_eq!(
        view(&["--reflect", "--text", "a"]),
        Ok(View::Reflect { text: true })
    );
    assert_eq!(
        view(&["--diff", "--exact", "--json", "a", "b"]),
        Ok(View::Diff {
            exact: true,
            json: true
        })
    );
    assert_eq!(
        view(&["--stats", "-j", "3", "d"]),
        Ok(View::Stats {
            json: false,
            jobs: Some(3)
        })
    );
    assert_eq!(
        view(&["--json", "--verify", "a"]),
        Ok(View::Json {
            verify: true,
            module_facts: true
        })
    );
    assert_eq!(
        view(&["--yaml", "--upstream-keys", "a"]),
        Ok(View::Yaml {
            upstream_keys: true
        })
    );
    assert_eq!(view(&["--hex=DXIL", "a"]), Ok(View::Hex(PartName::DXIL)));
    assert_eq!(
        view(&["--hex=DXILX", "a"]),
        Err("--hex: 'DXILX' is not a four-byte part name (use \\xNN for other bytes)".into())
    );
    assert_eq!(
        view(&["--dump-all=d", "a"]),
        Ok(View::DumpAll(PathBuf::from("d")))
    );
    assert_eq!(
        view(&["--disasm=ILDB", "--disasm-rounding=legacy", "a"]),
        Ok(View::Disasm {
            part: Some(PartName::ILDB),
            rounding: Rounding::Legacy,
            release: None,
            flags: DisasmFlags::default(),
            tool: None,
            markup: ListingMarkup::default(),
        })
    );
    assert_eq!(
        view(&["--disasm", "a"]),
        Ok(View::Disasm {
            part: None,
            rounding: Rounding::Current,
            release: None,
            flags: DisasmFlags::default(),
            tool: None,
            markup: ListingMarkup::default(),
        })
    );
    assert_eq!(
        view(&[
            "--disasm",
            "--disasm-with=llvm-dis",
            "--disasm-format=1.8.2403",
            "a"
        ]),
        Ok(View::Disasm {
            part: None,
            rounding: Rounding::Current,
            release: Some(ListingFormat::Dxc(DxcRelease::public(1, 8, 2403))),
            flags: DisasmFlags::default(),
            tool: Some(DisasmTool::LlvmDis),
            markup: ListingMarkup::default(),
        })
    );
    assert_eq!(
        view(&["--disasm", "--disasm-numbers", "--disasm-hex", "a"]),
        Ok(View::Disasm {
            part: None,
            rounding: Rounding::Current,
            release: None,
            flags: DisasmFlags {
                numbers: true,
                hex: true,
                ..DisasmFlags::default()
            },
            tool: None,
            markup: ListingMarkup::default(),
        })
    );
    // --disasm-html is the listing view as a page, with the listing options.
    assert_eq!(
        view(&["--disasm-html", "--disasm-numbers", "a"]),
        Ok(View::Disasm {
            part: None,
            rounding: Rounding::Current,
            release: None,
            flags: DisasmFlags {
                numbers: true,
                ..DisasmFlags::default()
            },
            tool: None,
            markup: ListingMarkup::Html,
        })
    );
    assert_eq!(
        view(&["--disasm=DXIL", "--color=never", "a"]),
        Ok(View::Disasm {
            part: Some(PartName::DXIL),
            rounding: Rounding::Current,
            release: None,
            flags: DisasmFlags::default(),
            tool: None,
            markup: ListingMarkup::Color(ColorWhen::Never),
        })
    );
    assert_eq!(
        view(&["--disasm", "--disasm-format=6.3", "a"]),
        Ok(View::Disasm {
            part: None,
            rounding: Rounding::Current,
            release: Some(ListingFormat::Fxc(dxbc::FxcRelease::V6_3)),
            flags: DisasmFlags::default(),
            tool: None,
            markup: ListingMarkup::default(),
        })
    );
    assert_eq!(
        view(&["--disasm=AB", "a"]),
        Err("--disasm: 'AB' is not a four-byte part name".into())
    );
    assert_eq!(
        view(&["--verify", "-q", "--root-signature=rs", "a"]),
        Ok(View::Verify {
            quiet: true,
            strict: false,
            root_signature: Some(PathBuf::from("rs")),
            module_facts: true
        })
    );
    assert_eq!(
        view(&["--verify", "--strict", "a"]),
        Ok(View::Verify {
            quiet: false,
            strict: true,
            root_signature: None,
            module_facts: true
        })
    );
    // --strict modifies --verify alone.
    assert!(parse(args(&["--strict", "a"])).is_err());
    assert!(parse(args(&["--verify", "--json", "--strict", "a"])).is_err());
}

fn le(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

#[test]
fn disasm_rounding_chooses_how_halfway_floats_print() {
    let tmp = tempfile::tempdir().unwrap();
    // ps_4_0: mov o0.x, l(0.0078125); ret — exactly halfway at the sixth decimal.
    let shdr = le(&[
        0x40,
        8,
        54 | (5 << 24),
        2 | (1 << 4) | (2 << 12) | (1 << 20),
        0,
        1 | (4 << 12),
        0.007_812_5f32.to_bits(),
        62 | (1 << 24),
    ]);
    let file = tmp.path().join("half.dxbc");
    std::fs::write(&file, sign(build(&[(b"SHDR", &shdr)]))).unwrap();
    let f = file.to_str().unwrap();
    for (args, want) in [
        (&["--disasm", f][..], "mov o0.x, l(0.007812)\n"),
        (
            &["--disasm", "--disasm-rounding=current", f][..],
            "mov o0.x, l(0.007812)\n",
        ),
        (
            &["--disasm", "--disasm-rounding=legacy", f][..],
            "mov o0.x, l(0.007813)\n",
        ),
    ] {
        let (status, out, err) = dxinfo(args);
        assert_eq!((status, err.as_str()), (0, ""), "{args:?}");
        assert!(out.contains(want), "{args:?}: {out}");
    }
    // It only means something with --disasm.
    assert_eq!(
        parse(args(&["--disasm-rounding=legacy", f])).unwrap_err().1,
        1
    );
}

#[test]
fn disasm_prints_the_listing_notes_dxil_and_reports_bad_tokens() {
    let tmp = tempfile::tempdir().unwrap();
    // ps_4_0: dcl_temps 1; mov o0.x, l(1.0); ret
    let shdr = le(&[
        0x40,
        9,
        104 | (2 << 24),
        1,
        54 | (5 << 24),
        2 | (1 << 4) | (2 << 12) | (1 << 20),
        0,
        1 | (4 << 12),
        1.0f32.to_bits(),
    ]);
    let mut shdr_ret = shdr.clone();
    shdr_ret.extend(le(&[62 | (1 << 24)]));
    shdr_ret[4..8].copy_from_slice(&10u32.to_le_bytes());
    let good = tmp.path().join("good.dxbc");
    std::fs::write(&good, sign(build(&[(b"SHDR", &shdr_ret)]))).unwrap();
    let (status, out, err) = dxinfo(&["--disasm", good.to_str().unwrap()]);
    assert_eq!((status, err.as_str()), (0, ""));
    assert_eq!(
        out,
        format!(
            "//\n// Generated by dxinfo {}\n//\n//\nps_4_0\ndcl_temps 1\nmov o0.x, l(1.000000)\nret \n\
             // Approximately 0 instruction slots used\n",
            crate::VERSION
        )
    );
    // An unknown opcode at token 9: the listing up to it, then the error; exit 1.
    let mut broken = shdr.clone();
    broken.extend(le(&[300 | (1 << 24)]));
    broken[4..8].copy_from_slice(&10u32.to_le_bytes());
    let bad = tmp.path().join("bad.dxbc");
    std::fs::write(&bad, sign(build(&[(b"SHDR", &broken)]))).unwrap();
    let (status, out, err) = dxinfo(&["--disasm", bad.to_str().unwrap()]);
    assert_eq!(status, 1);
    assert!(out.ends_with("mov o0.x, l(1.000000)\n"), "{out}");
    // The part's data starts at 36 + 8 = 44; token 9 is 36 bytes further.
    assert!(
        err.contains("SHDR part: token 9 (byte 0x50): unknown opcode 300"),
        "{err}"
    );
    // A container without SM4/5 bytecode gets a note, no listing.
    let sfi = tmp.path().join("sfi.dxbc");
    std::fs::write(&sfi, sign(build(&[(b"SFI0", &[0; 8])]))).unwrap();
    let (status, out, err) = dxinfo(&["--disasm", sfi.to_str().unwrap()]);
    assert_eq!((status, out.as_str()), (0, ""));
    assert!(
        err.contains("note:") && err.contains("no SHDR or SHEX part"),
        "{err}"
    );
    assert_eq!(parse(args(&["--disasm", "--json", "a"])).unwrap_err().1, 1);
}

#[test]
fn disasm_of_dxil_goes_through_llvm_dis_and_names_the_part() {
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/sample.dxil");
    let (status, out, err) = dxinfo(&["--disasm", "--disasm-with=llvm-dis", sample]);
    let tool = dxcopy_edit::llvm_dis::find_llvm_dis(
        std::env::var_os("LLVM_DIS"),
        std::env::var_os("PATH"),
    );
    if tool.is_some() {
        assert_eq!((status, err.as_str()), (0, ""));
        assert!(out.starts_with("; ModuleID = '<stdin>'\n"), "{out}");
        assert!(
            out.contains("target triple = \"dxil-unknown-shadermodel6.0-pixel\""),
            "{out}"
        );
        assert!(out.contains("define float @main(float %x)"), "{out}");
    } else {
        println!("no llvm-dis 17+ installed: checking the error only");
        assert_eq!(status, 1);
        assert!(err.contains("no llvm-dis 17 or later found"), "{err}");
    }
    // Parts that hold no program are refused before any tool runs.
    let (status, out, err) = dxinfo(&["--disasm=RDEF", sample]);
    assert_eq!((status, out.as_str()), (1, ""));
    assert!(
        err.contains("--disasm takes DXIL, ILDB, SHEX or SHDR, not 'RDEF'"),
        "{err}"
    );
    let tmp = tempfile::tempdir().unwrap();
    let sfi = tmp.path().join("sfi.dxbc");
    std::fs::write(&sfi, sign(build(&[(b"SFI0", &[0; 8])]))).unwrap();
    let (status, _, err) = dxinfo(&["--disasm=ILDB", sfi.to_str().unwrap()]);
    assert_eq!(status, 1);
    assert!(err.contains("ILDB"), "{err}");
    let (status, _, err) = dxinfo(&["--disasm=SHEX", sfi.to_str().unwrap()]);
    assert_eq!(status, 1);
    assert!(err.contains("SHEX"), "{err}");
}

/// dxc's listing needs nothing installed: the header, then the module
/// with its `dx.op` comments.
#[test]
fn disasm_of_dxil_is_dxcs_listing() {
    let dxc_built = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/learn-sdl-gpu/shader.frag.dxil"
    );
    let (status, out, err) = dxinfo(&["--disasm", dxc_built]);
    assert_eq!((status, err.as_str()), (0, ""));
    assert!(out.starts_with(";\n; Input signature:\n"), "{out}");
    assert!(
        out.contains("\ntarget datalayout = \"e-m:e-p:32:32-i1:32-i8:32-i16:32-i32:32-i64:64-f16:32-f32:32-f64:64-n8:16:32:64\"\ntarget triple = \"dxil-ms-dx\"\n"),
        "{out}"
    );
    assert!(
        out.contains("  %1 = call float @dx.op.loadInput.f32(i32 4, i32 0, i32 0, i8 0, i32 undef), !dbg !43 ; line:6 col:21  ; LoadInput(inputSigId,rowIndex,colIndex,gsVertexAxis)\n"),
        "{out}"
    );
    // The DXIL module rather than the debug one dxc prints by default.
    let (status, plain, _) = dxinfo(&["--disasm=DXIL", dxc_built]);
    assert_eq!(status, 0);
    assert!(plain.contains("\n  ret void\n}\n"), "{plain}");
    assert!(!plain.contains("!dbg"), "{plain}");
    // A module the reader cannot read (the second half of its bitcode
    // overwritten): the error with its bit offset alone, exit 1 —
    // nothing of a listing that is not whole.
    let mut bytes = std::fs::read(dxc_built).unwrap();
    let (start, end) = {
        let c = Container::parse(&bytes).unwrap();
        let part = c.require(PartName::DXIL).unwrap();
        let program = dxcopy_read::Program::parse(&part).unwrap();
        let start = program.bitcode_file_offset as usize;
        (start, start + program.bitcode.len())
    };
    bytes[(start + end) / 2..end].fill(0xff);
    let tmp = tempfile::tempdir().unwrap();
    let broken = tmp.path().join("broken.dxil");
    std::fs::write(&broken, &bytes).unwrap();
    let (status, out, err) = dxinfo(&["--disasm=DXIL", broken.to_str().unwrap()]);
    assert_eq!(status, 1);
    assert_eq!(out, "");
    assert!(err.contains("DXIL module: bitcode at bit "), "{err}");
}

#[test]
fn module_facts_are_shown_unless_turned_off() {
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/sample.dxil");
    let (status, with, _) = dxinfo(&[sample]);
    assert_eq!(status, 0);
    assert_eq!(with.matches("\n  Module {\n").count(), 3, "{with}");
    let (status, without, _) = dxinfo(&["--no-module-facts", sample]);
    assert_eq!(status, 0);
    assert!(!without.contains("Module {"), "{without}");
    let (_, json, _) = dxinfo(&["--json", sample]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(
        v["parts"][3]["decoded"]["module"]["triple"],
        "dxil-unknown-shadermodel6.0-pixel"
    );
    let (_, json, _) = dxinfo(&["--json", "--no-module-facts", sample]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["parts"][3]["decoded"]["kind"], "program");
    assert!(v["parts"][3]["decoded"].get("module").is_none());
}

#[test]
fn many_files_errors_continue() {
    let tmp = tempfile::tempdir().unwrap();
    let good = tmp.path().join("good.dxbc");
    std::fs::write(&good, sign(build(&[(b"SFI0", &[0; 8])]))).unwrap();
    let bad = tmp.path().join("bad.dxbc");
    std::fs::write(&bad, b"DXBX0000000000000000000000000000").unwrap();
    let missing = tmp.path().join("missing.dxbc");
    let (g, b, m) = (
        good.to_str().unwrap(),
        bad.to_str().unwrap(),
        missing.to_str().unwrap(),
    );
    let (status, out, err) = dxinfo(&["--parts", b, g, m]);
    assert_eq!(status, 1);
    assert_eq!(out.lines().filter(|l| l.ends_with(".dxbc:")).count(), 1);
    assert!(out.contains("SFI0"));
    let errs: Vec<&str> = err.lines().collect();
    assert_eq!(errs.len(), 2);
    assert_eq!(
        errs[0],
        format!("dxinfo: error: '{b}': not a DirectX container: expected magic 'DXBC' at offset 0x0, found 'DXBX'")
    );
    assert!(errs[1].starts_with(&format!("dxinfo: error: '{m}': ")));

    let (status, out, err) = dxinfo(&[g]);
    assert_eq!((status, err.as_str()), (0, ""));
    assert!(out.starts_with(&format!("File: {g}\n")));

    let (status, out, _) = dxinfo(&["--json", g, g]);
    assert_eq!(status, 0);
    assert_eq!(out.lines().count(), 2);
    for line in out.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["schema"], 2);
    }
}

#[test]
fn verify_exit_status() {
    let tmp = tempfile::tempdir().unwrap();
    let good = tmp.path().join("good.dxbc");
    std::fs::write(&good, sign(build(&[(b"SFI0", &[0; 8])]))).unwrap();
    let stale = tmp.path().join("stale.dxbc");
    let mut bytes = sign(build(&[(b"SFI0", &[0; 8])]));
    bytes[50] = 1;
    std::fs::write(&stale, &bytes).unwrap();
    let unsigned = tmp.path().join("unsigned.dxbc");
    std::fs::write(&unsigned, build(&[(b"SFI0", &[0; 8])])).unwrap();
    let (g, s, u) = (
        good.to_str().unwrap(),
        stale.to_str().unwrap(),
        unsigned.to_str().unwrap(),
    );
    let (status, out, _) = dxinfo(&["--verify", g]);
    assert_eq!(status, 0);
    assert_eq!(
        out,
        format!("{g}: OK (digest retail, HASH absent, 1 of 1 parts decoded)\n")
    );
    let (status, out, _) = dxinfo(&["--verify", g, s]);
    assert_eq!(status, 1);
    assert!(out.contains(&format!("{s}: error: header digest")));
    assert!(out.contains(&format!("{s}: FAILED (1 problem;")));
    let (status, out, _) = dxinfo(&["--verify", u]);
    assert_eq!(status, 0);
    assert!(out.contains("note: header digest is zero"));
    let (_, out, _) = dxinfo(&["--verify", "-q", u]);
    assert!(!out.contains("note:"));
    let (status, out, _) = dxinfo(&["--verify", "--json", s]);
    assert_eq!(status, 1);
    assert!(out.contains("\"clean\": false"));
    let (status, _, _) = dxinfo(&["--json", s]);
    assert_eq!(status, 0);
}

#[test]
fn yaml_view_and_its_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("a.dxbc");
    let mut vers = vec![1, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0];
    vers.extend_from_slice(b"a\0b\0");
    std::fs::write(
        &file,
        build(&[(b"SFI0", &[1, 0, 0, 0, 0, 0, 0, 0]), (b"VERS", &vers)]),
    )
    .unwrap();
    let f = file.to_str().unwrap();
    let (status, out, err) = dxinfo(&["--yaml", f]);
    assert_eq!((status, err.as_str()), (0, ""));
    assert!(out.starts_with("--- !dxcontainer\n"), "{out}");
    assert!(out.contains("Doubles:"), "{out}");
    assert!(!out.contains("CompilerVersion"));
    let (_, out, _) = dxinfo(&["--yaml", "--upstream-keys", f]);
    assert!(out.contains("CompilerVersion"), "{out}");
    // PSV0 v0 without a program: obj2yaml refuses, so does the view.
    let psv = tmp.path().join("psv.dxbc");
    let mut psv0 = 24u32.to_le_bytes().to_vec();
    psv0.extend_from_slice(&[0; 28]);
    std::fs::write(&psv, build(&[(b"PSV0", &psv0)])).unwrap();
    let p = psv.to_str().unwrap();
    let (status, _, err) = dxinfo(&["--yaml", p, f]);
    assert_eq!(status, 1);
    assert!(
        err.starts_with(&format!("dxinfo: error: '{p}': part 0 'PSV0'")),
        "{err}"
    );
}

#[test]
fn hex_and_dump_all() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("a.dxbc");
    std::fs::write(&file, build(&[(b"SFI0", b"\x01\x02"), (b"a/..", b"zz")])).unwrap();
    let f = file.to_str().unwrap();
    let (status, out, _) = dxinfo(&["--hex=SFI0", f]);
    assert_eq!(status, 0);
    assert!(
        out.starts_with("part 0 'SFI0': 2 bytes at offset 0x30\n00000030  01 02"),
        "{out}"
    );
    let (status, out, _) = dxinfo(&["--hex=a/..", f]);
    assert_eq!(status, 0);
    assert!(out.contains("|zz|"));
    let (status, _, err) = dxinfo(&["--hex=DXIL", f]);
    assert_eq!(status, 1);
    assert_eq!(
        err,
        format!("dxinfo: error: '{f}': part 'DXIL' not found\n")
    );
    let (status, _, err) = dxinfo(&["--hex=TOOLONG", f]);
    assert_eq!(status, 1);
    assert!(err.contains("not a four-byte part name"));

    let dir = tmp.path().join("out");
    let d = dir.to_str().unwrap();
    let (status, out, _) = dxinfo(&[&format!("--dump-all={d}"), f]);
    assert_eq!(status, 0, "{out}");
    assert_eq!(std::fs::read(dir.join("00-SFI0.bin")).unwrap(), b"\x01\x02");
    assert_eq!(std::fs::read(dir.join("01-a_2f_2e_2e.bin")).unwrap(), b"zz");
    assert_eq!(out.lines().count(), 2);
    let (status, _, _) = dxinfo(&[&format!("--dump-all={d}"), f, f]);
    assert_eq!(status, 0);
    assert!(dir.join("1-a_2edxbc").join("01-a_2f_2e_2e.bin").is_file());
    // DIR that is a file: named in the error, left alone.
    let (status, _, err) = dxinfo(&[&format!("--dump-all={f}"), f]);
    assert_eq!(status, 1);
    assert_eq!(
        err,
        format!("dxinfo: error: '{f}': --dump-all: '{f}': Not a directory (os error 20)\n")
    );
}

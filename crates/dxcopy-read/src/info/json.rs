//! `--json`: one JSON document per container, schema 2 (docs/dxinfo-json.md).
//!
//! ```text
//! { "schema": 2, "file": "...",
//!   "header": { "version": "1.0", "major": 1, "minor": 0, "file_size": N, "file_length": N,
//!               "part_count": N, "digest": "hex", "digest_kind": "retail" },
//!   "parts": [ { "index": 0, "name": "DXIL", "offset": N, "data_offset": N, "size": N,
//!                "crc32": N, "alignment": null | "unaligned offset" | …,
//!                "decoded": { "kind": "program", …, "module": { "triple": …, … } } | null,
//!                "error": null | "…" } ],
//!   "verify": { "digest": "retail", "hash": "valid", "decode_errors": 0, "clean": true,
//!               "checks": [ { "level": "note" | "warning" | "error", "message": "…" } ] } }
//! ```
//!
//! Adding fields keeps the schema number; renaming or removing one bumps it.

use super::verify::{verify, Verification};
use super::{alignment_note, Inspected, Inspection};
use crate::dxil::facts::ModuleFacts;
use crate::listing::dxbc::summary::ProgramSummary;
use crate::{Decoded, PartName, ReadError};
use serde::Serialize;
use std::io::{self, Write};

/// The schema version written in every document.
pub const SCHEMA: u32 = 2;

/// The container header.
#[derive(Debug, Serialize)]
pub struct HeaderDoc {
    /// `major.minor`.
    pub version: String,
    /// Format major version.
    pub major: u16,
    /// Format minor version.
    pub minor: u16,
    /// FileSize as stored.
    pub file_size: u32,
    /// Real length of the input.
    pub file_length: u64,
    /// Number of parts.
    pub part_count: u32,
    /// Stored digest, lower-case hex.
    pub digest: String,
    /// retail, debug, zero, bypass, preview or invalid.
    pub digest_kind: &'static str,
}

/// One part.
#[derive(Debug, Serialize)]
pub struct PartDoc<'a> {
    /// Index in the offset table.
    pub index: u32,
    /// Name, non-printable bytes as `\xNN`.
    pub name: PartName,
    /// Offset of the part header.
    pub offset: u64,
    /// Offset of the data.
    pub data_offset: u64,
    /// Data size.
    pub size: u32,
    /// CRC-32 (IEEE) of the data.
    pub crc32: u32,
    /// Layout remark, if any.
    pub alignment: Option<&'static str>,
    /// Decoded value (`kind` names the decoder; `unknown` when there is none).
    pub decoded: Option<DecodedDoc<'a>>,
    /// Decode error, when the decoder failed.
    pub error: Option<String>,
}

/// A decoded part: the decoder's fields and, for program parts holding
/// bitcode, the module facts read from the bitstream (`module`) or the error
/// that stopped the reader (`module_error`).
#[derive(Debug, Serialize)]
pub struct DecodedDoc<'a> {
    /// The decoder's fields (`kind` first).
    #[serde(flatten)]
    pub decoded: &'a Decoded<'a>,
    /// Module facts (program parts whose bitcode decodes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub module: Option<&'a ModuleFacts>,
    /// Why the module facts could not be read (part, bit offset, file offset).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub module_error: Option<String>,
    /// The program of an SHDR/SHEX part, summarised (when its header tokens
    /// are usable).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub program: Option<&'a ProgramSummary>,
}

/// Verification results plus the overall verdict.
#[derive(Debug, Serialize)]
pub struct VerifyDoc {
    /// Digest, HASH, decode error count, checks.
    #[serde(flatten)]
    pub verification: Verification,
    /// No warnings or errors.
    pub clean: bool,
}

/// One container.
#[derive(Debug, Serialize)]
pub struct FileDoc<'a> {
    /// [`SCHEMA`].
    pub schema: u32,
    /// The path as given on the command line (`-` for stdin).
    pub file: &'a str,
    /// Header fields.
    pub header: HeaderDoc,
    /// Parts in offset-table order.
    pub parts: Vec<PartDoc<'a>>,
    /// Present when the input is a dxc companion PDB (the container is its stream 5).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pdb: Option<PdbDoc>,
    /// What `--verify` checks.
    pub verify: VerifyDoc,
}

/// The PDB info stream of a PDB input.
#[derive(Debug, Serialize)]
pub struct PdbDoc {
    /// GUID bytes in stored order, as hex (= the HASH digest for dxc PDBs).
    pub guid: String,
    /// GUID in registry format, as llvm-pdbutil prints it.
    pub guid_string: String,
    /// Age.
    pub age: u32,
    /// Signature.
    pub signature: u32,
    /// Info stream version (20000404 = VC70).
    pub version: u32,
    /// Whether the GUID equals the HASH digest (`null` without a HASH part).
    pub guid_matches_hash: Option<bool>,
}

/// The `decoded` object of one part, or the error that stopped its decoder.
pub fn decoded_doc<'a>(p: &'a Inspected<'a>) -> Result<DecodedDoc<'a>, &'a ReadError> {
    p.decoded.as_ref().map(|decoded| DecodedDoc {
        decoded,
        module: p.module.as_deref().and_then(|m| m.as_ref().ok()),
        module_error: p.module_error_message(),
        program: p.program.as_deref(),
    })
}

/// Builds the document for `insp`.
pub fn document<'a>(file: &'a str, insp: &'a Inspection<'a>) -> FileDoc<'a> {
    let c = &insp.container;
    let h = c.header();
    let verification = verify(insp);
    FileDoc {
        schema: SCHEMA,
        file,
        header: HeaderDoc {
            version: format!("{}.{}", h.major, h.minor),
            major: h.major,
            minor: h.minor,
            file_size: h.file_size,
            file_length: c.data().len() as u64,
            part_count: h.part_count,
            digest: crate::fields::hex(&h.digest),
            digest_kind: verification.digest.as_str(),
        },
        parts: insp
            .parts
            .iter()
            .map(|p| PartDoc {
                index: p.part.index,
                name: p.part.name,
                offset: p.part.offset,
                data_offset: p.part.data_offset(),
                size: p.part.size(),
                crc32: p.part.crc32(),
                alignment: alignment_note(&p.part),
                decoded: decoded_doc(p).ok(),
                error: p.decoded.as_ref().err().map(|e| e.to_string()),
            })
            .collect(),
        pdb: insp.pdb.as_ref().map(|info| PdbDoc {
            guid: crate::fields::hex(&info.guid),
            guid_string: info.guid_string(),
            age: info.age,
            signature: info.signature,
            version: info.version,
            guid_matches_hash: insp.pdb_guid_matches_hash(),
        }),
        verify: VerifyDoc {
            clean: verification.is_clean(),
            verification,
        },
    }
}

/// Writes `doc` followed by a newline: indented when `pretty`, else on one line.
pub fn write_json(w: &mut dyn Write, doc: &FileDoc<'_>, pretty: bool) -> io::Result<()> {
    if pretty {
        serde_json::to_writer_pretty(&mut *w, doc)?;
    } else {
        serde_json::to_writer(&mut *w, doc)?;
    }
    writeln!(w)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::debug_name::encode as build_debug_name;
    use crate::fixtures::build_source_info;
    use crate::program::{build_program_data, ShaderKind};
    use crate::testutil::{build, sign};
    use serde_json::Value;

    fn json_of(bytes: &[u8]) -> Value {
        let insp = Inspection::parse(bytes).unwrap();
        let doc = document("in.dxil", &insp);
        let mut out = Vec::new();
        write_json(&mut out, &doc, false).unwrap();
        assert_eq!(out.iter().filter(|&&b| b == b'\n').count(), 1);
        serde_json::from_slice(&out).unwrap()
    }

    #[test]
    fn schema_and_values_round_trip() {
        let dxil = build_program_data(6, 5, ShaderKind::Compute, 1, 5, b"BC\xc0\xde");
        let srci = build_source_info(&[(b"a.hlsl", b"void main() {}")], &[(b"E", b"main")], true);
        let bytes = sign(build(&[
            (b"DXIL", &dxil),
            (b"ILDN", &build_debug_name(b"abc.pdb").unwrap()),
            (b"SRCI", &srci),
            (b"SHEX", &[0; 4]),
            (b"\x00/..", b"x"),
        ]));
        let v = json_of(&bytes);
        assert_eq!(v["schema"], 2);
        assert_eq!(v["file"], "in.dxil");
        assert_eq!(v["header"]["version"], "1.0");
        assert_eq!(v["header"]["digest_kind"], "retail");
        assert_eq!(v["header"]["part_count"], 5);
        assert_eq!(v["header"]["file_length"], bytes.len());
        let parts = v["parts"].as_array().unwrap();
        assert_eq!(parts[0]["decoded"]["kind"], "program");
        assert_eq!(parts[0]["decoded"]["shader_kind"], "Compute");
        assert_eq!(parts[0]["decoded"]["model_minor"], 5);
        assert_eq!(parts[0]["offset"], 52);
        assert_eq!(parts[0]["data_offset"], 60);
        let first = crate::Container::parse(&bytes).unwrap().part(0).unwrap();
        assert_eq!(parts[0]["crc32"], first.crc32());
        assert_eq!(parts[1]["decoded"]["name"], "abc.pdb");
        assert_eq!(parts[2]["decoded"]["contents"]["compression"], "Zlib");
        assert_eq!(
            parts[2]["decoded"]["contents"]["entries"][0]["content"],
            "void main() {}"
        );
        assert_eq!(parts[2]["decoded"]["args"]["args"][0]["value"], "main");
        assert!(parts[3]["decoded"].is_null());
        assert!(parts[3]["error"]
            .as_str()
            .unwrap()
            .starts_with("part 3 'SHEX'"));
        assert_eq!(parts[4]["name"], "\\x00/..");
        assert_eq!(parts[4]["decoded"]["kind"], "unknown");
        assert_eq!(parts[4]["alignment"], "unpadded size");
        assert_eq!(v["verify"]["clean"], false);
        assert_eq!(v["verify"]["decode_errors"], 1);
        assert_eq!(v["verify"]["hash"], "absent");
        assert!(v["verify"]["checks"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["level"] == "error"));
    }

    #[test]
    fn psv0_stage_and_rts0_parameters_round_trip() {
        let words = |w: &[u32]| -> Vec<u8> { w.iter().flat_map(|v| v.to_le_bytes()).collect() };
        let dxil = build_program_data(6, 0, ShaderKind::Vertex, 1, 0, b"BC\xc0\xde");
        let mut psv0 = words(&[24]);
        psv0.extend_from_slice(&[0; 24]);
        psv0.extend_from_slice(&words(&[0]));
        // RTS0 1.1: one root-constants parameter (b3, 4 values), no samplers.
        let rts0 = words(&[2, 1, 24, 0, 48, 0, 1, 0, 36, 3, 0, 4]);
        let bytes = sign(build(&[
            (b"PSV0", &psv0),
            (b"RTS0", &rts0),
            (b"DXIL", &dxil),
        ]));
        let v = json_of(&bytes);
        let parts = v["parts"].as_array().unwrap();
        assert_eq!(parts[0]["decoded"]["kind"], "psv0");
        assert_eq!(parts[0]["decoded"]["stage"], "Vertex");
        assert_eq!(parts[1]["decoded"]["kind"], "root_signature");
        assert_eq!(parts[1]["decoded"]["num_parameters"], 1);
        let params = parts[1]["decoded"]["parameters"].as_array().unwrap();
        assert_eq!(params.len(), 1);
        assert!(
            params[0].to_string().contains("\"num_32bit_values\":4"),
            "{}",
            params[0]
        );
        assert_eq!(v["verify"]["clean"], true, "{}", v["verify"]);
    }

    #[test]
    fn program_parts_carry_module_facts_or_the_module_error() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/sample.dxil");
        let sample = std::fs::read(path).unwrap();
        let v = json_of(&sample);
        let parts = v["parts"].as_array().unwrap();
        let programs: Vec<&Value> = parts
            .iter()
            .filter(|p| p["decoded"]["kind"] == "program")
            .collect();
        assert_eq!(programs.len(), 3);
        for p in programs {
            let m = &p["decoded"]["module"];
            assert_eq!(m["triple"], "dxil-unknown-shadermodel6.0-pixel", "{m}");
            assert!(m["identification"]["producer"]
                .as_str()
                .unwrap()
                .starts_with("LLVM"));
            assert_eq!(m["module_version"], 2);
            assert_eq!(m["functions_defined"], serde_json::json!(["main"]));
            assert_eq!(m["functions_declared"], serde_json::json!([]));
            assert_eq!(m["dx_ops"], serde_json::json!([]));
            assert!(m["shader_model"].is_null() && m["dxil_version"].is_null());
            assert!(m["entry_points"].as_array().unwrap().is_empty());
            assert!(p["decoded"].get("module_error").is_none());
            // The program fields are still there, beside `module`.
            assert_eq!(p["decoded"]["shader_kind"], "Pixel");
        }
        // Other parts have no `module` key.
        assert!(parts
            .iter()
            .filter(|p| p["decoded"]["kind"] != "program")
            .all(|p| p["decoded"].get("module").is_none()));

        // A bitstream that does not read: `module_error`, no `module`.
        let dxil = build_program_data(
            6,
            0,
            ShaderKind::Pixel,
            1,
            0,
            &[0x42, 0x43, 0xc0, 0xde, 0x21, 0x0c, 0, 0, 1, 0, 0, 0],
        );
        let v = json_of(&build(&[(b"DXIL", &dxil)]));
        let d = &v["parts"][0]["decoded"];
        assert!(d.get("module").is_none(), "{d}");
        let e = d["module_error"].as_str().unwrap();
        assert!(e.starts_with("part 0 'DXIL': bitcode at bit "), "{e}");
        assert!(
            e.ends_with("(the bitcode starts at file offset 0x44)"),
            "{e}"
        );
    }

    #[test]
    fn shader_part_carries_instruction_count_and_declarations() {
        // cs_5_0: dcl_thread_group 8, 4, 1 (opcode 155), then `ret`.
        let shex: Vec<u8> = [0x0005_0050u32, 7, 0x0400_009b, 8, 4, 1, 0x0100_003e]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect();
        let v = json_of(&build(&[(b"SHEX", &shex)]));
        let program = &v["parts"][0]["decoded"]["program"];
        assert_eq!(v["parts"][0]["decoded"]["kind"], "shader");
        assert_eq!(program["instruction_count"], 1);
        assert_eq!(program["declaration_count"], 1);
        assert!(program["error"].is_null());
        let decl = &program["declarations"][0];
        assert_eq!(decl["opcode"], "dcl_thread_group");
        assert_eq!(decl["text"], "dcl_thread_group 8, 4, 1");
        assert_eq!(decl["token"], 2);
        assert_eq!(decl["offset"], 36 + 8 + 8);
    }

    #[test]
    fn pretty_output_is_the_same_document() {
        let bytes = build(&[(b"HASH", &[0; 20])]);
        let insp = Inspection::parse(&bytes).unwrap();
        let doc = document("-", &insp);
        let mut pretty = Vec::new();
        write_json(&mut pretty, &doc, true).unwrap();
        let mut compact = Vec::new();
        write_json(&mut compact, &doc, false).unwrap();
        let a: Value = serde_json::from_slice(&pretty).unwrap();
        let b: Value = serde_json::from_slice(&compact).unwrap();
        assert_eq!(a, b);
        assert_eq!(
            a["parts"][0]["decoded"]["digest"],
            "00000000000000000000000000000000"
        );
        assert_eq!(a["verify"]["digest"], "zero");
    }
}

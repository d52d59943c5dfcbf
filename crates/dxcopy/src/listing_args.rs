//! The listing options that `dxinfo --disasm` and the C-header writer
//! (`dxcopy --output-format=header`, `dxasm`) share: the float rounding of
//! fxc's C runtime and the compiler release whose layout a listing takes.

use dxcopy_read::listing::dxbc;
use dxcopy_read::listing::dxil::release::ListingFormat;

/// `--disasm-rounding` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Rounding {
    /// Windows 10 version 2004 and later: ties to even
    Current,
    /// Earlier Windows: 17 significant digits, ties away from zero
    Legacy,
}

impl Rounding {
    /// The DXBC listing options of this rounding for `release`.
    pub fn listing_options(self, release: Option<dxbc::FxcRelease>) -> dxbc::ListingOptions {
        dxbc::ListingOptions {
            rounding: match self {
                Rounding::Current => dxbc::FloatRounding::Current,
                Rounding::Legacy => dxbc::FloatRounding::Legacy,
            },
            release,
        }
    }
}

/// `--disasm-format` values: an fxc release's short name or full version,
/// or a dxc release.
pub fn parse_release(text: &str) -> Result<ListingFormat, String> {
    ListingFormat::parse(text).ok_or_else(|| {
        let names: Vec<&str> = dxbc::FxcRelease::ALL.iter().map(|r| r.name()).collect();
        format!(
            "'{text}' is not an fxc release this listing knows ({}) nor a dxc release (1.2 … 1.9, optionally with its build: 1.8.2403)",
            names.join(", ")
        )
    })
}

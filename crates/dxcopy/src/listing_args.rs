//! The listing options that `dxinfo --disasm` and the C-header writer
//! (`dxcopy --output-format=header`, `dxasm`) share: the float rounding of
//! fxc's C runtime and the compiler release whose layout a listing takes;
//! and dxinfo's colour (`--color`, `--disasm-html`).

use dxcopy_read::listing::dxbc;
use dxcopy_read::listing::dxil::release::ListingFormat;
use dxcopy_read::listing::markup::Style;

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

/// `--color` values: whether a listing on standard output is coloured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorWhen {
    /// When standard output is a terminal and `NO_COLOR` is unset or empty
    Auto,
    /// Always (ANSI escapes even into a pipe or file)
    Always,
    /// Never
    Never,
}

impl ColorWhen {
    /// Whether to colour, given whether standard output wants colour by
    /// itself (a terminal, and no non-empty `NO_COLOR`).
    pub fn colors(self, stdout_wants_color: bool) -> bool {
        match self {
            ColorWhen::Auto => stdout_wants_color,
            ColorWhen::Always => true,
            ColorWhen::Never => false,
        }
    }
}

/// How dxinfo's listing is marked up: `--color` or `--disasm-html`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListingMarkup {
    /// `--color=WHEN` (default `auto`).
    Color(ColorWhen),
    /// `--disasm-html`: an HTML page.
    Html,
}

impl Default for ListingMarkup {
    fn default() -> Self {
        ListingMarkup::Color(ColorWhen::Auto)
    }
}

impl ListingMarkup {
    /// The markup style of a listing, given whether standard output wants
    /// colour by itself; `None`: plain text.
    pub fn style(self, stdout_wants_color: bool) -> Option<Style> {
        match self {
            ListingMarkup::Color(when) => when.colors(stdout_wants_color).then_some(Style::Ansi),
            ListingMarkup::Html => Some(Style::Html),
        }
    }
}

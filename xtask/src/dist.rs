//! `cargo xtask dist [DIR]`: man pages (clap_mangen) and shell completions
//! (clap_complete) for every binary, rendered from the same clap definitions
//! the binaries parse with.

use anyhow::{Context, Result};
use clap::CommandFactory;
use clap_complete::Shell;
use std::path::Path;

/// The binaries and their clap commands.
pub fn commands() -> Vec<clap::Command> {
    vec![
        dxcopy::cmd::dxcopy::Opts::command(),
        dxcopy::cmd::dxstrip::Opts::command(),
        dxcopy::cmd::dxinfo::Opts::command(),
        dxcopy::cmd::dxasm::Opts::command(),
    ]
}

/// Renders one man page.
pub fn man_page(cmd: &clap::Command) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    clap_mangen::Man::new(cmd.clone()).render(&mut out)?;
    Ok(out)
}

/// Writes `DIR/man/man1/<bin>.1` and `DIR/completions/<shell>/…` for every binary.
pub fn write(dir: &Path) -> Result<()> {
    let man = dir.join("man/man1");
    std::fs::create_dir_all(&man)?;
    for mut cmd in commands() {
        let name = cmd.get_name().to_string();
        std::fs::write(man.join(format!("{name}.1")), man_page(&cmd)?)?;
        for shell in [Shell::Bash, Shell::Zsh, Shell::Fish, Shell::PowerShell] {
            let sub = dir.join("completions").join(shell.to_string());
            std::fs::create_dir_all(&sub)?;
            clap_complete::generate_to(shell, &mut cmd, &name, &sub)
                .with_context(|| format!("{shell} completion for {name}"))?;
        }
        println!("{name}: man page and bash/zsh/fish/powershell completions");
    }
    println!("written to {}", dir.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every long and short option of every binary appears in its man page.
    #[test]
    fn man_pages_list_every_option() {
        for cmd in commands() {
            let page = String::from_utf8(man_page(&cmd).unwrap()).unwrap();
            // roff escapes '-' as '\-'.
            let page = page.replace("\\-", "-");
            let mut checked = 0;
            for arg in cmd.get_arguments() {
                if let Some(long) = arg.get_long() {
                    assert!(
                        page.contains(&format!("--{long}")),
                        "{}: --{long} missing",
                        cmd.get_name()
                    );
                    checked += 1;
                }
                if let Some(short) = arg.get_short() {
                    assert!(
                        page.contains(&format!("-{short}")),
                        "{}: -{short} missing",
                        cmd.get_name()
                    );
                }
            }
            // dxasm has few long options (five); the others many more.
            let least = if cmd.get_name() == "dxasm" { 4 } else { 8 };
            assert!(
                checked >= least,
                "{}: only {checked} options",
                cmd.get_name()
            );
        }
    }
}

//! `skald rules [VARIANT]`: the rules of a game for players, the page `docs/rules/<name>.md`
//! built into the binary; without a variant, the list of the pages, one line a variant (its
//! name and the page's first paragraph).

use anyhow::Result;
use skald::variant::Variant;
use std::fmt::Write;

/// Arguments of `skald rules`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game: brandubh, tablut, tawlbwrdd, copenhagen, copenhagen13, ashton or ataxx (any case);
    /// also accepted: hnefatafl (= copenhagen), brandub (= brandubh). Without it, the list of
    /// games.
    #[arg(value_parser = super::parse_variant)]
    pub variant: Option<Variant>,
}

/// The rules page of `variant` for players (`docs/rules/<name>.md`, Markdown), as built into
/// the binary.
pub fn page(variant: Variant) -> &'static str {
    match variant {
        Variant::Brandubh => include_str!("../../docs/rules/brandubh.md"),
        Variant::Tablut => include_str!("../../docs/rules/tablut.md"),
        Variant::Tawlbwrdd => include_str!("../../docs/rules/tawlbwrdd.md"),
        Variant::Copenhagen => include_str!("../../docs/rules/copenhagen.md"),
        Variant::Copenhagen13 => include_str!("../../docs/rules/copenhagen13.md"),
        Variant::Ashton => include_str!("../../docs/rules/ashton.md"),
        Variant::Ataxx => include_str!("../../docs/rules/ataxx.md"),
    }
}

/// A page's first paragraph after its title, on one line.
fn summary(page: &str) -> String {
    page.lines()
        .skip_while(|l| l.starts_with('#') || l.trim().is_empty())
        .take_while(|l| !l.trim().is_empty())
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The list of pages: a line per variant (its name and the page's first paragraph) and how to
/// see one.
pub fn index() -> String {
    let width = Variant::ALL
        .iter()
        .map(|v| v.name().len())
        .max()
        .unwrap_or(0);
    let mut text = String::from("The rules of each game skald plays, for players:\n\n");
    for v in Variant::ALL {
        let _ = writeln!(text, "  {:width$}  {}", v.name(), summary(page(v)));
    }
    text.push_str(
        "\nskald rules <variant> prints a game's page (also in docs/rules/ of the sources).\n",
    );
    text
}

/// Runs `skald rules`: prints the page of the variant, or the list of pages.
pub fn run(args: Args) -> Result<()> {
    match args.variant {
        Some(v) => print!("{}", page(v)),
        None => print!("{}", index()),
    }
    Ok(())
}

//! `skald rules [VARIANT]`: the rules of a game for players, the page `docs/rules/<name>.md`
//! built into the binary; without a variant, the list of the pages, one line a variant (its
//! name and the page's first paragraph).
//!
//! On a terminal the Markdown is shown as text ([`render`]): no `#`, `**` or backticks,
//! headings and bold text in bold, the diagrams' fences left out. Piped or redirected it is
//! written as it is (the page's Markdown, for other tools); `--format` chooses.

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
    /// How to print the page: terminal (text, headings and bold in bold), text (no markup, no
    /// colours) or markdown (the page as written). Default: terminal on a terminal (text when
    /// NO_COLOR is set or TERM is dumb), markdown when piped.
    #[arg(long, value_enum)]
    pub format: Option<Format>,
}

/// `--format` of `skald rules`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Text with bold headings and bold words (ANSI escapes).
    Terminal,
    /// Text without markup or escapes.
    Text,
    /// The page's Markdown as written.
    Markdown,
}

impl Format {
    /// The format when none is given: markdown unless standard output is a terminal; there
    /// terminal, or text when NO_COLOR is set (any value but empty) or TERM is `dumb`.
    fn detect() -> Format {
        use std::io::IsTerminal;
        if !std::io::stdout().is_terminal() {
            return Format::Markdown;
        }
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        let dumb = std::env::var("TERM").is_ok_and(|t| t == "dumb");
        if no_color || dumb {
            Format::Text
        } else {
            Format::Terminal
        }
    }
}

/// ANSI bold on and off.
const BOLD: (&str, &str) = ("\x1b[1m", "\x1b[22m");
/// ANSI italic on and off.
const ITALIC: (&str, &str) = ("\x1b[3m", "\x1b[23m");

/// A line's inline Markdown as text: `**bold**` and `*italic*` (in `format` Terminal, as
/// ANSI bold and italic; in Text, just their words), `` `code` `` as its text, `[text](link)`
/// as the text.
fn inline(line: &str, format: Format) -> String {
    let styled = format == Format::Terminal;
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    let (mut bold, mut italic) = (false, false);
    while let Some(c) = rest.chars().next() {
        if let Some(after) = rest.strip_prefix("**") {
            if styled {
                out.push_str(if bold { BOLD.1 } else { BOLD.0 });
            }
            bold = !bold;
            rest = after;
        } else if c == '`'
            && let Some(end) = rest[1..].find('`')
        {
            out.push_str(&rest[1..1 + end]);
            rest = &rest[end + 2..];
        } else if c == '['
            && let Some(close) = rest.find("](")
            && let Some(end) = rest[close..].find(')')
        {
            out.push_str(&inline(&rest[1..close], format));
            rest = &rest[close + end + 1..];
        } else if c == '*'
            && (italic || (rest[1..].contains('*') && !rest[1..].starts_with(char::is_whitespace)))
        {
            if styled {
                out.push_str(if italic { ITALIC.1 } else { ITALIC.0 });
            }
            italic = !italic;
            rest = &rest[1..];
        } else {
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    if styled && bold {
        out.push_str(BOLD.1);
    }
    if styled && italic {
        out.push_str(ITALIC.1);
    }
    out
}

/// A Markdown page as `format` shows it ([`Format::Markdown`]: unchanged). Headings lose their
/// `#` (in bold on a terminal, underlined with `=` or `-` as text), list items start with `•`,
/// fenced blocks (the board diagrams) are shown without their fences, indented two spaces, and
/// the rest of each line goes through [`inline`].
pub fn render(page: &str, format: Format) -> String {
    if format == Format::Markdown {
        return page.to_string();
    }
    let styled = format == Format::Terminal;
    let mut out = String::with_capacity(page.len());
    let mut in_code = false;
    for line in page.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            let _ = writeln!(out, "  {line}");
            continue;
        }
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if hashes > 0 && line[hashes..].starts_with(' ') {
            let title = inline(line[hashes..].trim(), Format::Text);
            if styled {
                let _ = writeln!(out, "{}{title}{}", BOLD.0, BOLD.1);
            } else {
                let rule = if hashes == 1 { "=" } else { "-" };
                let _ = writeln!(out, "{title}\n{}", rule.repeat(title.chars().count()));
            }
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        let body = &line[indent..];
        let text = match body.strip_prefix("- ") {
            Some(item) => format!("{}• {}", &line[..indent], inline(item, format)),
            None => format!("{}{}", &line[..indent], inline(body, format)),
        };
        let _ = writeln!(out, "{text}");
    }
    out
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

/// Runs `skald rules`: prints the page of the variant, or the list of pages, in `--format`.
pub fn run(args: Args) -> Result<()> {
    let format = args.format.unwrap_or_else(Format::detect);
    match args.variant {
        Some(v) => print!("{}", render(page(v), format)),
        None => print!("{}", index()),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On a terminal a page is text: no Markdown left, headings and bold words in bold, the
    /// diagram without its fence; as text, no escapes either; as Markdown, the page itself.
    #[test]
    fn pages_are_rendered_for_a_terminal() {
        let md = "# Tablut 9×9\n\nThe **king** flees; type `e2-h2`, *as* [here](x.md).\n\n\
                  ```\n9  ·  ●\n```\n\n- **Attackers** ● first.\n  go on\n";
        let term = render(md, Format::Terminal);
        assert_eq!(
            term,
            "\x1b[1mTablut 9×9\x1b[22m\n\nThe \x1b[1mking\x1b[22m flees; type e2-h2, \
             \x1b[3mas\x1b[23m here.\n\n  9  ·  ●\n\n• \x1b[1mAttackers\x1b[22m ● first.\n  go on\n"
        );
        let text = render(md, Format::Text);
        assert_eq!(
            text,
            "Tablut 9×9\n==========\n\nThe king flees; type e2-h2, as here.\n\n  9  ·  ●\n\n\
             • Attackers ● first.\n  go on\n"
        );
        assert_eq!(render(md, Format::Markdown), md);
        // Every page: no markup left in its text.
        for v in Variant::ALL {
            let text = render(page(v), Format::Text);
            for mark in ["**", "```", "`", "# ", "]("] {
                assert!(!text.contains(mark), "{v}: '{mark}' left:\n{text}");
            }
            assert!(!text.contains('\x1b'), "{v}");
        }
    }
}

//! Game records as text: PGN (`pgn.rs`) and OpenTafl game records (`otg.rs`), written from a
//! [`GameRecord`] (`skald match --output`, `play`'s `save`, the browser's saved games) and read
//! back by [`load_records_as`] into [`LoadedGame`]s, each replayed by the rules.
//!
//! **Games judged by OpenTafl rules** (`skald match` between OTEP engines, judged by the rules
//! string the engines were sent) carry that string: a PGN tag `Rules` (beside `Variant`), and as
//! the `.otg` record's `rules` tag; reading such a record replays it by that string.
//!
//! Reading accepts PGN with any tags (in any case; cuteataxx writes `[black "…"]`), comments in
//! braces or after `;`, variations in parentheses (skipped), numeric annotations (`$1`) and move
//! numbers (`12.`, `12...`, and the spaced `12. ...`); and OpenTafl records with comment lines
//! (`[…|…]`) and variations (skipped: the principal line is read). The result of a game is the
//! rules' when its moves end it; otherwise the record's: OpenTafl's resignation `---` (the side
//! to move resigns), a PGN termination marker (`1-0`, `0-1`, `1/2-1/2`) or else its `Result`
//! tag, an `.otg` record's `result` tag (`1`, `-1`, `0`).

mod game;
mod otg;
mod pgn;

pub use game::{GameRecord, GameResult, LoadedGame, RecordFormat, otg_file, today};
use otg::{load_otg, parse_otg};
use pgn::{load_pgn, parse_pgn};

use crate::variant::Variant;

/// Reads the games of a record: an OpenTafl game record (it has a `[rules:…]` tag) or PGN. A
/// PGN game is tafl when it has a `Variant` tag naming one, Ataxx otherwise, and is played by
/// the OpenTafl rules string of its `Rules` tag when it has one; it starts from its `FEN` tag if
/// any. An OpenTafl record is played by skald's rules when its rules string is one that skald
/// writes for its variants ([`crate::variant::Descriptor::opentafl_rules`]: `brandubh`, `tablut`, `tawlbwrdd`; any start
/// position), and by the rules string itself otherwise (`rules` of the OpenTafl engine
/// protocol, [`crate::engine::new_tafl_session`]). Results: see the module docs.
///
/// # Errors
/// Text that is neither, unknown variants, rules skald cannot play, illegal moves (the message
/// names the game and the move).
pub fn load_records(text: &str) -> Result<Vec<LoadedGame>, String> {
    load_records_as(text, Variant::Ataxx)
}

/// The note added to an error in a record game that has no `Variant` tag (it was read as
/// `variant`) and what the reader can do (`hint`): `(the game has no Variant tag and was read as
/// ataxx: give --variant)`.
pub fn untagged_note(variant: Variant, hint: &str) -> String {
    format!("(the game has no Variant tag and was read as {variant}: {hint})")
}

/// [`load_records`], with PGN games that have no `Variant` tag read as `untagged` (the
/// `--variant` of `skald records`; Ataxx by default, as the Ataxx tools write no such tag).
///
/// # Errors
/// As [`load_records`].
pub fn load_records_as(text: &str, untagged: Variant) -> Result<Vec<LoadedGame>, String> {
    load_records_hinted(text, untagged, "give --variant")
}

/// [`load_records_as`], with `hint` ending the error of a PGN game without a `Variant` tag that
/// does not read as `untagged` (what the reader can do: `give --variant` for the CLI).
///
/// # Errors
/// As [`load_records`].
pub fn load_records_hinted(
    text: &str,
    untagged: Variant,
    hint: &str,
) -> Result<Vec<LoadedGame>, String> {
    // Text from anywhere (a file, the browser's load request) may start with a byte order mark.
    let text = crate::text::without_bom(text);
    if text.lines().any(|l| l.trim_start().starts_with("[rules:")) {
        return Ok(vec![load_otg(&parse_otg(text)?)?]);
    }
    let games = parse_pgn(text)?;
    if games.is_empty() {
        return Err("no game in the record".into());
    }
    games
        .iter()
        .enumerate()
        .map(|(i, g)| load_pgn(g, i + 1, untagged, hint))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::game::tests::record;
    use super::*;
    use crate::engine::Side;

    /// Faults issue, item 4: when the moves do not end the game, the record's result counts:
    /// the PGN termination marker, else its `Result` tag; OpenTafl's `---` (the side to move
    /// resigns), else the `.otg` `result` tag. The rules' result comes first.
    #[test]
    fn results_given_by_the_record() {
        let result = |text: &str| {
            load_records(text)
                .unwrap()
                .remove(0)
                .result
                .map(|r| (r.winner, r.reason))
        };
        let pgn = |tags: &str, moves: &str| format!("[Variant \"brandubh\"]\n{tags}\n\n{moves}\n");
        assert_eq!(
            result(&pgn("[Result \"0-1\"]", "1. d1-c1 c4-c5 *")),
            Some((Some(Side::Second), "the record's result".to_string()))
        );
        assert_eq!(
            result(&pgn(
                "[Result \"1-0\"]\n[Termination \"defenders resign\"]",
                "1. d1-c1 c4-c5 1-0"
            )),
            Some((Some(Side::First), "defenders resign".to_string()))
        );
        assert_eq!(
            result(&pgn("[Result \"0-1\"]", "1. d1-c1 1/2-1/2")),
            Some((None, "the record's result".to_string()))
        );
        assert_eq!(result(&pgn("[Result \"*\"]", "1. d1-c1 *")), None);
        // Ataxx: the moves end the game (o has no stones): the rules' result, whatever the tag.
        let ataxx = "[Result \"0-1\"]\n[FEN \"xo5/7/7/7/7/7/7 x 0 1\"]\n\n1. a6 *\n";
        assert_eq!(
            result(ataxx),
            Some((Some(Side::First), "no pieces left".to_string()))
        );
        let otg = |tags: &str, moves: &str| {
            format!(
                "{tags}[rules:{}]\n\n{moves}",
                Variant::Brandubh.descriptor().opentafl_rules.unwrap()
            )
        };
        // The defenders are to move after three plies: they resign.
        assert_eq!(
            result(&otg("", "1. d1-c1 c4-c5 \n2. c1-c3 --- \n")),
            Some((Some(Side::First), "resignation".to_string()))
        );
        assert_eq!(
            result(&otg("", "1. --- \n")),
            Some((Some(Side::Second), "resignation".to_string()))
        );
        assert_eq!(
            result(&otg("[result:-1]\n", "1. d1-c1 c4-c5 \n")),
            Some((Some(Side::Second), "the record's result".to_string()))
        );
        assert_eq!(result(&otg("[result:?]\n", "1. d1-c1 c4-c5 \n")), None);
        let e = load_records(&otg("", "1. d1-c1 --- \n2. c1-c3 \n"))
            .err()
            .unwrap();
        assert!(e.contains("after the resignation"), "{e}");
    }

    /// The shared reader (`records`, `play --record`, `analyze --record`, `skald serve`'s
    /// load request) takes a byte order mark at the start of the text, PGN or `.otg`.
    #[test]
    fn a_byte_order_mark_is_no_part_of_the_record() {
        let pgn = "\u{feff}[Variant \"brandubh\"]\n\n1. d1-c1 *\n";
        assert_eq!(load_records(pgn).unwrap()[0].moves[0].to_string(), "d1-c1");
        let otg = format!(
            "\u{feff}[rules:{}]\n\n1. d1-c1 \n",
            Variant::Brandubh.descriptor().opentafl_rules.unwrap()
        );
        assert_eq!(load_records(&otg).unwrap()[0].moves[0].to_string(), "d1-c1");
    }

    /// `.otg` files of several games are named alike by `match` and `records`: padded to the
    /// number of games; a single game keeps the name given.
    #[test]
    fn otg_file_names() {
        let p = std::path::Path::new("dir/games.otg");
        assert_eq!(otg_file(p, 1, 1), p);
        assert_eq!(otg_file(p, 2, 3), std::path::Path::new("dir/games-2.otg"));
        assert_eq!(otg_file(p, 2, 12), std::path::Path::new("dir/games-02.otg"));
        assert_eq!(
            otg_file(p, 12, 12),
            std::path::Path::new("dir/games-12.otg")
        );
    }

    /// A game judged by OpenTafl rules (a match of OTEP engines) keeps them in its records, and
    /// reads back by them: such a rules string is not taken for skald's variant of the name.
    #[test]
    fn records_of_games_judged_by_opentafl_rules() {
        let rules = "dim:7 name:brandubh surf:n ks:c cenp:K cenh: tfr:d \
                     start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
        let mut r = record(
            Variant::Brandubh,
            Variant::Brandubh.start_fen(),
            &["d1-c1", "c4-c5"],
        );
        r.rules = Some(rules.to_string());
        let otg = r.to_otg().unwrap();
        assert!(otg.contains(&format!("[rules:{rules}]\n")), "{otg}");
        let back = load_records(&otg).unwrap();
        assert_eq!(back[0].variant, None, "{otg}");
        assert_eq!(back[0].moves.len(), 2);
        let pgn = r.to_pgn();
        assert!(pgn.contains(&format!("[Rules \"{rules}\"]\n")), "{pgn}");
        let back = load_records(&pgn).unwrap();
        assert_eq!(back[0].variant, None);
        assert_eq!(back[0].session.rules_name(), "brandubh");
        // skald's own string, any start position: skald's brandubh.
        r.rules = None;
        assert_eq!(
            load_records(&r.to_otg().unwrap()).unwrap()[0].variant,
            Some(Variant::Brandubh)
        );
    }
}

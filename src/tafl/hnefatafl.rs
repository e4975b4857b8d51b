//! hnefatafl.org's notation, shared by its engine protocol (HTP, `skald htp`) and its game
//! server (`skald bot`): squares are a file letter and a rank number from the bottom-left
//! corner (`a1`), written lower case on 7×7 and 11×11 and upper case on 13×13 (`A1` … `M13`), as
//! the reference (hnefatafl-copenhagen 6.4.1) writes them, and read in either case; the sides
//! are the roles `attacker` and `defender`.

use crate::board::Square;
use crate::game::Side;

/// `square` as hnefatafl.org writes it on a `size`×`size` board: upper-case files on 13×13
/// (`A1`), lower case otherwise (`a1`).
pub fn square_text(size: u8, square: Square) -> String {
    let name = square.to_string();
    if size == 13 {
        name.to_ascii_uppercase()
    } else {
        name
    }
}

/// The square a text names on a `size`×`size` board (`a1`..`k11`, `A1`..`M13`, in any case).
/// Errors: not a square of that board.
pub fn parse_square(size: u8, text: &str) -> Result<Square, String> {
    text.parse::<Square>()
        .ok()
        .filter(|sq| sq.is_on(size))
        .ok_or_else(|| {
            format!(
                "'{}' is not a square of the {size}×{size} board",
                crate::text::truncate(text, 20).escape_debug(),
            )
        })
}

/// The role that names `side`: `attacker` or `defender`.
pub fn role_name(side: Side) -> &'static str {
    match side {
        Side::First => "attacker",
        Side::Second => "defender",
    }
}

/// The side a role names: `attacker`/`a` or `defender`/`d`, any case. Errors: any other text.
pub fn parse_role(text: &str) -> Result<Side, String> {
    match text.to_ascii_lowercase().as_str() {
        "a" | "attacker" => Ok(Side::First),
        "d" | "defender" => Ok(Side::Second),
        _ => Err(format!(
            "'{}' is not a role (attacker, defender, a or d)",
            text.escape_default()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_are_written_by_board_size_and_read_in_any_case() {
        let k11 = Square::new(10, 10);
        assert_eq!(square_text(11, k11), "k11");
        assert_eq!(square_text(13, k11), "K11");
        assert_eq!(parse_square(13, "m13"), Ok(Square::new(12, 12)));
        assert_eq!(parse_square(11, "K11"), Ok(k11));
        assert!(parse_square(11, "l1").is_err());
        assert!(parse_square(7, "a0").is_err());
        assert_eq!(parse_role("D"), Ok(Side::Second));
        assert_eq!(role_name(Side::First), "attacker");
    }
}

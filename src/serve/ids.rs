//! What every part of the browser server shares below the games: a game's id ([`GameId`], as
//! the API writes and reads it) and [`lock`], which survives a poisoned mutex.

use std::sync::{Mutex, MutexGuard};

/// Locks a mutex, taking the data of a poisoned one (a panicking request must not end the
/// server).
pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// A game's id: 128 random bits from the operating system (unguessable: a page of another site
/// cannot name a game), written as 32 lowercase hex digits.
pub type GameId = u128;

/// A new random game id.
pub fn new_id() -> GameId {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the operating system's random numbers");
    u128::from_le_bytes(bytes)
}

/// An id as the API writes it: 32 lowercase hex digits.
pub fn id_text(id: GameId) -> String {
    format!("{id:032x}")
}

/// The id of its text (32 hex digits), if it is one.
pub fn parse_id(text: &str) -> Option<GameId> {
    if text.len() != 32 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u128::from_str_radix(text, 16).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_random_128_bit_hex() {
        let a = new_id();
        let b = new_id();
        assert_ne!(a, b);
        let text = id_text(a);
        assert_eq!(text.len(), 32);
        assert_eq!(parse_id(&text), Some(a));
        assert_eq!(parse_id(&id_text(7)), Some(7));
        for bad in [
            "",
            "7",
            "+0000000000000000000000000000007",
            &format!("{text}0"),
            "zz",
        ] {
            assert_eq!(parse_id(bad), None, "{bad}");
        }
    }
}

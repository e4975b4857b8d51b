//! Small helpers for text from outside: the byte order mark some editors put at the start of a
//! file, and quoting a client's input in a message without echoing all of it.

/// `text` without the UTF-8 byte order mark (U+FEFF) that some editors put at the start of a
/// file: every reader of text input (records, openings, command files) takes it off first.
pub fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// Shortens `s` to `max_chars` characters with an ellipsis, for quoting input in messages.
pub fn truncate(s: &str, max_chars: usize) -> String {
    if s.chars().count() <= max_chars {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(max_chars).collect();
        t.push('…');
        t
    }
}

//! Ataxx 7×7 (rules.md).

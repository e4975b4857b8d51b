//! The tafl family: Brandubh 7×7, Tablut 9×9, Tawlbwrdd 11×11 (rules.md).

//! Iterative-deepening alpha-beta search over any [`crate::game::Game`].

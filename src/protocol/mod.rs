//! The text protocols the engine speaks on stdin/stdout.

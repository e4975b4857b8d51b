//! The variants skald plays and their names.

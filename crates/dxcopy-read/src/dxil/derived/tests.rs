//! Unit tests of the derived parts on small modules.

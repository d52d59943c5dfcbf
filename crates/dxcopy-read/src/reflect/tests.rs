//! Reflection of built containers, one source per test.

use super::*;

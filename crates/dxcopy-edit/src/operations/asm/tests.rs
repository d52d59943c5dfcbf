//! Unit tests of the assembler: text → exact token words, per instruction
//! family and operand form, and errors with their line and column.

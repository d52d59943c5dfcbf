//! Unit tests of the printer: one module per instruction family and constant form.

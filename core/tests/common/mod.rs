//! Test data shared by the core's test files.

pub mod eye_shapes;

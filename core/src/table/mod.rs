//! Clustered hash tables (placeholder).

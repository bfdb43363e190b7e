//! Shared code of the offline tools.

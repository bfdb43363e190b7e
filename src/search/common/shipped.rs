//! The shipped defaults of the searches' settings: a section of the embedded
//! `engine-config/default.toml`, the one place each default is written.

use serde::de::DeserializeOwned;

/// The `section` table of the built-in default configuration, as the settings type `T`.
pub fn shipped_section<T: DeserializeOwned>(section: &str) -> T {
    let table: toml::Table = crate::artifact::BUILTIN_TOML
        .parse()
        .expect("the embedded default.toml is valid TOML (checked by a unit test)");
    let section = table
        .get(section)
        .cloned()
        .expect("the embedded default.toml has the section (checked by a unit test)");
    section
        .try_into()
        .expect("the embedded default.toml is a valid configuration (checked by a unit test)")
}

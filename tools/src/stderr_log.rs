//! The tools' log on stderr through `tracing`: warnings by default, `-v` adds information,
//! `-vv` debugging detail; RUST_LOG wins when set.

/// Starts the log at the detail `verbose` (the count of `-v` flags) asks for.
pub fn init(verbose: u8) {
    let level = match verbose {
        0 => "warn",
        1 => "info",
        _ => "debug",
    };
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(level)),
        )
        .init();
}

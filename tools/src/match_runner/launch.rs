//! Starts an engine as a [`Player`]: the protocol client its spec names, with the handshake
//! done. Kept apart from `player` so that the trait does not depend on its implementations.

use super::c6_player::C6Player;
use super::engine_spec::{EngineSpec, Protocol};
use super::gtp_player::GtpPlayer;
use super::player::{Player, PlayerContext};
use super::process::LaunchSpec;
use std::io::Write;
use std::path::PathBuf;

/// Starts the engine and completes its handshake and start-up commands.
pub fn start_player(spec: &EngineSpec, context: &PlayerContext) -> Result<Box<dyn Player>, String> {
    let launch = LaunchSpec {
        label: spec.name.clone(),
        argv: spec.command.clone(),
        dir: spec.dir.clone(),
        env: spec.env.clone(),
        stderr_log: stderr_log_path(spec, context),
    };
    Ok(match spec.protocol {
        Protocol::Gtp => Box::new(GtpPlayer::start(spec, &launch, context)?),
        Protocol::Cloudict | Protocol::Sau => Box::new(C6Player::start(spec, &launch, context)?),
    })
}

/// Where the engine's stderr is appended: `<dir>/<name>.stderr.log`, or
/// `<dir>/<name>.w<k>.stderr.log` for match worker k; `None` when it is discarded.
pub fn stderr_log_path(spec: &EngineSpec, context: &PlayerContext) -> Option<PathBuf> {
    let name = sanitize_file_name(&spec.name);
    context
        .stderr_dir
        .as_ref()
        .map(|d| match context.stderr_worker {
            Some(k) => d.join(format!("{name}.w{k}.stderr.log")),
            None => d.join(format!("{name}.stderr.log")),
        })
}

/// Appends `line` to the engine's stderr log, if it keeps one: the match's own marks between
/// the engine's lines (which game begins). A log that cannot be written costs only the mark.
pub fn mark_stderr_log(spec: &EngineSpec, context: &PlayerContext, line: &str) {
    let Some(path) = stderr_log_path(spec, context) else {
        return;
    };
    let written = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .and_then(|mut f| f.write_all(format!("{line}\n").as_bytes()));
    if let Err(e) = written {
        tracing::warn!("cannot mark engine log {}: {e}", path.display());
    }
}

/// Keeps letters, digits, `-`, `_` and `.`; everything else becomes `_`.
pub fn sanitize_file_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

//! Starts an engine as a [`Player`]: the protocol client its spec names, with the handshake
//! done. Kept apart from `player` so that the trait does not depend on its implementations.

use super::c6_player::C6Player;
use super::engine_spec::{EngineSpec, Protocol};
use super::gtp_player::GtpPlayer;
use super::player::{Player, PlayerContext};
use super::process::LaunchSpec;

/// Starts the engine and completes its handshake and start-up commands.
pub fn start_player(spec: &EngineSpec, context: &PlayerContext) -> Result<Box<dyn Player>, String> {
    let launch = LaunchSpec {
        label: spec.name.clone(),
        argv: spec.command.clone(),
        dir: spec.dir.clone(),
        env: spec.env.clone(),
        stderr_log: context
            .stderr_dir
            .as_ref()
            .map(|d| d.join(format!("{}.stderr.log", sanitize_file_name(&spec.name)))),
    };
    Ok(match spec.protocol {
        Protocol::Gtp => Box::new(GtpPlayer::start(spec, &launch, context)?),
        Protocol::Cloudict | Protocol::Sau => Box::new(C6Player::start(spec, &launch, context)?),
    })
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

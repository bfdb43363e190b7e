//! `liuzi-c6`: the engine speaking the Connect6 protocol (Cloudict / ConnectMore / SAU) when
//! started with no arguments, for hosts that run the engine file bare, like ConnectMore.
//! Every `liuzi` option works here too (`liuzi-c6 --config FILE`, `liuzi-c6 gtp`).

fn main() -> std::process::ExitCode {
    liuzi::cli::main(Some(liuzi::cli::Command::C6 {
        letters: None,
        sau_placeholder: false,
    }))
}

//! `liuzi`: the engine binary (GTP unless the command line names another front-end; see
//! `liuzi --help`).

fn main() -> std::process::ExitCode {
    liuzi::cli::main(None)
}

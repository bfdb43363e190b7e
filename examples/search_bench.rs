//! Runs the search bench until `liuzi bench` is wired: `cargo run --release --example search_bench -- [THREADS]`.
fn main() {
    let threads = std::env::args()
        .nth(1)
        .map(|t| t.parse().expect("thread count"))
        .unwrap_or(1);
    print!("{}", liuzi::search::bench::run_bench(threads).text);
}

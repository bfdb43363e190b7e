//! A loss and its gradient summed over many rows on several threads: the rows split into one
//! contiguous run a thread, each run summed in order, the runs' sums added in order (so a fit
//! gives the same numbers on every run with the same thread count).

use std::ops::Range;

/// The loss `part` returns summed over `rows` rows, with the gradient it adds into its second
/// argument (of `grad`'s length) summed into `grad` (overwritten). `part` handles one run of
/// rows.
pub fn loss_and_gradient<F>(rows: usize, threads: usize, grad: &mut [f64], part: F) -> f64
where
    F: Fn(Range<usize>, &mut [f64]) -> f64 + Sync,
{
    let dim = grad.len();
    let chunk = rows.div_ceil(threads.max(1)).max(1);
    let part = &part;
    let parts: Vec<(f64, Vec<f64>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..rows)
            .step_by(chunk)
            .map(|first| {
                scope.spawn(move || {
                    let mut g = vec![0.0; dim];
                    let loss = part(first..(first + chunk).min(rows), &mut g);
                    (loss, g)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a gradient worker panicked"))
            .collect()
    });
    grad.iter_mut().for_each(|g| *g = 0.0);
    let mut loss = 0.0;
    for (l, g) in parts {
        loss += l;
        for (a, b) in grad.iter_mut().zip(&g) {
            *a += b;
        }
    }
    loss
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_is_summed_once_whatever_the_threads() {
        // Row r adds r to the loss and 1 to gradient slot r % 3.
        for (rows, threads) in [(0, 2), (1, 4), (10, 1), (10, 3), (11, 2), (5, 8)] {
            let mut grad = vec![7.0; 3];
            let loss = loss_and_gradient(rows, threads, &mut grad, |run, g| {
                run.map(|r| {
                    g[r % 3] += 1.0;
                    r as f64
                })
                .sum()
            });
            assert_eq!(loss, (0..rows).sum::<usize>() as f64, "{rows} rows");
            let want: Vec<f64> = (0..3)
                .map(|k| (0..rows).filter(|r| r % 3 == k).count() as f64)
                .collect();
            assert_eq!(grad, want, "{rows} rows, {threads} threads");
        }
    }
}

//! What the trainer writes besides the weights: a JSON report and an SVG learning curve.

use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// The records files' names as reports and weights files name their source: `a.games + b.games`.
pub fn file_names(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| {
            p.file_name().map_or_else(
                || p.display().to_string(),
                |f| f.to_string_lossy().into_owned(),
            )
        })
        .collect::<Vec<_>>()
        .join(" + ")
}

/// Validation figures (natural log; rates as fractions).
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize)]
pub struct Quality {
    pub positions: usize,
    pub mean_log_evidence: f64,
    pub top1: f64,
    pub top5: f64,
}

impl Quality {
    pub fn from_metrics(m: &crate::bt_train::mm::Metrics) -> Quality {
        Quality {
            positions: m.positions.round() as usize,
            mean_log_evidence: m.mean_log_evidence(),
            top1: m.top1_rate(),
            top5: m.top5_rate(),
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SweepRecord {
    pub sweep: usize,
    /// Mean data log-likelihood per training position.
    pub train_mean_log_likelihood: f64,
    /// Data log-likelihood plus the prior's virtual games: what MM never lowers.
    pub train_log_posterior: f64,
    pub validation: Quality,
    pub seconds: f64,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TrainReport {
    pub spec: String,
    pub command: String,
    pub inputs: Vec<String>,
    pub seed: u64,
    pub validation_fraction: f64,
    pub threads: usize,
    pub games_train: usize,
    pub games_validation: usize,
    pub games_skipped: usize,
    pub positions_train: usize,
    pub positions_validation: usize,
    pub distinct_teams: usize,
    pub entries: usize,
    pub extraction_seconds: f64,
    pub extraction_positions_per_second: f64,
    pub fit_seconds: f64,
    /// Training positions times group updates, per second of fitting.
    pub fit_position_updates_per_second: f64,
    pub total_seconds: f64,
    pub peak_memory_mib: f64,
    pub uniform_validation: Quality,
    pub final_validation: Quality,
    pub final_train: Quality,
    /// Every iteration; with a tree section, the playout section's first, then the tree's.
    pub sweeps: Vec<SweepRecord>,
    /// With a tree section (docs/patterns.md, gammas): the playout section, fitted first on the
    /// same positions (the tree's extra groups held at 1); the fields above are then the tree's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub playout_section: Option<SectionReport>,
}

/// One section of a two-section weights file.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SectionReport {
    pub spec: String,
    pub sweeps: usize,
    pub fit_seconds: f64,
    pub final_validation: Quality,
    pub final_train: Quality,
}

/// Peak resident memory of this process in MiB (Linux `VmHWM`), 0 where unknown.
pub fn peak_memory_mib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

/// Two panels over the iterations: log-likelihood per position (training and validation), and the
/// validation top-1 / top-5 rates; the uniform baseline (far below) is quoted in the titles.
pub fn learning_curve_svg(report: &TrainReport) -> String {
    let (w, h, pad) = (760.0, 300.0, 60.0);
    let sweeps = &report.sweeps;
    let n = sweeps.len().max(2) as f64;
    let x = |i: f64| pad + (w - 2.0 * pad) * (i - 1.0) / (n - 1.0);
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{}\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
        2.0 * h
    );
    let panel = |svg: &mut String, top: f64, title: &str, series: &[(&str, &str, Vec<f64>)]| {
        let all: Vec<f64> = series.iter().flat_map(|s| s.2.iter().copied()).collect();
        let lo = all.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = all.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let span = if hi > lo { hi - lo } else { 1.0 };
        let (lo, hi) = (lo - 0.05 * span, hi + 0.05 * span);
        let y = |v: f64| top + h - pad + -(h - 2.0 * pad) * (v - lo) / (hi - lo);
        svg.push_str(&format!(
            "<text x=\"{pad}\" y=\"{}\" font-weight=\"bold\">{title}</text>\n",
            top + 25.0
        ));
        svg.push_str(&format!(
            "<line x1=\"{pad}\" y1=\"{0}\" x2=\"{1}\" y2=\"{0}\" stroke=\"black\"/><line x1=\"{pad}\" y1=\"{2}\" x2=\"{pad}\" y2=\"{0}\" stroke=\"black\"/>\n",
            top + h - pad,
            w - pad,
            top + pad
        ));
        for k in 0..=4 {
            let v = lo + (hi - lo) * k as f64 / 4.0;
            svg.push_str(&format!(
                "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{v:.3}</text>\n",
                pad - 4.0,
                y(v) + 4.0
            ));
        }
        svg.push_str(&format!(
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">iteration (1..{})</text>\n",
            w / 2.0,
            top + h - pad + 30.0,
            sweeps.len()
        ));
        for (k, (name, colour, values)) in series.iter().enumerate() {
            let points: Vec<String> = values
                .iter()
                .enumerate()
                .map(|(i, &v)| format!("{:.1},{:.1}", x(i as f64 + 1.0), y(v)))
                .collect();
            svg.push_str(&format!(
                "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" points=\"{}\"/>\n",
                points.join(" ")
            ));
            svg.push_str(&format!(
                "<text x=\"{}\" y=\"{}\" fill=\"{colour}\">{name}</text>\n",
                pad + 10.0 + 200.0 * k as f64,
                top + 45.0
            ));
        }
    };
    let col = |f: fn(&SweepRecord) -> f64| sweeps.iter().map(f).collect::<Vec<f64>>();
    let u = &report.uniform_validation;
    panel(
        &mut svg,
        0.0,
        &format!(
            "Mean log-likelihood per stone, natural log (uniform: {:.3})",
            u.mean_log_evidence
        ),
        &[
            ("training", "#1f77b4", col(|s| s.train_mean_log_likelihood)),
            (
                "validation (log-evidence)",
                "#d62728",
                col(|s| s.validation.mean_log_evidence),
            ),
        ],
    );
    panel(
        &mut svg,
        h,
        &format!(
            "Validation prediction rates (uniform: top-1 {:.4}, top-5 {:.4})",
            u.top1, u.top5
        ),
        &[
            ("top-1", "#2ca02c", col(|s| s.validation.top1)),
            ("top-5", "#9467bd", col(|s| s.validation.top5)),
        ],
    );
    svg.push_str("</svg>\n");
    svg
}

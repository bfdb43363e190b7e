//! Minorization-Maximization for the generalized Bradley-Terry model (Hunter 2004; Coulom 2007;
//! docs/patterns.md, MM training), independent of Connect6: the trainer fits move features with it,
//! the rating tool fits players.
//!
//! A *problem* is a set of features split into groups and a list of *competitions*. Each
//! competition has participant teams (sets of features, at most one per group, with a multiplicity:
//! how many identical candidates share that team), a winning team and a weight (1 for a move; 0.5
//! each way for a drawn game). P(winner) = γ(winner) / Σ mult · γ(team), γ(team) = Π γ(member).
//!
//! One group at a time, with every other gamma fixed (Coulom's update with his prior: one virtual
//! win and one virtual loss against an opponent of gamma 1 per feature):
//!
//! `γ_i ← (W_i + prior.wins) / (Σ_j w_j C_ij / E_j + prior.games / (γ_i + prior.opponent))`
//!
//! with `W_i` the weighted wins of teams holding `i`, `C_ij` the summed strength of competition
//! `j`'s teams holding `i` divided by `γ_i`, and `E_j` all of `j`'s team strength. Each update can
//! only raise the log-posterior (data log-likelihood plus the prior's virtual games).

use rustc_hash::FxHashMap as HashMap;
use std::fmt;
use std::ops::Range;

/// Coulom's prior: virtual wins, virtual games, and the virtual opponent's gamma.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Prior {
    pub wins: f64,
    pub games: f64,
    pub opponent: f64,
}

impl Prior {
    /// One virtual win and one virtual loss against gamma 1 (PriorVictories = 1, PriorGames = 2).
    pub const COULOM: Prior = Prior {
        wins: 1.0,
        games: 2.0,
        opponent: 1.0,
    };
    pub const NONE: Prior = Prior {
        wins: 0.0,
        games: 0.0,
        opponent: 1.0,
    };

    /// The prior's log-density term for one gamma (up to a constant).
    fn log_term(&self, gamma: f64) -> f64 {
        if self.games == 0.0 {
            return 0.0;
        }
        self.wins * gamma.ln() + (self.games - self.wins) * self.opponent.ln()
            - self.games * (gamma + self.opponent).ln()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum MmError {
    FeatureOutOfRange(u32),
    SameGroupTwice { group: usize },
    WinnerNotParticipant,
    Parse { line: usize, message: String },
}

impl fmt::Display for MmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MmError::FeatureOutOfRange(i) => write!(f, "feature index {i} out of range"),
            MmError::SameGroupTwice { group } => {
                write!(
                    f,
                    "a team holds two features of group {group} (same feature)"
                )
            }
            MmError::WinnerNotParticipant => f.write_str("the winning team is not a participant"),
            MmError::Parse { line, message } => write!(f, "line {line}: {message}"),
        }
    }
}

impl std::error::Error for MmError {}

const NONE: u32 = u32::MAX;
/// An empty slot of a stored team.
const EMPTY: u16 = u16::MAX;
/// Largest group a problem stores (values are kept as 16-bit indices within their group).
pub const MAX_GROUP_SIZE: usize = EMPTY as usize;

/// Features, interned teams and competitions. Build with [`Problem::new`], [`Problem::team`] and
/// [`Problem::add`].
#[derive(Clone, Debug, Default)]
pub struct Problem {
    groups: Vec<Range<u32>>,
    n_features: u32,
    /// Per team, one slot per group: the member's index within that group, or `EMPTY` (16 bits:
    /// teams are most of a large problem's memory).
    slots: Vec<u16>,
    intern: HashMap<Vec<u32>, u32>,
    starts: Vec<u64>,
    winners: Vec<u32>,
    weights: Vec<f32>,
    entry_team: Vec<u32>,
    entry_mult: Vec<u16>,
}

impl Problem {
    /// A problem whose group `g` holds `sizes[g]` features, numbered consecutively. Groups hold
    /// fewer than [`MAX_GROUP_SIZE`] features (callers check; larger is a bug).
    pub fn new(sizes: &[usize]) -> Problem {
        let mut groups = Vec::new();
        let mut next = 0u32;
        for &s in sizes {
            assert!(s < MAX_GROUP_SIZE, "a group of {s} features");
            groups.push(next..next + s as u32);
            next += s as u32;
        }
        Problem {
            groups,
            n_features: next,
            starts: vec![0],
            ..Problem::default()
        }
    }

    pub fn n_features(&self) -> usize {
        self.n_features as usize
    }

    pub fn groups(&self) -> &[Range<u32>] {
        &self.groups
    }

    pub fn n_teams(&self) -> usize {
        self.slots.len() / self.groups.len().max(1)
    }

    pub fn n_competitions(&self) -> usize {
        self.winners.len()
    }

    pub fn n_entries(&self) -> usize {
        self.entry_team.len()
    }

    /// Bytes held by the problem's arrays (for the memory report).
    pub fn heap_bytes(&self) -> usize {
        self.slots.len() * 2
            + self.starts.len() * 8
            + self.winners.len() * 8
            + self.entry_team.len() * 6
    }

    fn group_of(&self, feature: u32) -> Option<usize> {
        self.groups.iter().position(|r| r.contains(&feature))
    }

    /// Interns the team with these members (global feature indices, any order).
    pub fn team(&mut self, members: &[u32]) -> Result<u32, MmError> {
        let mut slots = vec![NONE; self.groups.len()];
        for &m in members {
            let g = self.group_of(m).ok_or(MmError::FeatureOutOfRange(m))?;
            if slots[g] != NONE {
                return Err(MmError::SameGroupTwice { group: g });
            }
            slots[g] = m;
        }
        if let Some(&id) = self.intern.get(&slots) {
            return Ok(id);
        }
        let id = self.push_team(&slots);
        self.intern.insert(slots, id);
        Ok(id)
    }

    /// Members of team `t` (global indices).
    pub fn members(&self, t: u32) -> impl Iterator<Item = u32> + '_ {
        let g = self.groups.len();
        self.slots[t as usize * g..(t as usize + 1) * g]
            .iter()
            .zip(&self.groups)
            .filter(|(&m, _)| m != EMPTY)
            .map(|(&m, r)| r.start + m as u32)
    }

    /// Adds a competition: `participants` as (team, multiplicity), the winner among them.
    pub fn add(
        &mut self,
        winner: u32,
        participants: &[(u32, u32)],
        weight: f64,
    ) -> Result<(), MmError> {
        if !participants.iter().any(|&(t, m)| t == winner && m > 0) {
            return Err(MmError::WinnerNotParticipant);
        }
        for &(t, mut m) in participants {
            // Multiplicities are stored in 16 bits: split larger ones over several entries.
            while m > 0 {
                let part = m.min(u16::MAX as u32);
                self.entry_team.push(t);
                self.entry_mult.push(part as u16);
                m -= part;
            }
        }
        self.starts.push(self.entry_team.len() as u64);
        self.winners.push(winner);
        self.weights.push(weight as f32);
        Ok(())
    }

    /// Adds a team given as one slot per group (`u32::MAX` = no member) *without* interning: for
    /// callers that deduplicate teams themselves. Slots are trusted (debug-checked).
    pub fn push_team(&mut self, slots: &[u32]) -> u32 {
        debug_assert_eq!(slots.len(), self.groups.len());
        debug_assert!(slots
            .iter()
            .zip(&self.groups)
            .all(|(&m, r)| m == NONE || r.contains(&m)));
        let id = self.n_teams() as u32;
        self.slots
            .extend(slots.iter().zip(&self.groups).map(|(&m, r)| {
                if m == NONE {
                    EMPTY
                } else {
                    (m - r.start) as u16
                }
            }));
        id
    }

    /// Joins problems with the same groups, in order (teams are not merged). Each part is freed
    /// as soon as it is copied: the peak is the whole plus one part, not twice the whole.
    pub fn concat(sizes: &[usize], parts: Vec<Problem>) -> Problem {
        let mut all = Problem::new(sizes);
        let sum = |f: fn(&Problem) -> usize| parts.iter().map(f).sum::<usize>();
        all.slots.reserve_exact(sum(|p| p.slots.len()));
        all.entry_team.reserve_exact(sum(|p| p.entry_team.len()));
        all.entry_mult.reserve_exact(sum(|p| p.entry_mult.len()));
        all.starts.reserve_exact(sum(|p| p.winners.len()));
        all.winners.reserve_exact(sum(|p| p.winners.len()));
        all.weights.reserve_exact(sum(|p| p.weights.len()));
        for p in parts {
            all.append(p);
        }
        all
    }

    /// Moves `other`'s teams and competitions (same groups) into this problem. Teams are not
    /// merged with equal ones already here: a duplicate team only costs its slots.
    pub fn append(&mut self, other: Problem) {
        assert_eq!(
            self.groups, other.groups,
            "appending a problem with other groups"
        );
        let team_base = self.n_teams() as u32;
        let entry_base = self.entry_team.len() as u64;
        self.slots.extend_from_slice(&other.slots);
        self.intern.clear();
        self.entry_team
            .extend(other.entry_team.iter().map(|&t| t + team_base));
        self.entry_mult.extend_from_slice(&other.entry_mult);
        self.starts
            .extend(other.starts[1..].iter().map(|&s| s + entry_base));
        self.winners
            .extend(other.winners.iter().map(|&t| t + team_base));
        self.weights.extend_from_slice(&other.weights);
    }

    /// Drops the interning map once every team is known (it is the largest transient structure).
    pub fn seal(&mut self) {
        self.intern = HashMap::default();
    }

    /// Competition `j`: (winner, weight, entries).
    pub fn competition(&self, j: usize) -> (u32, f64, impl Iterator<Item = (u32, u32)> + '_) {
        let range = self.starts[j] as usize..self.starts[j + 1] as usize;
        let entries = self.entry_team[range.clone()]
            .iter()
            .copied()
            .zip(self.entry_mult[range].iter().map(|&m| m as u32));
        (self.winners[j], self.weights[j] as f64, entries)
    }

    fn strengths(&self, gammas: &[f64]) -> Vec<f64> {
        let g = self.groups.len();
        self.slots
            .chunks(g.max(1))
            .map(|s| self.strength(s, gammas))
            .collect()
    }

    /// Product of the gammas of one team's slots.
    #[inline]
    fn strength(&self, slots: &[u16], gammas: &[f64]) -> f64 {
        slots
            .iter()
            .zip(&self.groups)
            .filter(|(&m, _)| m != EMPTY)
            .map(|(&m, r)| gammas[(r.start + m as u32) as usize])
            .product()
    }

    /// Splits the competitions into `threads` contiguous chunks.
    fn chunks(&self, threads: usize) -> Vec<Range<usize>> {
        let n = self.n_competitions();
        let per = n.div_ceil(threads.max(1)).max(1);
        (0..n).step_by(per).map(|s| s..(s + per).min(n)).collect()
    }

    /// Runs `f` on each chunk of competitions on its own thread and collects the results.
    fn parallel<T: Send>(&self, threads: usize, f: impl Fn(Range<usize>) -> T + Sync) -> Vec<T> {
        let chunks = self.chunks(threads);
        if chunks.len() <= 1 {
            return chunks.into_iter().map(&f).collect();
        }
        std::thread::scope(|s| {
            let handles: Vec<_> = chunks.into_iter().map(|c| s.spawn(|| f(c))).collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("MM worker panicked"))
                .collect()
        })
    }

    /// Σ_j w_j and, per feature, Σ_j w_j [feature in winner_j].
    pub fn wins(&self) -> (f64, Vec<f64>) {
        let mut wins = vec![0.0; self.n_features()];
        let mut total = 0.0;
        for j in 0..self.n_competitions() {
            let w = self.weights[j] as f64;
            total += w;
            for m in self.members(self.winners[j]) {
                wins[m as usize] += w;
            }
        }
        (total, wins)
    }

    /// Data log-likelihood Σ_j w_j ln(γ(winner_j) / E_j).
    pub fn log_likelihood(&self, gammas: &[f64], threads: usize) -> f64 {
        let strength = self.strengths(gammas);
        self.parallel(threads, |range| {
            let mut ll = 0.0;
            for j in range {
                let (winner, w, entries) = self.competition(j);
                let e: f64 = entries.map(|(t, m)| m as f64 * strength[t as usize]).sum();
                ll += w * (strength[winner as usize] / e).ln();
            }
            ll
        })
        .into_iter()
        .sum()
    }

    /// The prior's part of the log-posterior.
    pub fn log_prior(&self, gammas: &[f64], prior: Prior) -> f64 {
        gammas.iter().map(|&g| prior.log_term(g)).sum()
    }

    /// One MM update of every gamma of `group` (the others fixed). `wins` from [`Problem::wins`].
    /// Returns the data log-likelihood *before* the update (it comes free with the pass).
    pub fn update_group(
        &self,
        gammas: &mut [f64],
        group: usize,
        wins: &[f64],
        prior: Prior,
        threads: usize,
    ) -> f64 {
        let range = self.groups[group].clone();
        let len = range.len();
        let g = self.groups.len();
        // Per team: its strength (the member of `group` is read from the slots beside it: 8
        // bytes a team rather than 16, teams being most of a large problem's memory).
        let strengths = self.strengths(gammas);
        let slots = &self.slots[..];
        let inverse: Vec<f64> = gammas[range.start as usize..range.end as usize]
            .iter()
            .map(|g| 1.0 / g)
            .collect();
        let sums = self.parallel(threads, |chunk| {
            let mut acc = vec![0.0f64; len];
            let mut ll = 0.0;
            for j in chunk {
                let lo = self.starts[j] as usize;
                let hi = self.starts[j + 1] as usize;
                let ids = &self.entry_team[lo..hi];
                let mults = &self.entry_mult[lo..hi];
                let mut e = 0.0;
                for (&t, &m) in ids.iter().zip(mults) {
                    e += m as f64 * strengths[t as usize];
                }
                let w = self.weights[j] as f64;
                ll += w * (strengths[self.winners[j] as usize] / e).ln();
                let scale = w / e;
                for (&t, &m) in ids.iter().zip(mults) {
                    let v = slots[t as usize * g + group];
                    if v != EMPTY {
                        let strength = strengths[t as usize];
                        acc[v as usize] += scale * m as f64 * strength * inverse[v as usize];
                    }
                }
            }
            (acc, ll)
        });
        for v in 0..len {
            let i = range.start as usize + v;
            let c: f64 = sums.iter().map(|s| s.0[v]).sum();
            let denominator = c + prior.games / (gammas[i] + prior.opponent);
            let numerator = wins[i] + prior.wins;
            if denominator > 0.0 && numerator > 0.0 {
                gammas[i] = numerator / denominator;
            }
        }
        sums.iter().map(|s| s.1).sum()
    }

    /// Prediction quality of `gammas` on these competitions.
    pub fn evaluate(&self, gammas: &[f64], threads: usize) -> Metrics {
        let strength = self.strengths(gammas);
        let parts = self.parallel(threads, |range| {
            let mut m = Metrics::default();
            for j in range {
                let (winner, w, entries) = self.competition(j);
                let sw = strength[winner as usize];
                let (mut e, mut above, mut tied) = (0.0, 0.0, 0.0);
                for (t, mult) in entries {
                    let s = strength[t as usize];
                    e += mult as f64 * s;
                    if s > sw {
                        above += mult as f64;
                    } else if s == sw {
                        tied += mult as f64;
                    }
                }
                // With ties broken at random, the chance the winner ranks within the first k.
                let within = |k: f64| ((k - above) / tied).clamp(0.0, 1.0);
                m.positions += w;
                m.log_evidence += w * (sw / e).ln();
                m.top1 += w * within(1.0);
                m.top5 += w * within(5.0);
            }
            m
        });
        let mut total = Metrics::default();
        for p in parts {
            total.positions += p.positions;
            total.log_evidence += p.log_evidence;
            total.top1 += p.top1;
            total.top5 += p.top5;
        }
        total
    }

    /// Fits `gammas` (start from 1s). Each *iteration* makes as many group updates as there are
    /// groups, chosen by `options.schedule`; it stops when an iteration changes the mean data
    /// log-likelihood by less than `tolerance` per competition, or after `max_sweeps` iterations.
    /// (The log-posterior keeps creeping up long after: gammas of never-winning values sink
    /// slowly towards 0 without changing predictions.) Calls `on_sweep` after each iteration
    /// (return `false` to stop).
    pub fn fit(
        &self,
        gammas: &mut [f64],
        prior: Prior,
        options: &FitOptions,
        mut on_sweep: impl FnMut(&SweepStats, &[f64]) -> bool,
    ) -> Vec<SweepStats> {
        let (total_weight, wins) = self.wins();
        let n = total_weight.max(1.0);
        let groups = self.groups.len();
        let posterior =
            |g: &[f64]| self.log_likelihood(g, options.threads) + self.log_prior(g, prior);
        // Last improvement of each group; unknown (infinite) until it has been updated once.
        let mut delta = vec![f64::INFINITY; groups];
        let mut round_robin = 0;
        let mut history = Vec::new();
        let mut last = self.log_likelihood(gammas, options.threads);
        for sweep in 1..=options.max_sweeps {
            let start = last;
            let mut group_posteriors = Vec::new();
            let mut pending: Option<(usize, f64)> = None;
            for _ in 0..groups {
                let group = match options.schedule {
                    Schedule::Cyclic => {
                        round_robin = (round_robin + 1) % groups;
                        (round_robin + groups - 1) % groups
                    }
                    // Coulom's mm: the group whose last update gained most (ties: lowest index).
                    Schedule::Greedy => {
                        (0..groups).fold(0, |best, g| if delta[g] > delta[best] { g } else { best })
                    }
                };
                let before = self.update_group(gammas, group, &wins, prior, options.threads);
                if let Some((g, ll)) = pending {
                    delta[g] = (before - ll) / n;
                }
                pending = Some((group, before));
                if options.check_every_group {
                    group_posteriors.push(posterior(gammas));
                }
            }
            let ll = self.log_likelihood(gammas, options.threads);
            if let Some((g, before)) = pending {
                delta[g] = (ll - before) / n;
            }
            let stats = SweepStats {
                sweep,
                log_likelihood: ll,
                log_posterior: ll + self.log_prior(gammas, prior),
                mean_log_likelihood: ll / n,
                group_posteriors,
            };
            last = ll;
            let go_on = on_sweep(&stats, gammas);
            history.push(stats);
            if !go_on || ((ll - start) / n).abs() < options.tolerance {
                break;
            }
        }
        history
    }
}

/// Which group an MM step updates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// Every group in turn (Sayuri's `mm.cc`).
    Cyclic,
    /// The group whose last update raised the log-likelihood most, as Coulom's `mm` does; every
    /// group is updated once first.
    Greedy,
}

#[derive(Clone, Debug)]
pub struct FitOptions {
    pub max_sweeps: usize,
    /// Stop when a sweep changes the mean data log-likelihood per competition by less than this.
    pub tolerance: f64,
    pub threads: usize,
    /// Record the log-posterior after every group update (costs one pass each).
    pub check_every_group: bool,
    pub schedule: Schedule,
}

impl Default for FitOptions {
    fn default() -> Self {
        FitOptions {
            max_sweeps: 100,
            tolerance: 1e-4,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            check_every_group: false,
            schedule: Schedule::Greedy,
        }
    }
}

#[derive(Clone, Debug)]
pub struct SweepStats {
    pub sweep: usize,
    pub log_likelihood: f64,
    pub log_posterior: f64,
    /// Data log-likelihood per (weighted) competition.
    pub mean_log_likelihood: f64,
    /// Log-posterior after each group update, when asked for.
    pub group_posteriors: Vec<f64>,
}

/// Sums over competitions; divide by `positions` for rates.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Metrics {
    pub positions: f64,
    pub log_evidence: f64,
    pub top1: f64,
    pub top5: f64,
}

impl Metrics {
    pub fn mean_log_evidence(&self) -> f64 {
        self.log_evidence / self.positions
    }
    pub fn top1_rate(&self) -> f64 {
        self.top1 / self.positions
    }
    pub fn top5_rate(&self) -> f64 {
        self.top5 / self.positions
    }
}

// ---- Coulom's `mm` text format -------------------------------------------------------------

/// Writes the problem in Coulom's `mm` input format: `! n`, the group count, one `size name` line
/// per group, `!`, then per competition `#`, the winner's members, and one line per candidate
/// (multiplicities expanded, the winner's team included).
pub fn write_mm(
    problem: &Problem,
    names: &[String],
    out: &mut impl std::io::Write,
) -> std::io::Result<()> {
    writeln!(out, "! {}", problem.n_features())?;
    writeln!(out, "{}", problem.groups.len())?;
    for (g, r) in problem.groups.iter().enumerate() {
        let name = names
            .get(g)
            .map_or_else(|| format!("group{g}"), |n| n.replace(' ', "_"));
        writeln!(out, "{} {}", r.len(), name)?;
    }
    writeln!(out, "!")?;
    let line = |t: u32| {
        let m: Vec<String> = problem.members(t).map(|m| m.to_string()).collect();
        m.join(" ")
    };
    for j in 0..problem.n_competitions() {
        let (winner, _, entries) = problem.competition(j);
        writeln!(out, "#")?;
        writeln!(out, "{}", line(winner))?;
        for (t, mult) in entries {
            let l = line(t);
            for _ in 0..mult {
                writeln!(out, "{l}")?;
            }
        }
    }
    Ok(())
}

/// A competition being read: winner, participants so far, its `#` line number.
type Pending = (u32, Vec<(u32, u32)>, usize);

/// Reads Coulom's `mm` input format (identical candidate lines collapse into multiplicities).
/// Returns the problem and the group names.
pub fn read_mm(text: &str) -> Result<(Problem, Vec<String>), MmError> {
    let err = |line: usize, message: &str| MmError::Parse {
        line,
        message: message.to_string(),
    };
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim()));
    let (n, first) = lines.next().ok_or_else(|| err(1, "empty input"))?;
    let total: usize = first
        .strip_prefix('!')
        .and_then(|s| s.trim().parse().ok())
        .ok_or_else(|| err(n, "expected `! <number of gammas>`"))?;
    let (n, count) = lines.next().ok_or_else(|| err(n, "missing group count"))?;
    let groups: usize = count.parse().map_err(|_| err(n, "bad group count"))?;
    let mut sizes = Vec::new();
    let mut names = Vec::new();
    for _ in 0..groups {
        let (n, l) = lines.next().ok_or_else(|| err(n, "missing group line"))?;
        let mut words = l.split_whitespace();
        let size: usize = words
            .next()
            .and_then(|w| w.parse().ok())
            .ok_or_else(|| err(n, "bad group size"))?;
        sizes.push(size);
        names.push(words.collect::<Vec<_>>().join(" "));
    }
    if sizes.iter().sum::<usize>() != total {
        return Err(err(n, "group sizes do not add up to the number of gammas"));
    }
    let (n, bang) = lines.next().ok_or_else(|| err(n, "missing `!`"))?;
    if bang != "!" {
        return Err(err(n, "expected `!` after the groups"));
    }
    let mut problem = Problem::new(&sizes);
    let parse_team = |problem: &mut Problem, n: usize, l: &str| -> Result<u32, MmError> {
        let members: Result<Vec<u32>, _> = l.split_whitespace().map(str::parse).collect();
        let members = members.map_err(|_| err(n, "bad feature index"))?;
        problem.team(&members).map_err(|e| err(n, &e.to_string()))
    };
    let mut current: Option<Pending> = None;
    let finish = |problem: &mut Problem, c: Option<Pending>| -> Result<(), MmError> {
        if let Some((winner, parts, n)) = c {
            problem
                .add(winner, &parts, 1.0)
                .map_err(|e| err(n, &e.to_string()))?;
        }
        Ok(())
    };
    let mut expect_winner = false;
    for (n, l) in lines {
        if l == "#" {
            finish(&mut problem, current.take())?;
            expect_winner = true;
        } else if expect_winner {
            current = Some((parse_team(&mut problem, n, l)?, Vec::new(), n));
            expect_winner = false;
        } else if let Some((_, parts, _)) = current.as_mut() {
            let t = parse_team(&mut problem, n, l)?;
            match parts.iter_mut().find(|(pt, _)| *pt == t) {
                Some(entry) => entry.1 += 1,
                None => parts.push((t, 1)),
            }
        } else if !l.is_empty() {
            return Err(err(n, "team outside a competition"));
        }
    }
    finish(&mut problem, current.take())?;
    Ok((problem, names))
}

/// Writes ratings as Coulom's tool prints them: one `index gamma` line per feature.
pub fn write_ratings(gammas: &[f64], out: &mut impl std::io::Write) -> std::io::Result<()> {
    for (i, g) in gammas.iter().enumerate() {
        writeln!(out, "{i} {g}")?;
    }
    Ok(())
}

/// Reads `index gamma` lines (extra columns, as in `mm-with-freq.dat`, are ignored).
pub fn read_ratings(text: &str, n_features: usize) -> Result<Vec<f64>, MmError> {
    let mut gammas = vec![f64::NAN; n_features];
    for (i, l) in text.lines().enumerate() {
        let mut words = l.split_whitespace();
        let (Some(idx), Some(g)) = (words.next(), words.next()) else {
            continue;
        };
        let bad = |m: &str| MmError::Parse {
            line: i + 1,
            message: m.to_string(),
        };
        let idx: usize = idx.parse().map_err(|_| bad("bad index"))?;
        let g: f64 = g.parse().map_err(|_| bad("bad gamma"))?;
        *gammas
            .get_mut(idx)
            .ok_or_else(|| bad("index out of range"))? = g;
    }
    if let Some(missing) = gammas.iter().position(|g| g.is_nan()) {
        return Err(MmError::Parse {
            line: 0,
            message: format!("no gamma for feature {missing}"),
        });
    }
    Ok(gammas)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn teams_refuse_two_features_of_a_group() {
        let mut p = Problem::new(&[3, 2]);
        assert_eq!(p.team(&[0, 1]), Err(MmError::SameGroupTwice { group: 0 }));
        assert_eq!(p.team(&[7]), Err(MmError::FeatureOutOfRange(7)));
        let a = p.team(&[4, 1]).unwrap();
        assert_eq!(p.team(&[1, 4]).unwrap(), a);
        assert_eq!(p.members(a).collect::<Vec<_>>(), vec![1, 4]);
    }

    #[test]
    fn two_players_fit_matches_the_closed_form() {
        // A beats B 3 times out of 4: without prior, γA/γB = 3 (the ratio is what is identified).
        let mut p = Problem::new(&[2]);
        let a = p.team(&[0]).unwrap();
        let b = p.team(&[1]).unwrap();
        for k in 0..4 {
            p.add(if k < 3 { a } else { b }, &[(a, 1), (b, 1)], 1.0)
                .unwrap();
        }
        let mut g = vec![1.0, 1.0];
        let opts = FitOptions {
            max_sweeps: 500,
            tolerance: 1e-12,
            threads: 1,
            ..FitOptions::default()
        };
        p.fit(&mut g, Prior::NONE, &opts, |_, _| true);
        assert!((g[0] / g[1] - 3.0).abs() < 1e-6, "{g:?}");
    }

    #[test]
    fn mm_text_round_trips() {
        let mut p = Problem::new(&[2, 3]);
        let t1 = p.team(&[0, 2]).unwrap();
        let t2 = p.team(&[1, 4]).unwrap();
        p.add(t1, &[(t1, 1), (t2, 3)], 1.0).unwrap();
        p.add(t2, &[(t2, 2), (t1, 1)], 1.0).unwrap();
        let mut out = Vec::new();
        write_mm(&p, &["a".into(), "b".into()], &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let (q, names) = read_mm(&text).unwrap();
        assert_eq!(names, vec!["a", "b"]);
        let mut out2 = Vec::new();
        write_mm(&q, &names, &mut out2).unwrap();
        assert_eq!(text, String::from_utf8(out2).unwrap());
        let mut r = Vec::new();
        write_ratings(&[0.5, 2.0, 1.0, 3.0, 1.5], &mut r).unwrap();
        let back = read_ratings(&String::from_utf8(r).unwrap(), 5).unwrap();
        assert_eq!(back, vec![0.5, 2.0, 1.0, 3.0, 1.5]);
    }
}

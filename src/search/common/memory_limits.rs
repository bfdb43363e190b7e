//! The limits on the memory this process may use besides the machine's size: its address-space
//! and data-segment limits (`ulimit -v`, `prlimit --as`, `ulimit -d`) and its cgroup's memory
//! limit (containers, systemd units, job schedulers). Operating-system specific: each reader
//! answers `None` where the limit does not exist or cannot be read.

/// One limit: the bytes this process may still take under it, and what it is (for messages).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limit {
    pub free_bytes: u64,
    pub what: String,
}

/// The limits that apply to this process (possibly none).
/// `physical`: the machine's memory in bytes, if known (a cgroup limit at or above it is none).
pub fn process_limits(physical: Option<u64>) -> Vec<Limit> {
    let mut limits = Vec::new();
    limits.extend(rlimit::address_space());
    limits.extend(rlimit::data_segment());
    limits.extend(cgroup::memory_limit(physical));
    limits
}

fn gib(bytes: u64) -> String {
    format!("{:.1} GiB", bytes as f64 / (1u64 << 30) as f64)
}

#[cfg(unix)]
mod rlimit {
    use super::{gib, Limit};

    /// `RLIMIT_AS`: every mapping counts, whether touched or not.
    pub fn address_space() -> Option<Limit> {
        let limit = soft_limit(libc::RLIMIT_AS)?;
        let used = statm_bytes(0).unwrap_or(0);
        Some(Limit {
            free_bytes: limit.saturating_sub(used),
            what: format!(
                "the {} left under this process's address-space limit (RLIMIT_AS, {})",
                gib(limit.saturating_sub(used)),
                gib(limit)
            ),
        })
    }

    /// `RLIMIT_DATA`: private writable mappings (the heap) on Linux 4.7 and later.
    pub fn data_segment() -> Option<Limit> {
        let limit = soft_limit(libc::RLIMIT_DATA)?;
        let used = statm_bytes(5).unwrap_or(0);
        Some(Limit {
            free_bytes: limit.saturating_sub(used),
            what: format!(
                "the {} left under this process's data limit (RLIMIT_DATA, {})",
                gib(limit.saturating_sub(used)),
                gib(limit)
            ),
        })
    }

    /// The type of `getrlimit`'s resource argument, which differs between C libraries.
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    type Resource = libc::__rlimit_resource_t;
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    type Resource = libc::c_int;

    fn soft_limit(resource: Resource) -> Option<u64> {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: `limit` is a valid `rlimit` for the call to fill in.
        let ok = unsafe { libc::getrlimit(resource, &mut limit) } == 0;
        #[allow(clippy::unnecessary_cast)] // `rlim_t` is not u64 everywhere
        (ok && limit.rlim_cur != libc::RLIM_INFINITY).then_some(limit.rlim_cur as u64)
    }

    /// Field `index` of `/proc/self/statm` (0: all mappings, 5: data and stack) in bytes;
    /// `None` where there is no such file.
    fn statm_bytes(index: usize) -> Option<u64> {
        let text = std::fs::read_to_string("/proc/self/statm").ok()?;
        let pages: u64 = text.split_whitespace().nth(index)?.parse().ok()?;
        // SAFETY: sysconf only reads a configuration value.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        pages.checked_mul(u64::try_from(page).ok()?)
    }
}

#[cfg(not(unix))]
mod rlimit {
    use super::Limit;

    pub fn address_space() -> Option<Limit> {
        None
    }

    pub fn data_segment() -> Option<Limit> {
        None
    }
}

/// The cgroup memory limit (v2 `memory.max` of the process's group and its ancestors, v1
/// `memory.limit_in_bytes`). The group is shared with the other processes in it (the
/// opponent, the controller), so half of it is this process's to take.
mod cgroup {
    use super::{gib, Limit};
    use std::path::{Path, PathBuf};

    const ROOT: &str = "/sys/fs/cgroup";

    pub fn memory_limit(physical: Option<u64>) -> Option<Limit> {
        if cfg!(not(target_os = "linux")) {
            return None;
        }
        let groups = std::fs::read_to_string("/proc/self/cgroup").ok()?;
        let limit = group_limit(&groups, read_limit)?;
        // A limit the machine cannot reach (v1 writes "no limit" as a huge number) is none.
        let physical = physical.unwrap_or(u64::MAX);
        (limit < physical).then(|| Limit {
            free_bytes: limit / 2,
            what: format!("half of this cgroup's memory limit of {}", gib(limit)),
        })
    }

    /// The smallest limit `read` finds for the groups `/proc/self/cgroup` lists.
    pub fn group_limit(groups: &str, read: impl Fn(&Path) -> Option<u64>) -> Option<u64> {
        let mut files = Vec::new();
        for line in groups.lines() {
            let mut fields = line.splitn(3, ':');
            let (Some(_), Some(controllers), Some(path)) =
                (fields.next(), fields.next(), fields.next())
            else {
                continue;
            };
            let path = path.trim_start_matches('/');
            if controllers.is_empty() {
                // v2: the limits of the group and of every group above it apply.
                let mut dir = Path::new(ROOT).join(path);
                loop {
                    files.push(dir.join("memory.max"));
                    if dir == Path::new(ROOT) || !dir.pop() {
                        break;
                    }
                }
            } else if controllers.split(',').any(|c| c == "memory") {
                let v1 = Path::new(ROOT).join("memory");
                files.push(v1.join(path).join("memory.limit_in_bytes"));
                // In a container the host's path is not mounted; the group is the root.
                files.push(v1.join("memory.limit_in_bytes"));
            }
        }
        files.iter().filter_map(|f: &PathBuf| read(f)).min()
    }

    /// A limit file's value; `None` for `max` (no limit) or where it cannot be read.
    fn read_limit(file: &Path) -> Option<u64> {
        parse_limit(&std::fs::read_to_string(file).ok()?)
    }

    pub fn parse_limit(text: &str) -> Option<u64> {
        text.trim().parse().ok()
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn limits_are_read_for_both_cgroup_versions() {
            assert_eq!(parse_limit("max\n"), None);
            assert_eq!(parse_limit("1073741824\n"), Some(1 << 30));
            let files = |limits: &'static [(&'static str, u64)]| {
                move |f: &Path| {
                    limits
                        .iter()
                        .find(|(name, _)| f == Path::new(name))
                        .map(|&(_, v)| v)
                }
            };
            let v2 = files(&[
                ("/sys/fs/cgroup/user.slice/memory.max", 8 << 30),
                ("/sys/fs/cgroup/user.slice/job/memory.max", 2 << 30),
            ]);
            assert_eq!(group_limit("0::/user.slice/job\n", v2), Some(2 << 30));
            assert_eq!(group_limit("0::/user.slice\n", v2), Some(8 << 30));
            assert_eq!(group_limit("0::/\n", v2), None);
            let v1 = files(&[("/sys/fs/cgroup/memory/memory.limit_in_bytes", 3 << 30)]);
            let groups = "5:cpu,cpuacct:/x\n4:memory:/docker/abc\n0::/\n";
            assert_eq!(group_limit(groups, v1), Some(3 << 30));
            assert_eq!(group_limit("4:cpu:/x\n", v1), None);
        }
    }
}

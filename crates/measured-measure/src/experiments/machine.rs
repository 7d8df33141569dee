//! The machine and toolchain a result depends on: CPU model, core count, kernel, rustc, read
//! here or from the texts a host sends (`run --on`), by the same parser.

use std::path::Path;
use std::process::Command;

/// What a result's validity depends on besides the source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Machine {
    pub cpu: String,
    pub cores: usize,
    pub kernel: String,
    /// Total memory in bytes, when `/proc/meminfo` says.
    pub memory: Option<u64>,
    /// `rustc --version` as the experiments' workspace sees it.
    pub rustc: String,
    /// `rustc -vV` in full (host, LLVM version): part of the cache key.
    pub rustc_verbose: String,
    /// Every online CPU of the machine (`cores` are those a process here may use).
    pub online: usize,
    /// The CPUs a process here may use, as the kernel lists them (`0-1`, `0,2`): its
    /// affinity; empty when unknown.
    pub affinity: String,
}

/// What a machine's description is read from: the texts of its `/proc` files and commands, as
/// this process reads them or as a host sends them over SSH (`run --on`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Facts {
    /// `/proc/cpuinfo` (only its first `model name` line is read).
    pub cpuinfo: String,
    /// `/proc/meminfo` (only `MemTotal`).
    pub meminfo: String,
    /// `/proc/sys/kernel/osrelease`.
    pub osrelease: String,
    /// The CPUs a process may use there.
    pub cores: usize,
    /// `rustc -vV` where the experiments are built.
    pub rustc_verbose: String,
    /// The machine's architecture, the CPU's name when `cpuinfo` has none.
    pub arch: String,
    /// The machine's online CPUs (0: unknown, taken as `cores`).
    pub online: usize,
    /// `Cpus_allowed_list` of a process there (`0-1`).
    pub affinity: String,
}

impl Machine {
    /// Reads the machine; `dir` is where cargo will run (a toolchain file there counts).
    pub fn read(dir: &Path) -> Machine {
        let rustc_verbose = Command::new("rustc")
            .arg("-vV")
            .current_dir(if dir.is_dir() { dir } else { Path::new(".") })
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
            .unwrap_or_default();
        Machine::of_facts(&Facts {
            cpuinfo: std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default(),
            meminfo: std::fs::read_to_string("/proc/meminfo").unwrap_or_default(),
            osrelease: std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default(),
            cores: std::thread::available_parallelism().map_or(1, usize::from),
            rustc_verbose,
            arch: std::env::consts::ARCH.to_string(),
            online: std::fs::read_to_string("/sys/devices/system/cpu/online")
                .map_or(0, |l| cpu_count(&l)),
            affinity: std::fs::read_to_string("/proc/self/status")
                .map(|s| allowed_list(&s))
                .unwrap_or_default(),
        })
    }

    /// The description of the machine `facts` were read on.
    pub fn of_facts(facts: &Facts) -> Machine {
        let cpu = facts
            .cpuinfo
            .lines()
            .find_map(|l| {
                l.strip_prefix("model name")
                    .and_then(|r| r.split_once(':'))
                    .map(|(_, v)| v.trim().to_string())
            })
            .unwrap_or_else(|| facts.arch.trim().to_string());
        let rustc = facts
            .rustc_verbose
            .lines()
            .next()
            .unwrap_or("rustc (unknown)")
            .to_string();
        let cores = facts.cores.max(1);
        Machine {
            cpu,
            cores,
            kernel: facts.osrelease.trim().to_string(),
            memory: memory(&facts.meminfo),
            rustc,
            rustc_verbose: facts.rustc_verbose.clone(),
            online: facts.online.max(cores),
            affinity: facts.affinity.trim().to_string(),
        }
    }
}

/// How many CPUs a kernel CPU list names (`0-3,6` → 5).
pub fn cpu_count(list: &str) -> usize {
    list.trim()
        .split(',')
        .filter(|r| !r.is_empty())
        .map(|r| match r.split_once('-') {
            Some((a, b)) => match (a.trim().parse::<usize>(), b.trim().parse::<usize>()) {
                (Ok(a), Ok(b)) if b >= a => b - a + 1,
                _ => 0,
            },
            None => usize::from(r.trim().parse::<usize>().is_ok()),
        })
        .sum()
}

/// `Cpus_allowed_list` of a `/proc/<pid>/status` text.
pub fn allowed_list(status: &str) -> String {
    status
        .lines()
        .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
        .map_or(String::new(), |v| v.trim().to_string())
}

/// `MemTotal` of a `/proc/meminfo` text, in bytes.
fn memory(meminfo: &str) -> Option<u64> {
    let kb = meminfo.lines().find_map(|l| l.strip_prefix("MemTotal:"))?;
    let kb: u64 = kb.trim().strip_suffix("kB")?.trim().parse().ok()?;
    kb.checked_mul(1024)
}

/// The 1, 5 and 15 minute load averages.
pub fn load_average() -> [f64; 3] {
    loads(&std::fs::read_to_string("/proc/loadavg").unwrap_or_default())
}

/// The three load averages of a `/proc/loadavg` line (zeros where the line has none), read
/// here or sent by a host.
pub fn loads(line: &str) -> [f64; 3] {
    let mut it = line
        .split_whitespace()
        .map(|v| v.parse::<f64>().unwrap_or(0.0));
    [
        it.next().unwrap_or(0.0),
        it.next().unwrap_or(0.0),
        it.next().unwrap_or(0.0),
    ]
}

#[cfg(test)]
mod tests {
    #[test]
    fn cpu_lists_are_counted_as_the_kernel_writes_them() {
        assert_eq!(super::cpu_count("0-1\n"), 2);
        assert_eq!(super::cpu_count("0"), 1);
        assert_eq!(super::cpu_count("0-3,6,8-9"), 7);
        assert_eq!(super::cpu_count(""), 0);
        let status = "Name:\tx\nCpus_allowed:\t1\nCpus_allowed_list:\t0\nMems_allowed:\t1\n";
        assert_eq!(super::allowed_list(status), "0");
    }

    #[test]
    fn memory_is_read_from_meminfo_in_bytes() {
        let meminfo = "MemTotal:       24576000 kB\nMemFree:         1000 kB\n";
        assert_eq!(super::memory(meminfo), Some(24_576_000 * 1024));
        assert_eq!(super::memory("MemFree: 1 kB\n"), None);
    }
}

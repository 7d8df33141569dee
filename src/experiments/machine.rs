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
        Machine {
            cpu,
            cores: facts.cores.max(1),
            kernel: facts.osrelease.trim().to_string(),
            memory: memory(&facts.meminfo),
            rustc,
            rustc_verbose: facts.rustc_verbose.clone(),
        }
    }
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
    fn memory_is_read_from_meminfo_in_bytes() {
        let meminfo = "MemTotal:       24576000 kB\nMemFree:         1000 kB\n";
        assert_eq!(super::memory(meminfo), Some(24_576_000 * 1024));
        assert_eq!(super::memory("MemFree: 1 kB\n"), None);
    }
}

//! The machine and toolchain a result depends on: CPU model, core count, kernel, rustc.

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

impl Machine {
    /// Reads the machine; `dir` is where cargo will run (a toolchain file there counts).
    pub fn read(dir: &Path) -> Machine {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let cpu = cpuinfo
            .lines()
            .find_map(|l| {
                l.strip_prefix("model name")
                    .and_then(|r| r.split_once(':'))
                    .map(|(_, v)| v.trim().to_string())
            })
            .unwrap_or_else(|| std::env::consts::ARCH.to_string());
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease")
            .map(|s| s.trim().to_string())
            .unwrap_or_default();
        let rustc_verbose = Command::new("rustc")
            .arg("-vV")
            .current_dir(if dir.is_dir() { dir } else { Path::new(".") })
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
            .unwrap_or_default();
        let rustc = rustc_verbose
            .lines()
            .next()
            .unwrap_or("rustc (unknown)")
            .to_string();
        Machine {
            cpu,
            cores,
            kernel,
            memory: memory(&std::fs::read_to_string("/proc/meminfo").unwrap_or_default()),
            rustc,
            rustc_verbose,
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
    let text = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let mut it = text
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

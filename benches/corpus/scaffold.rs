//! The `measured` side of the corpus: its `site.toml`, the fake experiment `bench` (never
//! compiled) and the frozen results its values and tables are read from.

use std::io;
use std::path::Path;

use super::text::ROWS;

pub fn write_measured_scaffold(root: &Path) -> io::Result<()> {
    std::fs::create_dir_all(root.join("content"))?;
    std::fs::write(
        root.join("site.toml"),
        "# The benchmark corpus (written by benches/corpus.rs).\nbase_url = \"https://bench.example.org\"\ndefault_language = \"vi\"\n\n[languages.vi]\ntitle = \"Đo thật\"\ndescription = \"Bộ bài để đo tốc độ dựng trang.\"\n\n[languages.en]\ntitle = \"Measured\"\ndescription = \"A corpus to measure build speed.\"\n",
    )?;
    let crate_dir = root.join("experiments/bench");
    std::fs::create_dir_all(crate_dir.join("src"))?;
    std::fs::write(
        root.join("experiments/Cargo.toml"),
        "# The benchmark's fake experiment workspace: never compiled (builds use --frozen).\n[workspace]\nmembers = [\"bench\"]\nresolver = \"2\"\n",
    )?;
    std::fs::write(
        crate_dir.join("Cargo.toml"),
        "# A fake experiment: its results are frozen/bench.json, written by the corpus generator.\n[package]\nname = \"bench\"\nversion = \"0.1.0\"\nedition = \"2024\"\n",
    )?;
    std::fs::write(
        crate_dir.join("src/main.rs"),
        "//! A fake experiment for the benchmark corpus: never compiled or run.\nfn main() {}\n",
    )?;
    std::fs::create_dir_all(root.join("frozen"))?;
    std::fs::write(root.join("frozen/bench.json"), frozen_record(root))
}

/// `frozen/bench.json`: a `Record` as `measured freeze` would write it, for the fake
/// experiment's current source, lockfile and toolchain (so `--frozen` finds it current).
fn frozen_record(root: &Path) -> String {
    let dir = root.join("experiments");
    let source_hash = measured::experiments::workspace::discover(&dir)
        .ok()
        .and_then(|c| c.get("bench").map(|i| i.source_hash[..16].to_string()))
        .unwrap_or_default();
    let lock_hash =
        measured::experiments::workspace::Lock::read(&dir).hash_of("bench")[..16].to_string();
    let rustc = measured::experiments::machine::Machine::read(&dir).rustc;
    let rows: Vec<serde_json::Value> = ROWS
        .iter()
        .map(|(name, bytes, ns)| serde_json::json!({ "name": name, "bytes": bytes, "time": ns }))
        .collect();
    let record = serde_json::json!({
        "experiment": "bench",
        "key": "bench-corpus",
        "results": {
            "throughput": 48213.4,
            "size": 1210,
            "speedup": { "type": "ratio", "value": 2.4 },
            "latency": { "type": "timing", "median": 391_000.0, "p5": 380_000.0, "p95": 402_000.0, "n": 200 },
            "rows": rows,
        },
        "output": "format       bytes   encode\nJSON           412   2.15 ms\n",
        "provenance": {
            "experiment": "bench", "source_hash": source_hash, "lock_hash": lock_hash,
            "rustc": rustc, "cpu": "benchmark", "cores": 2, "kernel": "6.1",
            "measured_at": "2026-01-01T00:00:00Z", "load_before": [0.0, 0.0, 0.0],
            "load_after": [0.0, 0.0, 0.0], "duration_secs": 1.0, "quick": false,
            "command": "none: a fake experiment of the benchmark corpus"
        }
    });
    serde_json::to_string_pretty(&record).expect("a JSON value serializes")
}

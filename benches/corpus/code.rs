//! Distinct code blocks for the corpus in ten languages: shapes from real code, names and numbers
//! from the seeded generator, so no two blocks are alike and highlighting cannot be cached away.

use std::fmt::Write as _;

use super::Rng;
use super::text::IDENTS;

/// The fence tokens of the corpus's code, known to syntect (bat's set), Chroma and giallo alike.
pub const LANGUAGES: &[&str] = &[
    "rust",
    "go",
    "sql",
    "json",
    "bash",
    "python",
    "javascript",
    "c",
    "yaml",
    "toml",
];

/// A block of about `lines` lines of `lang` (one of [`LANGUAGES`]).
pub fn code(rng: &mut Rng, lang: &str, lines: usize) -> String {
    let (a, b) = (*rng.pick(IDENTS), *rng.pick(IDENTS));
    let names = Names {
        a,
        b,
        n: rng.range(2, 9_999),
        lines,
    };
    let mut c = String::new();
    match lang {
        "rust" => rust(&mut c, rng, &names),
        "go" => go(&mut c, rng, &names),
        "sql" => sql(&mut c, rng, &names),
        "json" => json(&mut c, rng, &names),
        "python" => python(&mut c, rng, &names),
        "javascript" => javascript(&mut c, rng, &names),
        "c" => c_code(&mut c, rng, &names),
        "yaml" => yaml(&mut c, rng, &names),
        "toml" => toml(&mut c, rng, &names),
        _ => bash(&mut c, rng, &names),
    }
    c
}

/// What one block is named after: two identifiers, a number and its length in lines.
struct Names {
    a: &'static str,
    b: &'static str,
    n: usize,
    lines: usize,
}

fn rust(c: &mut String, rng: &mut Rng, x: &Names) {
    let (a, b, n, lines) = (x.a, x.b, x.n, x.lines);
    let _ = writeln!(
        c,
        "/// Đo {a} theo {b}.\n#[derive(Debug, Clone)]\npub struct {}{} {{",
        cap(a),
        cap(b)
    );
    for k in 0..lines {
        let _ = writeln!(
            c,
            "    pub {}_{k}: u{},",
            rng.pick(IDENTS),
            8 << rng.range(0, 3)
        );
    }
    let _ = writeln!(
        c,
        "}}\n\nfn {a}_{b}(input: &[u8]) -> Result<usize, std::io::Error> {{\n    let mut total = 0usize;\n    for chunk in input.chunks({n}) {{\n        total += chunk.iter().filter(|&&x| x > {}).count();\n    }}\n    Ok(total * {lines})\n}}",
        n % 256,
    );
}

fn go(c: &mut String, rng: &mut Rng, x: &Names) {
    let (a, b, n) = (x.a, x.b, x.n);
    let _ = writeln!(
        c,
        "package {a}\n\nimport (\n\t\"fmt\"\n\t\"time\"\n)\n\nfunc {}{}(items []string) map[string]int {{\n\tcounts := make(map[string]int, {n})\n\tstart := time.Now()",
        cap(a),
        cap(b)
    );
    for k in 0..x.lines {
        let _ = writeln!(
            c,
            "\tcounts[\"{}_{k}\"] += len(items) * {}",
            rng.pick(IDENTS),
            rng.range(1, 99)
        );
    }
    let _ = writeln!(
        c,
        "\tfmt.Println(\"{b}\", time.Since(start))\n\treturn counts\n}}"
    );
}

fn sql(c: &mut String, rng: &mut Rng, x: &Names) {
    let (a, b, n, lines) = (x.a, x.b, x.n, x.lines);
    let _ = writeln!(
        c,
        "CREATE TABLE {a}_{b} (\n    id BIGINT PRIMARY KEY,\n    {a} TEXT NOT NULL,\n    created_at TIMESTAMPTZ DEFAULT now()\n);\n\nSELECT {a},\n       sum({b}) OVER (PARTITION BY {a} ORDER BY created_at ROWS BETWEEN {lines} PRECEDING AND CURRENT ROW) AS running"
    );
    for k in 0..lines / 2 {
        let _ = writeln!(c, "     , avg({}_{k}) AS avg_{k}", rng.pick(IDENTS));
    }
    let _ = writeln!(
        c,
        "FROM {a}_{b}\nWHERE id > {n} AND {a} LIKE '%{b}%'\nORDER BY running DESC\nLIMIT {};",
        rng.range(5, 500)
    );
}

fn json(c: &mut String, rng: &mut Rng, x: &Names) {
    let (a, b, n, lines) = (x.a, x.b, x.n, x.lines);
    let _ = writeln!(
        c,
        "{{\n  \"{a}\": {n},\n  \"{b}\": \"đo lần {lines}\",\n  \"samples\": ["
    );
    for k in 0..lines {
        let comma = if k + 1 < lines { "," } else { "" };
        let _ = writeln!(
            c,
            "    {{ \"name\": \"{}\", \"median_ns\": {}, \"ok\": {} }}{comma}",
            rng.pick(IDENTS),
            rng.range(100, 999_999),
            rng.chance(80)
        );
    }
    let _ = writeln!(c, "  ]\n}}");
}

fn bash(c: &mut String, rng: &mut Rng, x: &Names) {
    let (a, b, n) = (x.a, x.b, x.n);
    let _ = writeln!(
        c,
        "#!/usr/bin/env bash\nset -euo pipefail\n# đo {a} với {b}\nN={n}"
    );
    for k in 0..x.lines {
        let _ = writeln!(
            c,
            "for i in $(seq 1 \"$N\"); do curl -s \"http://127.0.0.1:{}/{}/$i\" | jq '.{}' >> out_{k}.txt; done",
            rng.range(1024, 65535),
            rng.pick(IDENTS),
            rng.pick(IDENTS)
        );
    }
    let _ = writeln!(
        c,
        "sort -n out_*.txt | awk '{{ s += $1 }} END {{ print s / NR }}'"
    );
}

fn python(c: &mut String, rng: &mut Rng, x: &Names) {
    let (a, b, n) = (x.a, x.b, x.n);
    let _ = writeln!(
        c,
        "import statistics\nimport time\n\n\ndef measure_{a}({b}s, rounds={n}):\n    \"\"\"Đo {a} trên từng {b}.\"\"\"\n    samples = []"
    );
    for k in 0..x.lines {
        let _ = writeln!(
            c,
            "    samples.append(sum(len(str(v)) for v in {b}s[{k}::{}]))",
            rng.range(2, 64)
        );
    }
    let _ = writeln!(
        c,
        "    start = time.perf_counter()\n    median = statistics.median(samples)\n    return median, time.perf_counter() - start"
    );
}

fn javascript(c: &mut String, rng: &mut Rng, x: &Names) {
    let (a, b, n) = (x.a, x.b, x.n);
    let _ = writeln!(
        c,
        "// Đo {a} trong trình duyệt.\nexport async function {a}{}(url, rounds = {n}) {{\n  const times = [];",
        cap(b)
    );
    for k in 0..x.lines {
        let _ = writeln!(
            c,
            "  times.push(await time(() => fetch(`${{url}}/{}/{k}`), {}));",
            rng.pick(IDENTS),
            rng.range(1, 50)
        );
    }
    let _ = writeln!(
        c,
        "  times.sort((x, y) => x - y);\n  return {{ median: times[times.length >> 1], n: times.length }};\n}}"
    );
}

fn c_code(c: &mut String, rng: &mut Rng, x: &Names) {
    let (a, b, n) = (x.a, x.b, x.n);
    let _ = writeln!(
        c,
        "#include <stdint.h>\n#include <stddef.h>\n\n/* Đo {a} theo {b}. */\nstruct {a}_{b} {{"
    );
    for k in 0..x.lines {
        let _ = writeln!(
            c,
            "    uint{}_t {}_{k};",
            8 << rng.range(0, 3),
            rng.pick(IDENTS)
        );
    }
    let _ = writeln!(
        c,
        "}};\n\nsize_t {a}_count(const uint8_t *buf, size_t len) {{\n    size_t total = 0;\n    for (size_t i = 0; i < len; i += {n}) {{\n        total += buf[i] > {} ? 1 : 0;\n    }}\n    return total;\n}}",
        n % 256
    );
}

fn yaml(c: &mut String, rng: &mut Rng, x: &Names) {
    let (a, b, n) = (x.a, x.b, x.n);
    let _ = writeln!(
        c,
        "# Cấu hình đo {a}\nname: {a}-{b}\nreplicas: {}\nresources:\n  limits:\n    cpu: \"2\"\n    memory: {n}Mi\nbenchmarks:",
        rng.range(1, 9)
    );
    for k in 0..x.lines {
        let _ = writeln!(
            c,
            "  - name: {}_{k}\n    timeout: {}s\n    enabled: {}",
            rng.pick(IDENTS),
            rng.range(1, 600),
            rng.chance(70)
        );
    }
}

fn toml(c: &mut String, rng: &mut Rng, x: &Names) {
    let (a, b, n) = (x.a, x.b, x.n);
    let _ = writeln!(
        c,
        "# Đo {a} với {b}\n[package]\nname = \"{a}-{b}\"\nversion = \"0.{}.0\"\nedition = \"2024\"\n\n[dependencies]",
        n % 40
    );
    for k in 0..x.lines {
        let _ = writeln!(
            c,
            "{}{k} = {{ version = \"{}.{}\", default-features = false }}",
            rng.pick(IDENTS),
            rng.range(0, 9),
            rng.range(0, 99)
        );
    }
}

fn cap(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

//! Rebuilds the binary when the built-in theme changes (it is embedded with include_dir).
fn main() {
    println!("cargo:rerun-if-changed=../../templates");
    println!("cargo:rerun-if-changed=../../static");
}

//! `cargo run -p skillscope-stats --example analyze_csv -- pairs.csv`
//! prints the report JSON for a CSV of pairs.

fn main() {
    let path = std::env::args().nth(1).expect("usage: analyze_csv <pairs.csv>");
    let file = std::fs::File::open(&path).expect("open CSV");
    match skillscope_stats::read_pairs_csv(file) {
        Ok(pairs) => {
            let report = skillscope_stats::analyze(&pairs);
            println!("{}", serde_json::to_string_pretty(&report).expect("serialize"));
        }
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    }
}

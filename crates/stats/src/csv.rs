//! CSV input: header `skill,config,task,without,with` plus optional
//! `repeat,time_without,time_with,tokens_without,tokens_with`, in any column
//! order. Empty optional cells mean "absent". Pass ratios must be finite and
//! in `[0, 1]`; times and tokens finite and ≥ 0. Errors name the 1-based
//! file line (the header is line 1).

use crate::pair::Pair;
use std::io::Read;

/// Why a CSV could not be read.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum CsvError {
    #[error("missing required column `{0}` in the header")]
    MissingColumn(&'static str),
    #[error("duplicate column `{0}` in the header")]
    DuplicateColumn(String),
    #[error("line {line}: {msg}")]
    Row { line: u64, msg: String },
    #[error("CSV: {0}")]
    Csv(String),
}

const REQUIRED: [&str; 5] = ["skill", "config", "task", "without", "with"];
const OPTIONAL: [&str; 5] = ["repeat", "time_without", "time_with", "tokens_without", "tokens_with"];

/// Read pairs from CSV.
pub fn read_pairs_csv(r: impl Read) -> Result<Vec<Pair>, CsvError> {
    let mut rdr = csv::ReaderBuilder::new().has_headers(true).trim(csv::Trim::All).from_reader(r);
    let headers = rdr.headers().map_err(|e| CsvError::Csv(e.to_string()))?.clone();
    let mut col = [None::<usize>; 10];
    for (i, h) in headers.iter().enumerate() {
        let h = h.trim_start_matches('\u{feff}');
        if let Some(k) = REQUIRED.iter().chain(OPTIONAL.iter()).position(|c| *c == h) {
            if col[k].is_some() {
                return Err(CsvError::DuplicateColumn(h.to_string()));
            }
            col[k] = Some(i);
        }
    }
    for (k, name) in REQUIRED.iter().enumerate() {
        if col[k].is_none() {
            return Err(CsvError::MissingColumn(name));
        }
    }
    let mut out = Vec::new();
    for rec in rdr.records() {
        let rec = rec.map_err(|e| match e.position() {
            Some(p) => CsvError::Row { line: p.line(), msg: e.to_string() },
            None => CsvError::Csv(e.to_string()),
        })?;
        let line = rec.position().map(|p| p.line()).unwrap_or(0);
        let err = |msg: String| CsvError::Row { line, msg };
        let get = |k: usize| col[k].and_then(|i| rec.get(i)).unwrap_or("");
        let text = |k: usize| -> Result<String, CsvError> {
            let v = get(k);
            if v.is_empty() {
                Err(err(format!("{} is empty", REQUIRED[k])))
            } else {
                Ok(v.to_string())
            }
        };
        let ratio = |k: usize| -> Result<f64, CsvError> {
            let v = get(k);
            let name = REQUIRED[k];
            let x: f64 = v.parse().map_err(|_| err(format!("{name} = {v:?} is not a number")))?;
            if !x.is_finite() || !(0.0..=1.0).contains(&x) {
                return Err(err(format!("{name} = {v} is outside [0, 1]")));
            }
            Ok(x)
        };
        let opt = |k: usize| -> Result<Option<f64>, CsvError> {
            let v = get(k);
            if v.is_empty() {
                return Ok(None);
            }
            let name = OPTIONAL[k - 5];
            let x: f64 = v.parse().map_err(|_| err(format!("{name} = {v:?} is not a number")))?;
            if !x.is_finite() || x < 0.0 {
                return Err(err(format!("{name} = {v} must be a finite number ≥ 0")));
            }
            Ok(Some(x))
        };
        let repeat = match get(5) {
            "" => None,
            v => Some(v.parse::<u32>().map_err(|_| err(format!("repeat = {v:?} is not a non-negative integer")))?),
        };
        out.push(Pair {
            skill: text(0)?,
            config: text(1)?,
            condition: None,
            task: text(2)?,
            repeat,
            without: ratio(3)?,
            with: ratio(4)?,
            time_without: opt(6)?,
            time_with: opt(7)?,
            tokens_without: opt(8)?,
            tokens_with: opt(9)?,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_any_order_and_optionals() {
        let s = "with,task,skill,without,config,tokens_with,repeat\n\
                 0.5,t1,s,0.25,c,100,2\n\
                 1,t2,s,0,c,,\n";
        let v = read_pairs_csv(s.as_bytes()).unwrap();
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].with, 0.5);
        assert_eq!(v[0].without, 0.25);
        assert_eq!(v[0].repeat, Some(2));
        assert_eq!(v[0].tokens_with, Some(100.0));
        assert_eq!(v[0].tokens_without, None);
        assert_eq!(v[1].repeat, None);
        assert_eq!(v[1].tokens_with, None);
    }

    #[test]
    fn errors_name_the_line() {
        let s = "skill,config,task,without,with\n\
                 s,c,t1,0.1,0.2\n\
                 s,c,t2,0.1,0.2\n\
                 s,c,t3,0.1,0.2\n\
                 s,c,t4,0.1,0.2\n\
                 s,c,t5,0.1,0.2\n\
                 s,c,t6,1.3,0.2\n";
        let e = read_pairs_csv(s.as_bytes()).unwrap_err();
        assert_eq!(e.to_string(), "line 7: without = 1.3 is outside [0, 1]");
        let e = read_pairs_csv("skill,config,task,without,with\ns,c,t,x,0\n".as_bytes()).unwrap_err();
        assert_eq!(e.to_string(), "line 2: without = \"x\" is not a number");
        let e = read_pairs_csv("skill,config,task,without,with\ns,c,,0,0\n".as_bytes()).unwrap_err();
        assert_eq!(e.to_string(), "line 2: task is empty");
        let e = read_pairs_csv("skill,config,task,with\n".as_bytes()).unwrap_err();
        assert_eq!(e, CsvError::MissingColumn("without"));
        let e = read_pairs_csv("skill,config,task,without,with,repeat\ns,c,t,0,1,-1\n".as_bytes()).unwrap_err();
        assert_eq!(e.to_string(), "line 2: repeat = \"-1\" is not a non-negative integer");
        let e = read_pairs_csv("skill,config,task,without,with\ns,c,t,0,1\ns,c\n".as_bytes()).unwrap_err();
        assert!(e.to_string().starts_with("line 3:"), "{e}");
        let e = read_pairs_csv("skill,config,task,without,with,time_with\ns,c,t,0,1,-3\n".as_bytes()).unwrap_err();
        assert!(e.to_string().starts_with("line 2: time_with = -3"), "{e}");
    }
}

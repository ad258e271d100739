//! Scoring a suite: outcomes, SV-COMP points, the table and the contradictions across models.

use super::answer::Answer;

/// How one run ended, as the runner saw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Answer(Answer),
    /// verify exited 3 (input error) or printed no Result line
    Error(String),
    /// the runner's wall-clock limit killed it
    Timeout,
}

impl Outcome {
    pub fn word(&self) -> &str {
        match self {
            Outcome::Answer(Answer::True) => "TRUE",
            Outcome::Answer(Answer::False) => "FALSE",
            Outcome::Answer(Answer::Unknown) => "UNKNOWN",
            Outcome::Error(_) => "ERROR",
            Outcome::Timeout => "TIMEOUT",
        }
    }
    fn answer(&self) -> Option<Answer> {
        match self {
            Outcome::Answer(a) if *a != Answer::Unknown => Some(*a),
            _ => None,
        }
    }
}

/// SV-COMP's score for one answer: correct TRUE +2, correct FALSE +1,
/// wrong FALSE -16, wrong TRUE -32, no answer (or no expectation) 0.
pub fn score(expected: Option<bool>, outcome: &Outcome) -> i64 {
    match (expected, outcome.answer()) {
        (Some(true), Some(Answer::True)) => 2,
        (Some(false), Some(Answer::False)) => 1,
        (Some(true), Some(Answer::False)) => -16,
        (Some(false), Some(Answer::True)) => -32,
        _ => 0,
    }
}

/// `yes`, `NO`, `-` (no answer) or `?` (no expectation).
pub fn correctness(expected: Option<bool>, outcome: &Outcome) -> &'static str {
    match (expected, outcome.answer()) {
        (None, _) => "?",
        (Some(_), None) => "-",
        (Some(e), Some(a)) => {
            if (a == Answer::True) == e {
                "yes"
            } else {
                "NO"
            }
        }
    }
}

/// One line of the runner's table.
#[derive(Clone, Debug)]
pub struct Row {
    pub task: String,
    pub model: String,
    /// the reduction asked for (`verify --por`); empty: verify's default
    pub por: String,
    pub expected: Option<bool>,
    pub outcome: Outcome,
    pub seconds: f64,
}

impl Row {
    pub fn is_wrong(&self) -> bool {
        correctness(self.expected, &self.outcome) == "NO"
    }
    pub fn is_correct(&self) -> bool {
        correctness(self.expected, &self.outcome) == "yes"
    }
}

fn expected_word(e: Option<bool>) -> &'static str {
    match e {
        Some(true) => "TRUE",
        Some(false) => "FALSE",
        None => "?",
    }
}

/// The table: task | model | expected | result | correct? | seconds, with
/// a por column after the model when some run asked for a reduction.
pub fn format_table(rows: &[Row]) -> String {
    let w = rows.iter().map(|r| r.task.len()).max().unwrap_or(4).max(4);
    let pors = rows.iter().any(|r| !r.por.is_empty());
    let por = |p: &str| if pors { format!("  {p:<7}") } else { String::new() };
    let mut out = format!("{:<w$}  {:<5}{}  {:<8}  {:<7}  {:<8}  {:>8}\n", "task", "model", por("por"), "expected", "result", "correct?", "seconds");
    for r in rows {
        out.push_str(&format!(
            "{:<w$}  {:<5}{}  {:<8}  {:<7}  {:<8}  {:>8.2}\n",
            r.task,
            r.model,
            por(if r.por.is_empty() { "default" } else { &r.por }),
            expected_word(r.expected),
            r.outcome.word(),
            correctness(r.expected, &r.outcome),
            r.seconds
        ));
    }
    out
}

/// Per model (and reduction, when some run asked for one): the score, the
/// counts behind it and the time.
pub fn format_scores(rows: &[Row], models: &[String]) -> String {
    let mut out = String::new();
    let mut pors: Vec<&str> = vec![];
    for r in rows {
        if !pors.contains(&r.por.as_str()) {
            pors.push(&r.por);
        }
    }
    for (m, p) in models.iter().flat_map(|m| pors.iter().map(move |p| (m, *p))) {
        let rs: Vec<&Row> = rows.iter().filter(|r| &r.model == m && r.por == p).collect();
        let m = if p.is_empty() { m.clone() } else { format!("{m} --por {p}") };
        let count = |f: &dyn Fn(&Row) -> bool| rs.iter().filter(|r| f(r)).count();
        let ok = |r: &Row, a: Answer| correctness(r.expected, &r.outcome) == "yes" && r.outcome == Outcome::Answer(a);
        let bad = |r: &Row, a: Answer| correctness(r.expected, &r.outcome) == "NO" && r.outcome == Outcome::Answer(a);
        let total: i64 = rs.iter().map(|r| score(r.expected, &r.outcome)).sum();
        let seconds: f64 = rs.iter().map(|r| r.seconds).sum();
        out.push_str(&format!(
            "score {m}: {total} ({} tasks: {} correct true, {} correct false, {} wrong true, {} wrong false, {} unknown, {} without expectation; {:.1} s)\n",
            rs.len(),
            count(&|r| ok(r, Answer::True)),
            count(&|r| ok(r, Answer::False)),
            count(&|r| bad(r, Answer::True)),
            count(&|r| bad(r, Answer::False)),
            count(&|r| r.expected.is_some() && r.outcome.answer().is_none()),
            count(&|r| r.expected.is_none()),
            seconds
        ));
    }
    out
}

/// Answers that contradict each other across models: every SC execution is
/// a TSO execution and every TSO execution a PSO one (at one buffer bound),
/// so a violation under a stronger model is one under every weaker model,
/// and TRUE under a weaker model means TRUE under every stronger one. A
/// contradiction means one of the answers is wrong, whatever the task's
/// expectation says (this needs no expected verdict for TSO and PSO).
pub fn model_contradictions(rows: &[Row]) -> Vec<String> {
    const STRENGTH: [&str; 3] = ["sc", "tso", "pso"];
    let mut out = vec![];
    let mut tasks: Vec<(&str, &str)> = rows.iter().map(|r| (r.task.as_str(), r.por.as_str())).collect();
    tasks.sort();
    tasks.dedup();
    for (task, por) in tasks {
        let answer = |m: &str| rows.iter().find(|r| r.task == task && r.model == m && r.por == por).and_then(|r| r.outcome.answer());
        let with = if por.is_empty() { String::new() } else { format!(" with --por {por}") };
        for (i, strong) in STRENGTH.iter().enumerate() {
            for weak in &STRENGTH[i + 1..] {
                if answer(strong) == Some(Answer::False) && answer(weak) == Some(Answer::True) {
                    out.push(format!("{task}: FALSE under {strong} but TRUE under {weak}{with} (every {strong} execution is a {weak} execution)"));
                }
            }
        }
    }
    out
}

/// Answers of one task under one model that differ between reductions: a
/// reduction explores a subset of the executions that stands for all of
/// them, so TRUE with one and FALSE with another means one is wrong
/// (`--por none`, exhaustive, is the reference wherever it answers).
pub fn por_contradictions(rows: &[Row]) -> Vec<String> {
    let mut out = vec![];
    for (i, a) in rows.iter().enumerate() {
        for b in &rows[i + 1..] {
            if a.task != b.task || a.model != b.model || a.por == b.por {
                continue;
            }
            if let (Some(x), Some(y)) = (a.outcome.answer(), b.outcome.answer()) {
                if x != y {
                    let name = |p: &str| if p.is_empty() { "the default --por".to_string() } else { format!("--por {p}") };
                    out.push(format!("{}: {} with {} but {} with {} under {}", a.task, a.outcome.word(), name(&a.por), b.outcome.word(), name(&b.por), a.model));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn contradictions_across_models_are_reported() {
        let row = |task: &str, model: &str, a: Answer| Row { task: task.into(), model: model.into(), por: String::new(), expected: None, outcome: Outcome::Answer(a), seconds: 0.0 };
        let rows = vec![
            row("ok", "sc", Answer::True),
            row("ok", "tso", Answer::False),
            row("ok", "pso", Answer::False),
            row("bad", "sc", Answer::False),
            row("bad", "tso", Answer::True),
            row("bad", "pso", Answer::Unknown),
        ];
        let c = model_contradictions(&rows);
        assert_eq!(c, vec!["bad: FALSE under sc but TRUE under tso (every sc execution is a tso execution)".to_string()]);
    }

    #[test]
    fn scores_and_table() {
        let row = |task: &str, model: &str, expected, outcome| Row { task: task.into(), model: model.into(), por: String::new(), expected, outcome, seconds: 1.0 };
        let t = Outcome::Answer(Answer::True);
        let f = Outcome::Answer(Answer::False);
        let u = Outcome::Answer(Answer::Unknown);
        assert_eq!(score(Some(true), &t), 2);
        assert_eq!(score(Some(false), &f), 1);
        assert_eq!(score(Some(true), &f), -16);
        assert_eq!(score(Some(false), &t), -32);
        assert_eq!(score(Some(false), &u), 0);
        assert_eq!(score(None, &t), 0);
        assert_eq!(score(Some(true), &Outcome::Timeout), 0);
        let rows = vec![
            row("a", "sc", Some(true), t.clone()),
            row("b", "sc", Some(false), f.clone()),
            row("c", "sc", Some(false), t.clone()),
            row("a", "tso", None, f.clone()),
            row("b", "tso", Some(false), Outcome::Error("x".into())),
        ];
        let table = format_table(&rows);
        assert!(table.lines().next().unwrap().split_whitespace().eq(["task", "model", "expected", "result", "correct?", "seconds"]));
        assert!(table.lines().nth(3).unwrap().split_whitespace().eq(["c", "sc", "FALSE", "TRUE", "NO", "1.00"]));
        assert!(table.lines().nth(4).unwrap().split_whitespace().eq(["a", "tso", "?", "FALSE", "?", "1.00"]));
        assert!(table.lines().nth(5).unwrap().split_whitespace().eq(["b", "tso", "FALSE", "ERROR", "-", "1.00"]));
        let s = format_scores(&rows, &["sc".into(), "tso".into()]);
        assert!(s.starts_with("score sc: -29 (3 tasks: 1 correct true, 1 correct false, 1 wrong true, 0 wrong false, 0 unknown, 0 without expectation; 3.0 s)"), "{s}");
        assert!(s.contains("score tso: 0 (2 tasks: 0 correct true, 0 correct false, 0 wrong true, 0 wrong false, 1 unknown, 1 without expectation; 2.0 s)"), "{s}");
        assert!(rows[2].is_wrong() && !rows[3].is_wrong());
    }

    #[test]
    fn reductions_are_compared_and_scored_apart() {
        let row = |task: &str, por: &str, outcome| Row { task: task.into(), model: "tso".into(), por: por.into(), expected: Some(false), outcome, seconds: 1.0 };
        let (t, f) = (Outcome::Answer(Answer::True), Outcome::Answer(Answer::False));
        let rows = vec![
            row("a", "optimal", f.clone()),
            row("a", "none", f.clone()),
            row("b", "optimal", t.clone()),
            row("b", "none", f.clone()),
            row("c", "optimal", t.clone()),
            row("c", "none", Outcome::Timeout),
        ];
        assert_eq!(por_contradictions(&rows), vec!["b: TRUE with --por optimal but FALSE with --por none under tso".to_string()]);
        let table = format_table(&rows);
        assert!(table.lines().next().unwrap().split_whitespace().eq(["task", "model", "por", "expected", "result", "correct?", "seconds"]), "{table}");
        assert!(table.lines().nth(4).unwrap().split_whitespace().eq(["b", "tso", "none", "FALSE", "FALSE", "yes", "1.00"]), "{table}");
        let s = format_scores(&rows, &["tso".into()]);
        assert!(s.starts_with("score tso --por optimal: -63 (3 tasks: 0 correct true, 1 correct false, 2 wrong true"), "{s}");
        assert!(s.contains("score tso --por none: 2 (3 tasks: 0 correct true, 2 correct false, 0 wrong true, 0 wrong false, 1 unknown"), "{s}");
        // one reduction's answers across models are checked on their own
        assert!(model_contradictions(&rows).is_empty());
    }

}

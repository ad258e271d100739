//! The `Result:` line verify prints for SV-COMP.

use super::property::PropertyKind;

/// An SV-COMP answer for unreach-call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    True,
    False,
    Unknown,
}

impl Answer {
    /// `Result: TRUE`, `Result: FALSE(unreach-call)`, `Result: UNKNOWN`.
    pub fn line(self) -> String {
        format!("Result: {}", self.word())
    }
    /// `line` for the property checked: FALSE names it (`FALSE(no-data-race)`).
    pub fn line_for(self, kind: &PropertyKind) -> String {
        match (self, kind) {
            (Answer::False, PropertyKind::NoDataRace) => "Result: FALSE(no-data-race)".into(),
            _ => self.line(),
        }
    }
    pub fn word(self) -> &'static str {
        match self {
            Answer::True => "TRUE",
            Answer::False => "FALSE(unreach-call)",
            Answer::Unknown => "UNKNOWN",
        }
    }
    /// verify's exit code for it: 0 TRUE, 1 FALSE, 2 UNKNOWN.
    pub fn exit_code(self) -> i32 {
        match self {
            Answer::True => crate::exit::SAFE,
            Answer::False => crate::exit::VIOLATION,
            Answer::Unknown => crate::exit::UNKNOWN,
        }
    }
    /// Read a `Result: ...` line back.
    pub fn parse_line(line: &str) -> Option<Answer> {
        let word = line.trim().strip_prefix("Result:")?.trim();
        Some(match word {
            "TRUE" => Answer::True,
            w if w == "FALSE" || w.starts_with("FALSE(") => Answer::False,
            "UNKNOWN" => Answer::Unknown,
            _ => return None,
        })
    }
}

/// The answer for an exploration's verdict: SAFE is TRUE, a violation
/// (with Property::UnreachCall only reach_error or a failed assert) is
/// FALSE, anything else UNKNOWN. When unsupported constructs were let
/// through (--allow-unsupported), the model is not the program: UNKNOWN.
pub fn answer(verdict: &crate::report::Verdict, unsupported_allowed: bool) -> Answer {
    if unsupported_allowed {
        return Answer::Unknown;
    }
    match verdict.verdict {
        "SAFE" => Answer::True,
        "VIOLATION" => Answer::False,
        _ => Answer::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn result_lines() {
        assert_eq!(Answer::True.line(), "Result: TRUE");
        assert_eq!(Answer::False.line(), "Result: FALSE(unreach-call)");
        assert_eq!(Answer::Unknown.line(), "Result: UNKNOWN");
        for a in [Answer::True, Answer::False, Answer::Unknown] {
            assert_eq!(Answer::parse_line(&a.line()), Some(a));
        }
        assert_eq!(Answer::parse_line("SAFE"), None);
        assert_eq!((Answer::True.exit_code(), Answer::False.exit_code(), Answer::Unknown.exit_code()), (0, 1, 2));
        let v = |verdict| crate::report::Verdict { verdict, reason: String::new() };
        assert_eq!(answer(&v("SAFE"), false), Answer::True);
        assert_eq!(answer(&v("VIOLATION"), false), Answer::False);
        assert_eq!(answer(&v("UNKNOWN"), false), Answer::Unknown);
        assert_eq!(answer(&v("SAFE"), true), Answer::Unknown);
    }

}
